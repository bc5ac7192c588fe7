'use strict'

// The kinds whose cells measure through the run's lanes (and browser) of their network, opened
// once for the first such cell and closed after the network's last (bench/runner/network.js):
// page, push-page, push-protocol, ttfb, hol, site-page, rest. Their cell runners
// (bench/cells/) take what that network holds; every row says its browser (protocol-level rows
// say their client).

// ctx (the runner's, one shape for every kind) → runner({ page, cdp, context, link, meter, laneInfo, … }) → rows.
async function inSharedEnv (ctx, runner) {
  const env = await ctx.network.shared()
  const rows = await runner({
    page: env.page,
    cdp: env.cdp,
    context: env.browser && env.browser.context,
    link: env.link,
    meter: env.meter,
    entry: ctx.entry,
    lanes: ctx.lanes,
    laneInfo: env.running.lanes.filter(l => ctx.lanes.includes(l.name)),
    seeding: ctx.seeding,
    repeats: ctx.repeats,
    budgetMs: ctx.budgetMs,
    log: ctx.log,
    browser: { name: ctx.browser, version: env.browserName },
    // Once per cell: what needs no browser (rest's protocol-level push) goes with the first browser that runs it.
    protocolRows: ctx.firstBrowser
  })
  for (const r of rows) {
    if (!r.browser) Object.assign(r, { browser: ctx.browser, browserVersion: env.browserName })
  }
  return rows
}

module.exports = { inSharedEnv }

'use strict'

// npm run bench (bin/h2bench-run.js): the source study's experiments, unattended, in the local
// Chrome/Chromium: the cells of the asked experiments, network by network and browser by
// browser, then the report. Command line: run-args.js; which runner measures each kind of
// cell and where: cell-kinds.js; the lanes and browser of a network: network.js; outputs:
// report.js; --from: rebuild.js; results.json schema: docs/runner.md.
const path = require('node:path')
const os = require('node:os')
const { parseRunArgs, HELP } = require('./run-args')
const { merge } = require('./merge')
const { select } = require('../experiments')
const { findChrome, INSTALL_HINT } = require('../../harness/chromium')
const { findFirefox, FIREFOX_INSTALL_HINT } = require('../../harness/firefox')
const { cellLinkSpec, cellParams } = require('../cells/helpers')
const { RUNNERS, OWN_SERVERS, OWN_BROWSERS, needsBrowserKind, runsIn, lanesFor, networksOf } = require('./cell-kinds')
const { openNetwork } = require('./network')
const { environmentOf } = require('./environment')
const { rebuild } = require('./rebuild')
const { estimateCellMs, remainingMs, formatDuration } = require('./budget')
const { withRatios, paramOf } = require('./conclusions')
const { writeOutputs } = require('./report')
const { validateResults } = require('./results-schema')
const { ensureEdge, edgeEnvironment } = require('../../harness/start-lanes')
const { gitCommit } = require('../../harness/provenance')
const { unavailableReason, LinkUnavailableError } = require('../../link/namespace')
const { UserError } = require('../../common/errors')
const { signalExitCode } = require('../../common/cli')
const { needsPrivateNamespace, preparePrivateNamespace } = require('../../harness/private-netns')
const { buildThenRerun } = require('../../harness/build-then-rerun')
const { checkSites } = require('../cells/site-url')

const ROOT = path.join(__dirname, '..', '..')

// Ctrl-C, SIGTERM or SIGHUP stop the measuring process at once, with a
// line saying so and the signal's exit code (130, 143, 129): a cell cut short
// is not a result, so no report is written. Browsers, lanes, Caddy and the
// link end with this process (pipes, parent-death signals). Playwright's own
// handlers are off (launchBrowser handleSignals: false): they closed the
// browser and left the runner to time dead pages and write a report of
// failures that exited 0.
function stopOnSignals () {
  for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
    process.once(sig, () => {
      process.stderr.write(`h2bench-run: ${sig}: stopped; an interrupted run writes no report\n`)
      process.exit(signalExitCode(sig))
    })
  }
}

// A cell's name, as its experiment's sweep shows it (the report's first column): "loss 30 %", "150", "0.2".
const cellName = (experiment, cell) => String(paramOf({ preset: cell.preset, params: cellParams(cell) }, experiment.sweep.param))

// With --cells, the entries whose cell is named; UserError naming the names there are when one matches nothing.
function onlyCells (entries, names) {
  if (!names) return entries
  const known = [...new Set(entries.map(e => cellName(e.experiment, e.cell)))]
  const unknown = names.filter(n => !known.includes(n))
  if (unknown.length) throw new UserError(`--cells: no cell named ${unknown.map(n => JSON.stringify(n)).join(', ')} in these experiments; their cells are ${known.map(n => JSON.stringify(n)).join(', ')}`, { status: 400 })
  return entries.filter(e => names.includes(cellName(e.experiment, e.cell)))
}

// Where a row was measured: a sharded study runs on several machines.
const MACHINE = os.hostname()

async function run (opts, log) {
  const experiments = select(opts.experiments, { smoke: opts.smoke, site: opts.site })
  const entries = onlyCells(experiments.flatMap(experiment => experiment.cells.map((cell, index) => ({ experiment, index, cell }))), opts.cells)
  const needsBrowser = entries.some(e => needsBrowserKind(e.experiment.kind))
  opts.browsers = opts.browsers || ['chromium']
  if (needsBrowser && opts.browsers.includes('chromium') && !findChrome()) throw new UserError(`no Chrome or Chromium found: ${INSTALL_HINT}`, { status: 503 })
  if (opts.networks.includes('link')) {
    const why = unavailableReason()
    if (why) throw new LinkUnavailableError(`--network ${opts.networks.length > 1 ? 'both' : 'link'}: ${why}; --network devtools works without it`)
  }
  const startedAt = new Date()
  const commit = gitCommit() // the code this run measures, read before anything can change it
  // Each cell's place in the whole plan, kept with its rows: a shard's rows merge back into this order (merge.js).
  const plan = opts.networks.flatMap(network => opts.browsers.flatMap(browser => entries
    .filter(e => networksOf(e.experiment, opts).includes(network) && runsIn(e.experiment, browser, network, opts.browsers))
    .map(e => ({ ...e, network, browser })))).map((e, planned) => ({ ...e, planned }))
  if (opts.lanesAt) {
    const own = [...new Set(plan.filter(e => OWN_SERVERS.has(e.experiment.kind)).map(e => e.experiment.id))]
    if (own.length) throw new UserError(`--lanes-at: ${own.join(', ')} start${own.length === 1 ? 's' : ''} servers of ${own.length === 1 ? 'its' : 'their'} own and cannot measure lanes elsewhere; for the load tools use h2bench load --lanes-at`, { status: 400 })
  }
  const planned = opts.shard ? plan.filter(e => e.planned % opts.shard.count === opts.shard.index - 1) : plan
  if (opts.shard) log(`shard ${opts.shard.index} of ${opts.shard.count}: ${planned.length} of the plan's ${plan.length} cells`)
  for (const e of entries) {
    for (const b of opts.browsers) {
      // An experiment on none of the asked networks is skipped with one line below, saying which to add.
      if (e.index === 0 && needsBrowserKind(e.experiment.kind) && networksOf(e.experiment, opts).length && !opts.networks.some(n => networksOf(e.experiment, opts).includes(n) && runsIn(e.experiment, b, n, opts.browsers))) log(`${e.experiment.id}: not in ${b} (it needs Chromium's DevTools protocol${e.experiment.kind === 'page' ? ', or --network link' : ''})`)
    }
  }
  if (opts.browsers.includes('firefox') && planned.some(e => e.browser === 'firefox') && !findFirefox()) throw new UserError(`--browser ${opts.browsers.length > 1 ? 'both' : 'firefox'}: no Firefox found: ${FIREFOX_INSTALL_HINT}`, { status: 503 })
  for (const e of entries) {
    if (!networksOf(e.experiment, opts).length && e.index === 0) log(`${e.experiment.id}: skipped, it runs only with --network ${e.experiment.networks.join(' or ')}`)
  }
  // The site experiment's pages: reachable before any browser starts.
  await checkSites(planned.filter(e => e.experiment.kind === 'site-url').map(e => e.cell))
  const estimates = planned.map(e => estimateCellMs(e, { lanes: lanesFor(e.experiment, opts).length, repeats: opts.repeats, budgetMs: opts.budgetMs }))
  log(`${planned.length} cells (${opts.networks.join(' and ')}), ${opts.repeats} repeats each, budget ${formatDuration(opts.budgetMs)} per cell`)
  // The site experiment measures the user's URL: no lane, so no Caddy to build for it.
  const caddyBuild = planned.every(e => OWN_BROWSERS.has(e.experiment.kind)) ? null : await ensureEdge(opts.lanes, log)
  let edge = null
  let lanesAt = null // --lanes-at: where the lanes ran and the round trip to them
  let forwarderPriority = null // the link's forwarder: real-time where allowed (link/forwarder/index.js)
  const results = []
  let browserName = null
  let firefoxName = null
  let userAgent = null
  const t0 = Date.now()
  let k = 0
  for (const [network, browser] of opts.networks.flatMap(n => opts.browsers.map(b => [n, b]))) {
    const mine = planned.filter(e => e.network === network && e.browser === browser)
    if (!mine.length) continue
    // The lanes (and browser) of this network, opened for the first cell that uses them.
    let env = null
    const shared = async entry => {
      if (env) return env
      env = await openNetwork(network, { opts, needsBrowser: mine.some(e => needsBrowserKind(e.experiment.kind)), browser, log, firstSpec: cellLinkSpec(entry.cell) })
      if (browser === 'firefox') firefoxName = firefoxName || env.browserName
      else {
        browserName = browserName || env.browserName
        userAgent = userAgent || env.userAgent
      }
      edge = edge || edgeEnvironment(env.running, caddyBuild)
      if (env.link) forwarderPriority = forwarderPriority || env.link.opened.forwarder.priority || null
      if (env.remote) lanesAt = env.remote
      log(`network ${network}: lanes ${env.running.lanes.map(l => `${l.name} ${l.url}`).join(', ')}`)
      return env
    }
    try {
      for (const entry of mine) {
        const { experiment, cell } = entry
        const elapsed = Date.now() - t0
        const left = remainingMs({
          doneEstimateMs: estimates.slice(0, k).reduce((a, b) => a + b, 0),
          doneActualMs: elapsed,
          leftEstimateMs: estimates.slice(k).reduce((a, b) => a + b, 0)
        })
        k++
        const what = Object.entries(cell).filter(([, v]) => v === null || typeof v !== 'object' || (Array.isArray(v) && v.every(x => typeof x !== 'object'))).map(([key, v]) => `${key} ${v}`).join(', ')
        log(`cell ${k} of ${planned.length}: ${experiment.id} (${what}) on ${network}${opts.browsers.length > 1 ? ` in ${browser}` : ''} · ${formatDuration(elapsed)} elapsed, about ${formatDuration(left)} left`)
        const wanted = lanesFor(experiment, opts)
        if (!wanted.length && !OWN_BROWSERS.has(experiment.kind)) {
          log(`  skipped: needs lane ${experiment.lanes.join(' or ')}`)
          continue
        }
        let rows
        if (OWN_BROWSERS.has(experiment.kind)) {
          rows = await RUNNERS[experiment.kind]({ entry, repeats: opts.repeats, budgetMs: opts.budgetMs, seeding: opts.seeding, log, browser, outDir: opts.outDir || null })
          const version = (rows.find(r => r.browserVersion) || {}).browserVersion || null
          if (browser === 'firefox') firefoxName = firefoxName || version
          else browserName = browserName || version
        } else if (OWN_SERVERS.has(experiment.kind)) {
          rows = await RUNNERS[experiment.kind]({
            entry, lanes: wanted, repeats: opts.repeats, budgetMs: opts.budgetMs, seeding: opts.seeding, log, onServers: (running, priority) => {
              edge = edge || edgeEnvironment(running, caddyBuild)
              forwarderPriority = forwarderPriority || priority || null
            }
          })
        } else {
          const e = await shared(entry)
          const laneInfo = e.running.lanes.filter(l => wanted.includes(l.name))
          rows = await RUNNERS[experiment.kind]({
            page: e.page, cdp: e.cdp, context: e.browser && e.browser.context, link: e.link, entry, lanes: wanted, laneInfo, meter: e.meter, seeding: opts.seeding,
            repeats: opts.repeats, budgetMs: opts.budgetMs, log,
            browser: { name: browser, version: e.browserName },
            // Once per cell: what needs no browser (rest's protocol-level push) goes with the first browser that runs it.
            protocolRows: opts.browsers.find(b => runsIn(experiment, b, network, opts.browsers)) === browser
          })
          // Every row says its browser (protocol-level rows say their client).
          for (const r of rows) {
            if (!r.browser) Object.assign(r, { browser, browserVersion: e.browserName })
          }
        }
        for (const r of rows) {
          const med = r.median === null ? 'no samples' : `${(r.median / 1000).toFixed(3)} s`
          log(`  ${r.lane}${r.mode ? ' ' + r.mode : ''}: median ${med} over ${r.repeatsGot} of ${r.repeatsAsked}, ${r.failures} failed` +
            `${r.pushOutcome ? `, ${r.pushOutcome}` : ''}${r.note ? ` (${r.note})` : ''}`)
        }
        for (const r of rows) Object.assign(r, { planned: entry.planned, machine: MACHINE })
        results.push(...rows)
      }
    } finally {
      if (env) await env.close()
    }
  }
  const environment = environmentOf({ opts, plannedCells: plan.length, commit, browser: browserName, firefox: firefoxName, userAgent, startedAt, finishedAt: new Date(), edge, forwarderPriority, lanesAt })
  return { environment, results: withRatios(results), experiments }
}

// → the exit code (common/cli.js); `entry`: the script that was started (bin/h2bench-run.js),
// which starts itself again in its private namespace.
async function main (argv, { entry } = {}) {
  const opts = parseRunArgs(argv) // UsageError: one line, exit 2
  if (opts.help) {
    process.stdout.write(HELP + '\n')
    return 0
  }
  if (opts.from) return rebuild(opts)
  if (opts.merge) return merge(opts)
  // Behind a link the runner runs in a network namespace of its own: the
  // link and its TCP settings never touch the host's (harness/private-netns.js).
  // Caddy and oha (the load experiments' HTTP/3 client) are built out here first.
  if (needsPrivateNamespace(opts.networks)) {
    const oha = select(opts.experiments).some(e => e.kind === 'load') && opts.lanes.includes('h3')
    return buildThenRerun({ lanes: opts.lanes, oha, nat: Boolean(opts.site && opts.site.link), entry, argv, log: line => process.stderr.write(line + '\n') })
  }
  await preparePrivateNamespace()
  stopOnSignals()
  opts.argv = argv
  const stamp = new Date().toISOString().replace(/[:.]/g, '-')
  const out = path.resolve(opts.out || path.join(ROOT, 'results', stamp))
  opts.outDir = out // the site experiment writes a HAR file per load into out/har/
  const log = line => process.stderr.write(line + '\n')
  const report = await run(opts, log)
  const json = writeOutputs(out, report)
  log(`done in ${formatDuration(report.environment.durationSeconds * 1000)}; wrote ${path.relative(process.cwd(), out) || '.'}/{results.json,results.csv,report.md,report.html}`)
  if (opts.json) process.stdout.write(JSON.stringify(json, null, 2) + '\n')
  // A bug here must not pass for a result: say so, after writing what there is.
  const problems = validateResults(json)
  if (problems.length) {
    log(`results.json does not match its schema (docs/runner.md):\n  ${problems.slice(0, 20).join('\n  ')}`)
    return 1
  }
  return 0
}

module.exports = { main, run }

'use strict'

// Cells of kind `push-page` (experiment push): navigations of a tab to each
// lane's /push page, its scripts pushed or requested.
const stats = require('../../shared/stats')
const { budgetNote } = require('./budget')
const { sumCosts } = require('../../harness/cell-costs')
const { applyNetwork, row, mostFrequent, repeatWithinBudget, applySeed, seedsOf } = require('./helpers')

// X-H2bench-Push → what the report says.
const OUTCOMES = {
  'refused-by-client': 'refused by the browser',
  'unsupported-by-lane': 'this lane cannot push',
  none: 'not asked (mode=none)'
}
function pushOutcome (header) {
  if (!header) return 'unknown (no X-H2bench-Push header)'
  if (/^promised=/.test(header)) return `pushed (${header})`
  return OUTCOMES[header] || header
}

// One navigation to the lane's /push page: page load time (navigation start
// to the end of the load event), the scripts' own load time (first script
// request to last script byte), both from the page's Navigation and
// Resource Timing entries.
// `cdp`: the tab's session, its Network domain on: the document's status and
// its X-H2bench-Push header (the runner's browser runs without puppeteer's
// own Network domain, whose goto() would have given them).
async function loadAssetPage (tab, cdp, url) {
  let document = null
  const onResponse = e => { if (e.type === 'Document' && e.response.url === url) document = e.response }
  cdp.on('Network.responseReceived', onResponse)
  try {
    await tab.goto(url, { waitUntil: 'load', timeout: 15 * 60 * 1000 })
  } finally {
    cdp.off('Network.responseReceived', onResponse)
  }
  await tab.waitForFunction(() => performance.getEntriesByType('navigation')[0].loadEventEnd > 0)
  const timing = await tab.evaluate(() => {
    const nav = performance.getEntriesByType('navigation')[0]
    const assets = performance.getEntriesByType('resource').filter(e => /\/asset\/\d+\.js/.test(e.name))
    return {
      total: nav.loadEventEnd - nav.startTime,
      asset: assets.length ? Math.max(...assets.map(e => e.responseEnd)) - Math.min(...assets.map(e => e.startTime)) : null,
      protocol: nav.nextHopProtocol || null
    }
  })
  const headers = document ? Object.fromEntries(Object.entries(document.headers).map(([k, v]) => [k.toLowerCase(), v])) : {}
  return { ...timing, status: document ? document.status : null, header: headers['x-h2bench-push'] }
}

// A push-page cell: the /push page with mode=push and with mode=none on each
// lane, in a tab of its own with the cell's network conditions. Each load
// has a tag of its own, so nothing comes from the HTTP cache.
async function runPushPageCell ({ context, link, entry, laneInfo, repeats, budgetMs, meter = null, seeding = null, log = () => {} }) {
  const { cell, experiment } = entry
  const tab = await context.newPage()
  try {
    // The tab's session: its Network domain on (no body kept) for each document's status and push header
    // (loadAssetPage), the cell's throttling, and the meter.
    const cdp = await tab.createCDPSession()
    await cdp.send('Network.enable', { maxTotalBufferSize: 0, maxResourceBufferSize: 0 })
    // Connections first, unthrottled and not timed: a browser loading a page
    // of a site it just talked to has them already, and DevTools throttling
    // leaves connection setup alone anyway.
    for (const lane of laneInfo) await tab.goto(`${lane.url}/lane`)
    const network = await applyNetwork(cdp, cell.preset, link, cell.link, { keepsNetwork: true })
    // The meter on this tab (its own DevTools session): each timed load's costs.
    const tabMeter = meter ? meter.forPage(cdp) : null
    const combos = laneInfo.flatMap(l => experiment.modes.map(mode => ({ lane: l, mode })))
    const per = combos.map(() => ({ samples: [], assetSamples: [], failures: 0, outcomes: [], protocols: [], costs: [], seeds: [] }))
    const { planned, firstMs } = await repeatWithinBudget({ repeats, budgetMs, log }, async r => {
      const order = combos.map((c, i) => i)
      if (r % 2) order.reverse()
      for (const i of order) {
        const { lane, mode } = combos[i]
        const tag = `r${Date.now().toString(36)}-${i}-${r}`
        const url = `${lane.url}/push?assets=${cell.assets}&size=${encodeURIComponent(cell.size)}&mode=${mode}&tag=${tag}`
        try {
          const seed = await applySeed(link, seeding, r, i)
          if (tabMeter) await tabMeter.start()
          const t = await loadAssetPage(tab, cdp, url)
          if (tabMeter) per[i].costs.push(await tabMeter.stop())
          if (t.status !== 200) throw new Error(`status ${t.status}`)
          per[i].samples.push(t.total)
          if (seed !== null) per[i].seeds.push(seed)
          if (t.asset !== null) per[i].assetSamples.push(t.asset)
          per[i].outcomes.push(pushOutcome(t.header))
          if (t.protocol) per[i].protocols.push(t.protocol)
        } catch (err) {
          per[i].failures++
          per[i].outcomes.push(`failed: ${err.message.split('\n')[0]}`)
        }
      }
    })
    const note = budgetNote(repeats, planned, firstMs, budgetMs)
    return combos.map(({ lane, mode }, i) => row({
      entry, lane: lane.name, mode, samples: per[i].samples, failures: per[i].failures,
      protocol: mostFrequent(per[i].protocols), asked: repeats, note,
      extra: {
        ...network,
        pushOutcome: [...new Set(per[i].outcomes)].join('; ') || null,
        assetMedian: per[i].assetSamples.length ? +stats.median(per[i].assetSamples).toFixed(2) : null,
        ...(meter ? { costs: sumCosts(per[i].costs) } : {}),
        ...seedsOf(per[i])
      }
    }))
  } finally {
    await tab.close()
  }
}

module.exports = { runPushPageCell, pushOutcome }

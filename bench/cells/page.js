'use strict'

// Runs one cell of an experiment and returns its result rows, one per lane
// (and mode). Page cells go through window.h2bench.run, the Run button's
// code path; push-page cells are navigations; push-protocol cells use Node's
// http2 client.
const stats = require('../../client/js/stats')
const { parseSize } = require('../../server/payload')
const { presetByName, toCdp } = require('../../link/devtools-presets')
const { repeatsFor, budgetNote } = require('../runner/budget')
const { watchNetErrors } = require('../../harness/net-errors')
const { linkSpecFor } = require('../runner/bounds')
const { runInside } = require('../../harness/in-namespace')

// The link a cell runs on: its own spec, else its preset's (a DevTools
// preset has a link preset of the same name).
const cellLinkSpec = cell => cell.link || linkSpecFor(cell.preset)

// A cell's network: the preset as DevTools throttling (CDP, per request), or
// as the packet-level link the browser sits behind (`link`: link/session.js's
// session; CDP throttling then off). A cell may carry its own `link: '<spec>'`
// (link/spec.js) instead of a preset: link networks only. Returns what the row records.
async function applyNetwork (cdp, preset, link, spec = null) {
  if (!link) {
    if (spec) throw new Error(`a cell with its own link "${spec}" runs only with --network link`)
    await cdp.send('Network.emulateNetworkConditions', toCdp(presetByName(preset)))
    return { network: 'devtools', link: null, linkSpec: null }
  }
  if (cdp) await cdp.send('Network.emulateNetworkConditions', toCdp(presetByName('No throttling')))
  const active = await link.control.change(cellLinkSpec({ link: spec, preset }))
  return { network: 'link', link: active.description, linkSpec: active.text }
}

const secs = ms => `${(ms / 1000).toFixed(1)} s`

// A cell's parameters as the rows report them, units in the names.
function cellParams (cell) {
  const sizeBytes = cell.size === undefined ? null : parseSize(cell.size)
  return {
    requests: cell.requests ?? null,
    assets: cell.assets ?? null,
    sizeBytes,
    sizeMB: sizeBytes === null ? null : +(sizeBytes / 1048576).toFixed(3),
    delayMs: cell.delay ?? null
  }
}

// One result row; times in ms. See docs/runner.md for every field.
function row ({ entry, lane, mode = null, samples, failures, protocol, asked, note, extra = {} }) {
  const s = stats.summary(samples)
  const num = v => Number.isNaN(v) ? null : +v.toFixed(2)
  return {
    experiment: entry.experiment.id,
    cell: entry.index,
    params: cellParams(entry.cell),
    preset: entry.cell.preset,
    lane,
    mode,
    protocol,
    samples: samples.map(x => +x.toFixed(2)),
    median: num(s.median),
    q1: num(s.q1),
    q3: num(s.q3),
    mean: num(s.mean),
    min: num(s.min),
    max: num(s.max),
    failures,
    repeatsAsked: asked,
    repeatsGot: samples.length,
    note,
    ...extra
  }
}

function joinNotes (...notes) {
  const list = notes.flat().filter(Boolean)
  return list.length ? [...new Set(list)].join('; ') : null
}

// What one window.h2bench.run() returned, reduced in the page to what the
// runner keeps (the full result holds every request's timings).
function runInPage (page, options) {
  return page.evaluate(o => window.h2bench.run(o).then(r => ({
    state: r.state,
    lanes: r.lanes.map(l => ({
      lane: l.lane, protocol: l.protocol, samples: l.samples, leftOut: l.leftOut || 0, failures: l.failures, state: l.state || null,
      unreachable: l.unreachable ? (l.unreachable.error || `status ${l.unreachable.status}`) : null
    }))
  })), options)
}

// A page cell: one window.h2bench.run() per repeat with repeats: 1, so the
// runner can stop early when the budget runs out; lane order alternates per
// repeat as a multi-repeat run would do it.
async function runPageCell ({ page, cdp, link, entry, lanes, laneInfo, repeats, budgetMs, log = () => {} }) {
  const { cell } = entry
  const network = await applyNetwork(cdp, cell.preset, link, cell.link)
  const per = Object.fromEntries(lanes.map(l => [l, { samples: [], leftOut: 0, failures: 0, protocols: [], notes: [] }]))
  // A page cell never stops its batches: an abort is the browser's own doing too.
  const netErrors = watchNetErrors(page, laneInfo)
  let done
  try {
    done = await repeatPageCell({ page, cell, lanes, per, repeats, budgetMs, log })
  } finally {
    netErrors.stop()
  }
  const note = budgetNote(repeats, done.planned, done.firstMs, budgetMs)
  return lanes.map(lane => row({
    entry, lane, samples: per[lane].samples, failures: per[lane].failures,
    protocol: mostFrequent(per[lane].protocols), asked: repeats,
    note: joinNotes(note, per[lane].leftOut ? `${per[lane].leftOut} of ${done.planned} batches had failed requests and are not samples (failed requests end early)` : null,
      per[lane].notes, netErrors.noteFor(lane)),
    extra: network
  }))
}

// Runs `once(r)` for r = 0, 1, … as many times as asked, or as the budget
// allows judged from the first; → { planned, firstMs }.
async function repeatWithinBudget ({ repeats, budgetMs, log }, once) {
  let planned = repeats
  let firstMs = 0
  for (let r = 0; r < planned; r++) {
    const t0 = Date.now()
    await once(r)
    const took = Date.now() - t0
    if (r === 0) {
      firstMs = took
      planned = repeatsFor(repeats, firstMs, budgetMs)
    }
    if (took > 10000) log(`  repeat ${r + 1} of ${planned}: ${secs(took)}`)
  }
  return { planned, firstMs }
}

// Collects every repeat into `per` (lane → samples, failures, protocols, notes).
function repeatPageCell ({ page, cell, lanes, per, repeats, budgetMs, log }) {
  return repeatWithinBudget({ repeats, budgetMs, log }, async r => {
    const order = r % 2 ? [...lanes].reverse() : lanes
    const result = await runInPage(page, { requests: cell.requests, size: cell.size, delay: cell.delay, repeats: 1, lanes: order })
    for (const l of result.lanes) {
      const p = per[l.lane]
      p.samples.push(...l.samples)
      p.leftOut += l.leftOut
      p.failures += l.failures
      if (l.protocol) p.protocols.push(l.protocol)
      if (l.unreachable) p.notes.push(`unreachable: ${l.unreachable}`)
    }
  })
}

function mostFrequent (list) {
  const counts = new Map()
  for (const x of list) counts.set(x, (counts.get(x) || 0) + 1)
  return [...counts].sort((a, b) => b[1] - a[1]).map(([x]) => x)[0] || null
}

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
async function loadAssetPage (tab, url) {
  const response = await tab.goto(url, { waitUntil: 'load', timeout: 15 * 60 * 1000 })
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
  return { ...timing, status: response.status(), header: response.headers()['x-h2bench-push'] }
}

// A push-page cell: the /push page with mode=push and with mode=none on each
// lane, in a tab of its own with the cell's network conditions. Each load
// has a tag of its own, so nothing comes from the HTTP cache.
async function runPushPageCell ({ context, link, entry, laneInfo, repeats, budgetMs, log = () => {} }) {
  const { cell, experiment } = entry
  const tab = await context.newPage()
  try {
    const cdp = await context.newCDPSession(tab)
    await cdp.send('Network.enable')
    // Connections first, unthrottled and not timed: a browser loading a page
    // of a site it just talked to has them already, and DevTools throttling
    // leaves connection setup alone anyway.
    for (const lane of laneInfo) await tab.goto(`${lane.url}/lane`)
    const network = await applyNetwork(cdp, cell.preset, link, cell.link)
    const combos = laneInfo.flatMap(l => experiment.modes.map(mode => ({ lane: l, mode })))
    const per = combos.map(() => ({ samples: [], assetSamples: [], failures: 0, outcomes: [], protocols: [] }))
    const { planned, firstMs } = await repeatWithinBudget({ repeats, budgetMs, log }, async r => {
      const order = combos.map((c, i) => i)
      if (r % 2) order.reverse()
      for (const i of order) {
        const { lane, mode } = combos[i]
        const tag = `r${Date.now().toString(36)}-${i}-${r}`
        const url = `${lane.url}/push?assets=${cell.assets}&size=${encodeURIComponent(cell.size)}&mode=${mode}&tag=${tag}`
        try {
          const t = await loadAssetPage(tab, url)
          if (t.status !== 200) throw new Error(`status ${t.status}`)
          per[i].samples.push(t.total)
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
        assetMedian: per[i].assetSamples.length ? +stats.median(per[i].assetSamples).toFixed(2) : null
      }
    }))
  } finally {
    await tab.close()
  }
}

// A push-protocol cell: page + scripts by push and by request with Node's
// http2 client, on the lanes given (HTTP/2 ones); behind a link, the client
// runs in the link's namespace (bench/in-namespace.js).
async function runPushProtocolCell ({ entry, laneInfo, repeats, link }) {
  const { cell } = entry
  const args = {
    lanes: laneInfo.map(l => ({ name: l.name, url: l.url, protocol: l.protocol })),
    delays: [cell.delay],
    assets: cell.assets,
    size: parseSize(cell.size),
    repeats
  }
  let rows, network
  if (link) {
    network = await applyNetwork(null, cell.preset, link, cell.link)
    rows = await runInside(link.opened.spawnInside, require.resolve('./push-protocol'), 'runPushProtocol', args)
  } else {
    if (cell.preset !== 'No throttling') throw new Error(`push-protocol cells run without DevTools (no browser): preset ${cell.preset} needs --network link`)
    network = { network: 'devtools', link: null, linkSpec: null }
    rows = await require('./push-protocol').runPushProtocol(args)
  }
  return rows.map(r => row({
    entry, lane: r.lane, mode: r.mode, samples: r.samples, failures: r.failures,
    protocol: 'h2', asked: repeats, note: null,
    extra: { ...network, pushOutcome: r.mode === 'push' ? `${r.pushed} of ${cell.assets} scripts pushed` : 'requested after the page', pushed: r.pushed }
  }))
}

module.exports = { cellLinkSpec, runPageCell, runPushPageCell, runPushProtocolCell, applyNetwork, pushOutcome, row, cellParams, mostFrequent, repeatWithinBudget }

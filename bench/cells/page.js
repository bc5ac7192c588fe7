'use strict'

// Cells of kind `page` (delay, count, size, network, …): the h2bench page's
// window.h2bench.run, the Run button's code path. Every other kind of cell
// has a file of its own here (push-page.js, push-protocol-cell.js, rest.js,
// …); what they share is in helpers.js.
const { budgetNote } = require('./budget')
const { watchNetErrors } = require('../../harness/net-errors')
const { applyNetwork, row, mostFrequent, repeatWithinBudget, meterBridge, collectLane, applySeed, seedsOf } = require('./helpers')
const { sumCosts } = require('../../harness/cell-costs')

function joinNotes (...notes) {
  const list = notes.flat().filter(Boolean)
  return list.length ? [...new Set(list)].join('; ') : null
}

// What one window.h2bench.run() returned, reduced in the page to what the
// runner keeps (the full result holds every request's timings). With
// `metered`, the page awaits the runner's meter (exposed as
// window.__h2benchMeter, helpers.js meterBridge) just before and after each
// timed batch, outside its time.
function runInPage (page, options, metered = false) {
  return page.evaluate(({ o, metered }) => window.h2bench.run(
    metered ? { ...o, aroundBatch: (phase, info) => window.__h2benchMeter(phase, info) } : o
  ).then(r => ({
    state: r.state,
    lanes: r.lanes.map(l => ({
      lane: l.lane, protocol: l.protocol, samples: l.samples, leftOut: l.leftOut || 0, failures: l.failures, state: l.state || null,
      unreachable: l.unreachable ? (l.unreachable.error || `status ${l.unreachable.status}`) : null
    }))
  })), { o: options, metered })
}

// A page cell: one window.h2bench.run() per repeat and lane with repeats: 1,
// so the runner can stop early when the budget runs out; `meter`
// (harness/cell-costs.js) measures each timed batch on its own; lane order
// alternates per repeat as a multi-repeat run would do it.
async function runPageCell ({ page, cdp, link, entry, lanes, laneInfo, repeats, budgetMs, meter = null, seeding = null, log = () => {} }) {
  const { cell } = entry
  const network = await applyNetwork(cdp, cell.preset, link, cell.link)
  const per = Object.fromEntries(lanes.map(l => [l, { samples: [], leftOut: 0, failures: 0, protocols: [], notes: [], costs: [], seeds: [] }]))
  // A page cell never stops its batches: an abort is the browser's own doing too.
  // Chromium's (a DevTools session): from its console, which needs no Network domain; Firefox's from BiDi's events.
  const netErrors = watchNetErrors(page, laneInfo, { via: cdp ? 'console' : 'requests' })
  let done
  try {
    done = await repeatPageCell({ page, cell, lanes, per, repeats, budgetMs, meter, link, seeding, log })
  } finally {
    netErrors.stop()
  }
  const note = budgetNote(repeats, done.planned, done.firstMs, budgetMs)
  return lanes.map(lane => row({
    entry, lane, samples: per[lane].samples, failures: per[lane].failures,
    protocol: mostFrequent(per[lane].protocols), asked: repeats,
    note: joinNotes(note, per[lane].leftOut ? `${per[lane].leftOut} of ${done.planned} batches had failed requests and are not samples (failed requests end early)` : null,
      per[lane].notes, netErrors.noteFor(lane)),
    extra: { ...network, runsLeftOut: per[lane].leftOut, ...(meter ? { costs: sumCosts(per[lane].costs) } : {}), ...seedsOf(per[lane]) }
  }))
}

// Collects every repeat into `per` (lane → samples, failures, protocols, notes, costs).
function repeatPageCell ({ page, cell, lanes, per, repeats, budgetMs, meter, link, seeding, log }) {
  return repeatWithinBudget({ repeats, budgetMs, log }, async r => {
    const order = r % 2 ? [...lanes].reverse() : lanes
    for (const lane of order) {
      if (meter) (await meterBridge(page, meter)).sink = record => per[lane].costs.push(record)
      const seed = await applySeed(link, seeding, r, lanes.indexOf(lane))
      const result = await runInPage(page, { requests: cell.requests, size: cell.size, delay: cell.delay, repeats: 1, lanes: [lane] }, Boolean(meter))
      for (const l of result.lanes) {
        collectLane(per[l.lane], l)
        if (seed !== null) per[l.lane].seeds.push(...l.samples.map(() => seed)) // one for each sample: a batch left out is none
      }
    }
  })
}

module.exports = { runPageCell }

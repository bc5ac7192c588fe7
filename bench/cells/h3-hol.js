'use strict'

// The HTTP/3-vs-HTTP/2 study's second kind of runner cell (seed 003; the
// first: bench/cells/h3-ttfb.js), behind the packet-level link only.
//
// hol: head-of-line blocking: one window.h2bench.run batch (the Run
//   button's code path) of many parallel requests over one connection, under
//   loss; the row keeps the batch time and the spread of the requests'
//   completion times within each batch (p10, p50, p90).
const stats = require('../../shared/stats')
const { applyNetwork, row, mostFrequent, repeatWithinBudget, collectLane, meterBridge, applySeed, seedsOf } = require('./helpers')
const { sumCosts } = require('../../harness/cell-costs')
const { budgetNote } = require('./budget')
const { parseLinkSpec, rttMsOf } = require('../../link/spec')
const { socketsCongestion } = require('./congestion')
const { tally } = require('./site-page')
const { round, med } = require('./h3-figures')

// Per batch, the completion times (ms from the batch's start) of its
// requests that succeeded, from window.h2bench.run's result. With
// `metered`, the page awaits the runner's meter just outside each batch
// (helpers.js meterBridge), as bench/cells/page.js does.
function runHolBatch (page, options, metered = false) {
  return page.evaluate(({ o, metered }) => window.h2bench.run(
    metered ? { ...o, aroundBatch: (phase, info) => window.__h2benchMeter(phase, info) } : o
  ).then(r => r.lanes.map(l => ({
    lane: l.lane,
    protocol: l.protocol,
    protocolOk: l.protocolOk,
    samples: l.samples,
    leftOut: l.leftOut || 0,
    failures: l.failures,
    unreachable: l.unreachable ? (l.unreachable.error || `status ${l.unreachable.status}`) : null,
    batches: (l.batches || []).filter(b => b.state === 'done').map(b => ({
      elapsed: b.elapsed,
      failed: b.failed,
      ends: b.requests.filter(q => !q.error && q.status === 200).map(q => q.end)
    }))
  }))), { o: options, metered })
}

// A hol cell: window.h2bench.run, one batch per lane per repeat, lanes
// alternating, through a link with the cell's loss.
async function runHolCell ({ page, cdp, link, entry, lanes, laneInfo = [], repeats, budgetMs, meter = null, seeding = null, log = () => {} }) {
  const { cell } = entry
  if (!link) throw new Error(`${entry.experiment.id} runs behind the packet-level link only (--network link)`)
  const network = await applyNetwork(cdp, cell.preset, link, cell.link)
  const per = Object.fromEntries(lanes.map(l => [l, { samples: [], batches: [], failures: 0, leftOut: 0, protocols: [], notes: [], costs: [], seeds: [] }]))
  if (meter) (await meterBridge(page, meter)).sink = (record, info) => per[info.lane].costs.push(record)
  const { planned, firstMs } = await repeatWithinBudget({ repeats, budgetMs, log }, async r => {
    const order = r % 2 ? [...lanes].reverse() : lanes
    // One lane a call, each from the repeat's seed (paired: every lane meets the same drops, packet for packet).
    for (const lane of order) {
      const seed = await applySeed(link, seeding, r, lanes.indexOf(lane))
      const result = await runHolBatch(page, { requests: cell.requests, size: cell.size, delay: cell.delay || 0, repeats: 1, lanes: [lane] }, Boolean(meter))
      for (const l of result) {
        const p = per[l.lane]
        collectLane(p, l)
        if (seed !== null) p.seeds.push(...l.samples.map(() => seed))
        for (const b of l.batches) if (!b.failed) p.batches.push(b)
      }
    }
  })
  const note = budgetNote(repeats, planned, firstMs, budgetMs)
  const linkSpec = parseLinkSpec(network.linkSpec)
  // The TCP lanes' congestion control (this namespace's default: no cell sets one here), read off
  // the server's sockets of the batches' connections, still open: ss -ti.
  const ccSeen = {}
  for (const l of laneInfo) {
    ccSeen[l.name] = l.protocol === 'h3' ? 'QUIC: quic-go (Caddy), CUBIC' : tally(await socketsCongestion(l.port).catch(() => []))
  }
  return lanes.map(lane => {
    const p = per[lane]
    const q = k => p.batches.map(b => stats.quantile(b.ends, k))
    const p10 = q(0.1)
    const p50 = q(0.5)
    const p90 = q(0.9)
    const spread = p.batches.map((b, i) => p90[i] - p10[i])
    return row({
      entry,
      lane,
      samples: p.samples,
      failures: p.failures,
      protocol: mostFrequent(p.protocols),
      asked: repeats,
      note: [note, p.leftOut ? `${p.leftOut} of ${planned} batches had failed requests and are not samples` : null, ...new Set(p.notes)].filter(Boolean).join('; ') || null,
      extra: {
        ...network,
        ...(meter ? { costs: sumCosts(p.costs) } : {}),
        ...seedsOf(p),
        ccSeen: ccSeen[lane] || null,
        hol: {
          lossPct: round(linkSpec.down.loss * 100, 3),
          rttMs: rttMsOf(linkSpec),
          batches: p.batches.length,
          p10: round(med(p10)),
          p10Samples: p10.map(v => round(v)),
          p50: round(med(p50)),
          p90: round(med(p90)),
          spreadMs: round(med(spread)),
          firstMs: round(med(p.batches.map(b => Math.min(...b.ends))))
        }
      }
    })
  })
}

module.exports = { runHolCell }

'use strict'

// A rest cell (experiment rest, seed 001): the page's REST visits
// (window.h2bench.rest, client/js/rest.js: the page's own requests) on every
// lane and scenario, one visit per lane and scenario per repeat, in the
// browser of this pass (Chromium or Firefox); and, once per cell, push and
// separate requests at the protocol level with Node's http2 client, which
// accepts push (browsers refuse it), in the link's namespace.
const stats = require('../../shared/stats')
const { applyNetwork, row, mostFrequent, repeatWithinBudget, meterBridge, applySeed, seedsOf } = require('./helpers')
const { sumCosts } = require('../../harness/cell-costs')
const { budgetNote } = require('./budget')
const { runInside } = require('../../harness/in-namespace')

const SCENARIOS = ['separate', 'compound', 'cache', 'cache-stale', 'push']
// Push only where a lane can push (spdy and node:http2); elsewhere the
// scenario would be "separate" with a header nobody reads.
const PUSH_LANES = ['h2', 'h2n']

// The source's name for a lane and scenario: h1, h1-compound, h2-cache, …
function sourceName (lane, scenario) {
  const proto = lane === 'h1' ? 'h1' : lane === 'h3' ? 'h3' : 'h2'
  return scenario === 'separate' ? proto : `${proto}-${scenario}`
}

// One h2bench.rest() in the page, reduced there to what the runner keeps.
// With `metered`, the page awaits the runner's meter (helpers.js meterBridge)
// just outside each timed visit.
function restInPage (page, options, metered = false) {
  return page.evaluate(({ o, metered }) => window.h2bench.rest(
    metered ? { ...o, aroundVisit: (phase, info) => window.__h2benchMeter(phase, info) } : o
  ).then(r => r.rows.map(x => ({
    lane: x.lane,
    scenario: x.scenario,
    samples: x.samples,
    protocol: x.protocol,
    visits: x.visits.map(v => ({
      error: v.error,
      proven: v.proven === undefined ? null : v.proven,
      requests: v.requests ?? null,
      network: v.network ?? null,
      cache: v.cache ?? null,
      revalidated: v.revalidated ?? null,
      untimed: v.untimed ?? null,
      serverRequests: v.server ? v.server.requests : null,
      pushed: v.pushed ?? null,
      pushOutcome: v.pushOutcome ?? null,
      connections: v.connections ?? null,
      cacheExpected: v.cacheExpected ?? 0
    }))
  }))), { o: options, metered })
}

const medianOf = (visits, key) => {
  const xs = visits.filter(v => !v.error && v[key] !== null).map(v => v[key])
  return xs.length ? +stats.median(xs).toFixed(1) : null
}

// The counts of a row: medians over its visits that did not fail.
function countsOf (visits, items) {
  const ok = visits.filter(v => !v.error)
  return {
    items,
    visits: visits.length,
    requests: medianOf(visits, 'requests'),
    network: medianOf(visits, 'network'),
    cache: medianOf(visits, 'cache'),
    revalidated: medianOf(visits, 'revalidated'),
    serverRequests: medianOf(visits, 'serverRequests'),
    pushed: medianOf(visits, 'pushed'),
    // The client connections the server saw the visit's requests on (server/ledger.js; a cache visit's earlier visit included).
    connections: medianOf(visits, 'connections'),
    cacheExpected: ok.length ? ok[0].cacheExpected : 0,
    unproven: visits.filter(v => v.proven === false).length,
    // Requests the page made that the server did not see and the cache did not answer (or the reverse): should be 0.
    untimed: ok.reduce((s, v) => s + (v.untimed || 0), 0)
  }
}

// What a row's note says about its visits.
function visitNotes (visits, counts, scenario) {
  const notes = []
  const failed = visits.filter(v => v.error)
  if (failed.length) notes.push(`${failed.length} of ${visits.length} visits failed: ${failed[0].error}`)
  if (counts.unproven) {
    const what = scenario === 'cache' ? 'cache hits' : '304s'
    const seen = visits.filter(v => v.proven === false).map(v => scenario === 'cache' ? v.cache : v.revalidated)
    notes.push(`${what} not proven in ${counts.unproven} of ${visits.length} visits (expected ${counts.cacheExpected}, saw ${seen.join(', ')}): those visits are not samples`)
  }
  if (counts.untimed) notes.push(`${counts.untimed} requests without a Resource Timing entry`)
  return notes
}

async function runRestCell ({ page, link, entry, lanes, laneInfo, repeats, budgetMs, meter = null, seeding = null, log = () => {}, browser = { name: 'chromium', version: null }, protocolRows = true }) {
  const { cell } = entry
  const network = await applyNetwork(null, cell.preset, link, cell.link)
  const scenarios = cell.scenarios || SCENARIOS
  const pushLanes = lanes.filter(l => PUSH_LANES.includes(l))
  const combos = lanes.flatMap(lane => scenarios.filter(s => s !== 'push' || pushLanes.includes(lane)).map(scenario => ({ lane, scenario })))
  const per = new Map(combos.map(c => [`${c.lane} ${c.scenario}`, { samples: [], visits: [], protocols: [], costs: [], seeds: [] }]))
  const options = { items: cell.requests, size: cell.itemBytes, delay: cell.delay || 0, repeats: 1 }
  const { planned, firstMs } = await repeatWithinBudget({ repeats, budgetMs, log }, async r => {
    const order = r % 2 ? [...lanes].reverse() : lanes
    const runs = [{ lanes: order, scenarios: scenarios.filter(s => s !== 'push') }]
    if (scenarios.includes('push') && pushLanes.length) runs.push({ lanes: order.filter(l => pushLanes.includes(l)), scenarios: ['push'] })
    // One lane per call into the page: a call stays well under the browser driver's timeout even at 1,000 items on
    // HTTP/1.1, and a page that stops answering costs that lane's visits of this repeat, which say so, not the run.
    for (const run of runs) {
      for (const lane of run.lanes) {
        if (!run.scenarios.length) continue
        let got
        // Each timed visit's costs go to its lane and scenario (a visit that failed before timing has none).
        if (meter) (await meterBridge(page, meter)).sink = (record, info) => per.get(`${info.lane} ${info.scenario}`).costs.push(record)
        // Every lane's visits of a repeat from the same seed (paired: the same drops in the same order).
        const seed = await applySeed(link, seeding, r, lanes.indexOf(lane))
        try {
          got = await restInPage(page, { ...options, lanes: [lane], scenarios: run.scenarios }, Boolean(meter))
        } catch (err) {
          const error = `the page did not answer: ${err.message.split('\n')[0]}`
          log(`  ${lane}: ${error}`)
          got = run.scenarios.map(scenario => ({ lane, scenario, samples: [], protocol: null, visits: [{ error, proven: null }] }))
        }
        for (const x of got) {
          const p = per.get(`${x.lane} ${x.scenario}`)
          p.samples.push(...x.samples)
          if (seed !== null) p.seeds.push(...x.samples.map(() => seed))
          p.visits.push(...x.visits)
          if (x.protocol) p.protocols.push(x.protocol)
        }
      }
    }
  })
  const note = budgetNote(repeats, planned, firstMs, budgetMs)
  const rows = combos.map(({ lane, scenario }) => {
    const p = per.get(`${lane} ${scenario}`)
    const counts = countsOf(p.visits, cell.requests)
    const outcomes = [...new Set(p.visits.map(v => v.pushOutcome).filter(Boolean))]
    const protocol = mostFrequent(p.protocols)
    const expected = (laneInfo.find(l => l.name === lane) || {}).protocol
    const spoke = [...new Set(p.protocols)].filter(x => x !== expected)
    return row({
      entry, lane, mode: scenario, samples: p.samples, failures: p.visits.filter(v => v.error).length,
      protocol, asked: repeats,
      note: [note, ...visitNotes(p.visits, counts, scenario), spoke.length ? `WARNING: the browser spoke ${spoke.join(', ')} to this ${expected} lane` : null].filter(Boolean).join('; ') || null,
      extra: {
        ...network,
        browser: browser.name,
        browserVersion: browser.version,
        ...(scenario === 'push' ? { pushOutcome: outcomes.join('; ') || null } : {}),
        rest: { scenario: sourceName(lane, scenario), ...counts },
        ...(meter ? { costs: sumCosts(p.costs) } : {}),
        ...seedsOf(p)
      }
    })
  })
  if (protocolRows && pushLanes.length && scenarios.includes('push')) rows.push(...await runProtocolRows({ entry, link, network, laneInfo: laneInfo.filter(l => pushLanes.includes(l.name)), repeats, options }))
  return rows
}

// Push at the protocol level: the collection with Prefer-Push: item and
// every item pushed with it, against the collection and then every item
// requested, Node's http2 client accepting push (bench/cells/rest-protocol.js).
async function runProtocolRows ({ entry, link, network, laneInfo, repeats, options }) {
  const args = {
    lanes: laneInfo.map(l => ({ name: l.name, url: l.url, protocol: l.protocol })),
    items: options.items,
    size: options.size,
    delay: options.delay,
    repeats
  }
  const rows = link
    ? await runInside(link.opened.spawnInside, require.resolve('./rest-protocol'), 'runRestProtocol', args)
    : await require('./rest-protocol').runRestProtocol(args)
  return rows.map(r => row({
    entry, lane: r.lane, mode: r.mode, samples: r.samples, failures: r.failures, protocol: 'h2', asked: repeats,
    note: r.note || null,
    extra: {
      ...network,
      browser: 'node:http2',
      browserVersion: r.node,
      pushOutcome: r.mode === 'push-protocol' ? `${r.pushed} of ${options.items} items pushed (median)` : 'every item requested after the collection',
      pushed: r.pushed,
      rest: {
        scenario: `${sourceName(r.lane, 'push')} (${r.mode === 'push-protocol' ? 'pushed' : 'requested'}, Node http2)`,
        items: options.items,
        visits: r.samples.length + r.failures,
        requests: r.requests,
        network: r.requests,
        cache: 0,
        revalidated: 0,
        serverRequests: null,
        pushed: r.pushed,
        connections: 1,
        cacheExpected: 0,
        unproven: 0,
        untimed: 0
      }
    }
  }))
}

module.exports = { runRestCell, sourceName, countsOf, visitNotes, SCENARIOS, PUSH_LANES }

'use strict'

// A load cell of the runner (experiments ab-vs-nghttp, h2load-netem): the
// command-line tools of h2bench load (load/load.js, the same code path as
// `h2bench load`) against lanes it starts behind the cell's link, repeated
// within the budget, lanes in alternating order. A sample is one tool run's
// total time; the row keeps the median run's other figures.
const stats = require('../../shared/stats')
const { openLoad } = require('../../load/load')
const { repeatWithinBudget, row, seedOf } = require('./helpers')
const { turnSeed, mergeInTurn, timeOf, MAX_RUNS } = require('./load-in-turn')
const { budgetNote } = require('./budget')
const { sumCosts } = require('../../harness/cell-costs')
const { parseLinkSpec } = require('../../link/spec')

const median = list => list.length ? +stats.median(list).toFixed(3) : null

// The row's load fields: medians over the runs that succeeded in full.
function loadFields (runs, { tool, toolVersion, command }) {
  const ok = runs.filter(r => !r.error && r.failed === 0)
  const pick = f => median(ok.map(f).filter(v => v !== null && v !== undefined))
  return {
    tool,
    toolVersion,
    command,
    reqPerSec: pick(r => r.reqPerSec),
    mbPerSec: pick(r => r.mbPerSec),
    p50: pick(r => r.latencyMs && r.latencyMs.p50),
    p90: pick(r => r.latencyMs && r.latencyMs.p90),
    p99: pick(r => r.latencyMs && r.latencyMs.p99),
    connections: pick(r => r.connections),
    requestsPerConnection: pick(r => r.requestsPerConnection && r.requestsPerConnection.median),
    failedRequests: runs.reduce((n, r) => n + r.failed, 0),
    runs: runs.length,
    lostDown: pick(r => r.wire && r.wire.down.lost),
    duplicatedDown: pick(r => r.wire && r.wire.down.duplicated),
    corruptedDown: pick(r => r.wire && r.wire.down.corrupted)
  }
}

// Whether a link may drop packets: loss (random or bursty), corruption (the
// receiver drops what fails its checksum), scheduled drops, outages, a
// flow's first packets, a rebinding, or a bottleneck (a rate, a
// trace, rate steps, cross traffic) whose queue may overflow. Only there is
// the edge's qlog turned on for the h3 lane's recovery (load/load.js): it
// costs Caddy a JSON record a packet (what that costs a transfer on
// loopback: docs/qlog-cost.md), and where nothing can drop there is nothing
// to recover.
function linkCanDrop (spec) {
  if (!spec) return false
  const link = parseLinkSpec(spec)
  return ['up', 'down'].some(d => {
    const x = link[d]
    return x.loss > 0 || x.corrupt > 0 || Boolean(x.gemodel || x.drop || x.outage || x.dropflow || x.rebind || x.cross || x.aqm) ||
      x.rateBps !== null || Boolean(x.trace) || (x.steps || []).some(step => step.rateBps)
  })
}

// A cell runs its variants one after the other (default: one, the
// experiment's tools on every lane): { mode, tools, lanes } each; a
// variant's rows carry its mode. onServers(running): told the lanes it
// started (the runner records their Caddy).
async function runLoadCell ({ entry, lanes, repeats, budgetMs, seeding = null, log = () => {}, onServers = () => {} }) {
  const rows = []
  for (const variant of entry.cell.variants || [{ mode: null }]) {
    if (variant.mode) log(`  variant ${variant.mode}: ${Object.entries(variant.tools || {}).map(([p, t]) => `${t} for ${p}`).join(', ')}`)
    rows.push(...await runVariant({ entry, variant, lanes, repeats, budgetMs, seeding, log, onServers }))
  }
  return rows
}

// How a repeat runs its lanes. By default one load.measure() for all of them
// (load/load.js: the cell's link set, then the lanes one after another). A
// cell may ask for two things more (the interop experiment's do):
//   linkPerLane: true   every lane behind a link of its own, all opened at the
//       start, lanes still alternating: load.measure() sets a link before its
//       lanes run, so with one lane a link every run starts with its link set
//       anew, and a time schedule (outage, step, rebind), which counts from
//       that moment, starts with every run: the QUIC interop runner's blackhole
//       darkens its link 5 s after its simulator starts, for every test alike
//   inTurn: { runs, deadlineS }   a lane's run is `runs` runs of its tool one
//       after another (load-in-turn.js), counted as complete when all finished
//       within deadlineS together
async function runVariant ({ entry, variant, lanes, repeats, budgetMs, seeding, log, onServers }) {
  const { cell, experiment } = entry
  const opts = {
    lanes: variant.lanes ? lanes.filter(l => variant.lanes.includes(l)) : lanes,
    urls: [],
    tools: variant.tools || {},
    presetTools: experiment.tools,
    workload: cell.workload,
    links: [cell.link],
    trace: false,
    timeoutS: cell.timeoutS || 300,
    costs: true,
    quicLog: linkCanDrop(cell.link)
  }
  if (!opts.lanes.length) return []
  if (cell.inTurn && !(Number.isInteger(cell.inTurn.runs) && cell.inTurn.runs >= 1 && cell.inTurn.runs <= MAX_RUNS)) {
    throw new Error(`${experiment.id}: inTurn.runs must be a whole number 1…${MAX_RUNS}; got ${JSON.stringify(cell.inTurn.runs)}`)
  }
  const loads = []
  const per = new Map() // lane → runs
  let linkInfo = null
  try {
    for (const group of cell.linkPerLane ? opts.lanes.map(l => [l]) : [opts.lanes]) {
      loads.push(await openLoad({ ...opts, lanes: group }, { log: line => log(`  ${line}`) }))
    }
    // The runner records the first it is told of: one with the edge lanes' Caddy first, where there is one.
    for (const load of [...loads].sort((a, b) => Boolean(b.running && b.running.edge) - Boolean(a.running && a.running.edge))) {
      onServers(load.running, load.forwarderPriority)
    }
    const done = await repeatWithinBudget({ repeats, budgetMs, log }, async r => {
      // Paired: every lane (and variant) of repeat r on the same seed (helpers.js seedOf). Where the
      // lanes run in calls of their own and the runner gave no seeding, one seed of this repeat's for all.
      const shared = seeding ? null : Math.floor(Math.random() * 2 ** 40)
      const seedFor = lane => seeding ? seedOf(seeding, r, opts.lanes.indexOf(lane)) : shared
      for (const load of r % 2 === 1 ? [...loads].reverse() : loads) {
        const rows = cell.inTurn
          ? await runInTurn(load, { cell, reverse: r % 2 === 1, seedFor })
          : (await load.measure(cell.link, { reverse: r % 2 === 1, seedOf: seeding || loads.length > 1 ? seedFor : null })).rows
        for (const x of rows) {
          if (!per.has(x.lane)) per.set(x.lane, [])
          per.get(x.lane).push(x)
          linkInfo = linkInfo || { link: x.link, linkSpec: x.linkSpec }
        }
      }
    })
    const note = budgetNote(repeats, done.planned, done.firstMs, budgetMs)
    return [...per].map(([lane, runs]) => {
      const good = runs.filter(x => !x.error && x.failed === 0)
      const errors = [...new Set(runs.filter(x => x.error).map(x => x.error))]
      const failedRuns = runs.length - good.length
      return row({
        entry,
        lane,
        mode: variant.mode || null,
        samples: good.map(x => x.totalMs),
        failures: failedRuns,
        protocol: runs[0].protocol,
        asked: repeats,
        note: [note, failedRuns ? `${failedRuns} of ${runs.length} runs had failed requests (${runs.reduce((n, x) => n + x.failed, 0)} in all) and are not samples` : null,
          ...errors].filter(Boolean).join('; ') || null,
        // Costs over the runs that are samples (the tool's CPU, the servers', the link's, TCP's).
        extra: { runsLeftOut: failedRuns, ...(good.some(x => x.linkSeed !== undefined) ? { linkSeeds: good.map(x => x.linkSeed) } : {}), network: 'link', link: linkInfo && linkInfo.link, linkSpec: linkInfo && linkInfo.linkSpec, load: loadFields(runs, runs[0]), costs: sumCosts(good.map(x => x.costs)) }
      })
    })
  } finally {
    for (const load of loads) await load.close()
  }
}

// One repeat of a cell's runs in turn on one load's lanes: run i of every lane
// on seed turnSeed(lane's, i), the lanes alternating as in a repeat, until
// every lane has had its runs or spent its deadline; each lane's runs merged
// into one (load-in-turn.js). The link is set before the first run only.
async function runInTurn (load, { cell, reverse, seedFor }) {
  const { runs, deadlineS = null } = cell.inTurn
  const per = new Map()
  const spent = new Map()
  const late = () => deadlineS !== null && load.plan.every(p => (spent.get(p.lane) || 0) > deadlineS * 1000)
  for (let i = 0; i < runs && !late(); i++) {
    const { rows } = await load.measure(i === 0 ? cell.link : null, { reverse, seedOf: lane => turnSeed(seedFor(lane), i) })
    for (const x of rows) {
      if (!per.has(x.lane)) per.set(x.lane, [])
      per.get(x.lane).push(x)
      spent.set(x.lane, (spent.get(x.lane) || 0) + timeOf(x))
    }
  }
  return [...per].map(([lane, list]) => mergeInTurn(list, { runs, deadlineS, seed: seedFor(lane) }))
}

module.exports = { runLoadCell, loadFields, linkCanDrop }

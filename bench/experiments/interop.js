'use strict'

// The QUIC interop runner's network cases (goodput, crosstraffic, longrtt,
// handshakeloss, transferloss, blackhole: interop-cases.js has their source,
// numbers and citations) on every lane that applies, through the packet-level
// link: the TCP lanes h1, h2 and h2e (HTTP/2 at the same Caddy as h3) and h3
// side by side, each case's scenario mapped onto the link's keys, each run a
// load tool fetching the case's file (h2load on TCP, oha over QUIC, one
// connection, one request: load/load.js). The report gives each lane's result
// beside the case's pass criterion, pass or fail by that criterion
// (interop-criteria.js), its lower bound (bench/report/runner/bounds.js) and HTTP/3
// against each TCP lane by the verdict engine. Its claims: bench/report/claims/interop.js.
//
// h2n is left out by default: a third TCP lane on the same kernel as h1 and h2
// adds a fifth to the longest cases and nothing about the network (--lanes
// cannot add it: the experiment's lanes bound them).
const { CASES, specOf, smokeOf, criterionOf } = require('./interop-cases')
const { judgement, resultText, boundMs, h3Against, goodputs, interopFigure, ourFigure, caseOfRow } = require('./interop-criteria')

const LANES = ['h1', 'h2', 'h2e', 'h3']
const TOOLS = { 'http/1.1': 'h2load', h2: 'h2load', h3: 'oha' }

// A case as a load cell: the case's file, one connection of one request per run (a case's runs
// in turn where it has several handshakes), the tool's timeout the case's, oha's handshake given as
// long (its default 5 s would fail handshakes the case allows). Each lane behind a link of its own,
// set anew before each of its runs (bench/cells/load.js linkPerLane): every run meets the case's
// schedule from its start, as every interop test meets its simulator's.
function cellOf (c) {
  const workload = { requests: 1, connections: 1, muxConnections: 1, streams: 1, pipeline: 1, threads: 1, size: c.size, delay: 0, connectTimeoutS: c.timeoutS }
  return {
    preset: c.name,
    link: specOf(c),
    requests: c.handshakes,
    size: String(c.size),
    delay: 0,
    timeoutS: c.timeoutS,
    linkPerLane: true,
    ...(c.handshakes > 1 ? { inTurn: { runs: c.handshakes, deadlineS: c.timeoutS } } : {}),
    workload
  }
}

const caseOf = name => CASES.find(c => c.name === name)
const rowsOf = (rows, name) => rows.filter(r => r.preset === name && !r.mode)
const lanesIn = rows => LANES.filter(l => rows.some(r => r.lane === l)).concat([...new Set(rows.map(r => r.lane))].filter(l => !LANES.includes(l)))
const s = ms => ms === null || ms === undefined ? '–' : (ms / 1000).toFixed(ms < 10000 ? 3 : 2)
const x = v => v === null || v === undefined || !Number.isFinite(v) ? '–' : `${v.toFixed(2)}×`

module.exports = {
  id: 'interop',
  title: 'The QUIC interop runner\'s network cases (goodput, crosstraffic, longrtt, handshakeloss, transferloss, blackhole) on the TCP lanes and HTTP/3, through the packet-level link, beside its pass criteria',
  kind: 'load',
  networks: ['link'],
  lanes: LANES,
  tools: TOOLS,
  sweep: { param: 'preset', label: 'scenario' },
  cells: CASES.map(cellOf),
  smokeCells: () => CASES.map(c => cellOf(smokeOf(c))),
  // A repeat: each lane's run(s): the file through the rate, the round trips, the edge's 5 s idle close after oha's
  // runs (load/tools/oha.js), a CUBIC flow's share, 2 s a handshake under heavy loss; and each lane's link and servers.
  estimateMs (cell, { lanes }) {
    const c = caseOf(cell.preset)
    const rttMs = 2 * Number((/delay=(\d+)ms/.exec(cell.link) || [0, 15])[1])
    const transferMs = Number(cell.size) * 8 / 10e6 * 1000 * (c.cross ? 2 : 1) * 1.1 + 4 * rttMs
    const runs = cell.inTurn ? cell.inTurn.runs : 1
    const runMs = c.drop && c.drop.ratePct >= 10 ? 2000 : transferMs + (c.blackhole ? c.blackhole.offS * 1500 : 0)
    return lanes * runs * (runMs + 300) + runs * 5000 + lanes * 3000
  },
  source: null,
  cases: CASES,
  extraTables (rows) {
    const names = CASES.map(c => c.name).filter(n => rowsOf(rows, n).length)
    const mapping = {
      title: 'The QUIC interop runner\'s cases (github.com/quic-interop/quic-interop-runner and its quic-network-simulator; bench/experiments/interop-cases.js cites file and function) and each on this link',
      head: ['scenario', 'its case', 'its simulator scenario', 'this link', 'what differs'],
      body: names.map(n => {
        const c = caseOf(n)
        const r = rowsOf(rows, n).find(q => q.linkSpec) || {}
        return [n, `${c.abbreviation}: ${c.source}`, c.scenario, r.linkSpec || specOf(c), c.unlike]
      })
    }
    const results = {
      title: 'Per scenario and lane: our result beside the interop runner\'s pass criterion, pass or fail by it (a run passes when it completed within the case\'s timeout on the case\'s number of connections, by the server\'s ledger), and the lower bound of the workload on its link',
      head: ['scenario', 'its criterion', 'lane', 'tool', 'our result', 'lower bound (s)', 'by its criterion'],
      body: names.flatMap(n => {
        const list = rowsOf(rows, n)
        return lanesIn(list).map(lane => {
          const r = list.find(q => q.lane === lane)
          const c = caseOfRow(r)
          return [n, criterionOf(c), lane, r.load ? r.load.tool : '–', resultText(r, c), s(boundMs(r)), judgement(r, c).text]
        })
      })
    }
    const vs = {
      title: 'HTTP/3 against each TCP lane per scenario, by the verdict engine (the lane\'s median time over h3\'s: above 1, h3 is faster)',
      head: ['scenario', 'against', 'h3 (s)', 'the lane (s)', 'lane ÷ h3', '95 % interval', 'verdict'],
      body: names.flatMap(n => {
        const list = rowsOf(rows, n)
        const h3 = list.find(r => r.lane === 'h3')
        return h3Against(list).map(v => [n, v.lane, s(h3.median), s((list.find(r => r.lane === v.lane) || {}).median), x(v.ratio),
          Number.isFinite(v.low) ? `${x(v.low)}–${x(v.high)}` : '–', v.verdict])
      })
    }
    // Goodput per lane as the interop runner states it, for the two measurements.
    const measured = names.filter(n => caseOf(n).measurement)
    const goodput = {
      title: 'The measurements\' goodput per lane (kbps: 8 × the file\'s bytes ÷ ms): the interop runner\'s mean (± sd) over its repetitions beside our median',
      head: ['scenario', 'lane', 'runs', 'interop runner\'s figure', 'ours: median (verdict engine\'s bootstrap interval)'],
      body: measured.flatMap(n => lanesIn(rowsOf(rows, n)).map(lane => rowsOf(rows, n).find(r => r.lane === lane)).filter(r => r.samples.length).map(r => {
        const g = goodputs(r, caseOfRow(r))
        return [n, r.lane, String(g.length), interopFigure(g).text, ourFigure(g).text]
      }))
    }
    return [mapping, results, ...(goodput.body.length ? [goodput] : []), ...(vs.body.length ? [vs] : [])]
  }
}

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
const { CASES, specOf, smokeOf } = require('./interop-cases')

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
  cases: CASES
}

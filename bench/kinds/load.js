'use strict'

// Kind `load` (experiments ab-vs-nghttp, h2load-netem, interop): the command-line tools of
// h2bench load against lanes each cell starts behind its own link (load/load.js, the code path of
// `h2bench load`; bench/cells/load.js). No browser: it runs once per cell, in the first asked
// browser's pass, and tells the runner the servers it started (ctx.onServers).
// The cell runner loads when a cell runs, not when a report reads a bound (it brings the browser drivers).
const cells = () => require('../cells/load')
const { loadWorkload } = require('../cells/load-workload')
const { turnsOf } = require('../cells/load-in-turn')
const { boundFrom, wireOf } = require('./bound-form')

module.exports = {
  kind: 'load',
  // oha, the h3 lane's client, is built before the runner enters its private namespace.
  needs: { browser: false, ownServers: true, ownBrowser: false, browsers: null, networks: ['link'], tools: ['oha'] },
  run: ctx => cells().runLoadCell(ctx), // takes the runner's ctx as it is: entry, lanes, repeats, budgetMs, seeding, log, onServers
  estimateMs: null, // its experiments' own
  // A load tool's run: every connection new (a new process: no session to resume, no 0-RTT, no TCP
  // Fast Open), so its handshake is in the bound: QUIC's one round trip, or TCP's and TLS 1.3's two,
  // before the first request; then its share of the requests, as many at a time as it keeps in
  // flight (streams, or HTTP/1.1 pipelining); ab (no -k) opens a connection for every request. Runs
  // in turn (load-in-turn.js turnsOf: each run that many runs of the tool, one after another) wait
  // for each other: their rounds and their bytes add up. Null for a row with no tool's command.
  bound (row) {
    if (!row.load || !row.load.command) return null
    const w = loadWorkload(row)
    if (!w.requests || !w.connections) return null
    const wire = wireOf(row)
    const size = row.params.sizeBytes || 0
    const turns = turnsOf(row)
    const shake = row.protocol === 'h3' ? 1 : 2
    const share = Math.ceil(w.requests / w.connections)
    const depth = Math.max(1, w.streams || 1, w.pipelining || 1)
    const rounds = (w.tool === 'ab' ? share * (shake + 1) : shake + Math.ceil(share / depth)) * turns
    return boundFrom(row, { rounds, bytes: w.requests * wire(size), perConnection: share * wire(size) * turns })
  }
}

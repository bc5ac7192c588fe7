'use strict'

// A load row's workload, read from the command line its cell ran (bench/cells/load.js keeps it): what the
// claims compare with a source's (bench/report/runner/compare-rows.js workloadOf) and what the load kind's
// lower bound counts (bench/kinds/load.js).
const { turnsOf } = require('./load-in-turn')

const flagValue = (args, flag) => {
  const i = args.indexOf(flag)
  return i >= 0 && i + 1 < args.length && /^\d+$/.test(args[i + 1]) ? Number(args[i + 1]) : null
}

// A load row's workload from the command line it ran (bench/cells/load.js
// keeps it): h2load -c -n -m (--h1: -m is the pipelining depth), oha -c -n
// -p (HTTP/2 and 3 streams; it does not pipeline HTTP/1.1), ab -c -n (one
// request at a time), nghttp -m on one connection. Each run opens its
// connections anew: cold. A row of runs in turn (its command "50 runs in turn
// of: h2load …", bench/cells/load-in-turn.js: each of its runs that many runs
// of the command, one after another) asked for that many times the requests,
// on that many times the connections.
function loadWorkload (row) {
  const args = String(row.load.command).split(/\s+/)
  const tool = row.load.tool
  const turns = turnsOf(row)
  const times = v => v === null ? null : v * turns
  const requests = times(flagValue(args, '-n') ?? (tool === 'nghttp' ? flagValue(args, '-m') : null))
  const connections = times(tool === 'nghttp' ? 1 : flagValue(args, '-c'))
  const h1 = /^http\/1/.test(row.protocol || '')
  const perConnection = requests && connections ? Math.ceil(requests / connections) : null
  const inFlight = tool === 'h2load' ? flagValue(args, '-m') : tool === 'oha' ? (h1 ? 1 : flagValue(args, '-p')) : tool === 'nghttp' ? requests : 1
  const depth = inFlight === null ? null : perConnection === null ? inFlight : Math.min(inFlight, perConnection)
  return {
    tool,
    connections,
    streams: h1 ? 1 : depth,
    pipelining: h1 ? depth : 1,
    requests,
    bytes: requests && row.params.sizeBytes ? requests * row.params.sizeBytes : null,
    state: 'cold'
  }
}

module.exports = { loadWorkload }

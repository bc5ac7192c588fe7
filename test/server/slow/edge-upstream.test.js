'use strict'

// The edge lanes (h3, h2e: Caddy in front of the lane's Node app) under the
// largest load h2bench runs, seed 004's workload: 100 connections with 100
// streams each in flight (h2load -c 100 -m 100 -n 10000). Caddy's proxy
// takes an upstream connection for each request in flight; unbounded, it
// dialled thousands at once, the app's listen queue (Node's default backlog,
// 511) overflowed, and every dial it dropped waited for TCP's 1 s SYN
// retransmission: measured 11,268 listen overflows and 7,028 TCP timeouts in
// one such run on loopback, and in the h2load-netem study ~17,000 timeouts a
// run on a clean link, h3 and h2e 4.5-5× h1's time. Two observers: the app
// (how many connections it had open at once) and the kernel (the network
// namespace's ListenOverflows, /proc/net/netstat).
const assert = require('node:assert/strict')
const { execFile } = require('node:child_process')
const { useServers } = require('../../support/servers')
const { readSnmp } = require('../../support/link-probe')
const { LANES } = require('../../../server/lanes')
const { EDGE_UPSTREAM_CONNS, EDGE_APP_BACKLOG } = require('../../../server/edge/caddy')

// TcpExt counters of this network namespace, by name.
const tcpExt = () => readSnmp('self', 'netstat').TcpExt

// Connections open at once on `server`, at most, while watching. Go's
// transport frees a connection's slot before it closes the socket
// (net/http transport.go, persistConn.closeLocked: decConnsPerHost, then
// conn.Close), so a replacement may reach the app while the connection it
// replaces is still closing, and the app sees a close only when its event
// loop reads the FIN. `peak` is what the app saw; `held` counts a connection
// as gone from CLOSE_GRACE_MS before the app saw its end (Caddy's FIN or the
// socket's close, whichever first): that is Caddy's count, give or take the
// app's lag. A proxy dialling without bound still shows as thousands (3,558
// in seed 004's workload). The app's lag is its event loop's: 100 ms was once
// too little on a loaded 2-core machine (1,025 held of 1,024, 2026-11-27), so
// the grace is a second, which no pool of 1,024 can turn into thousands.
const CLOSE_GRACE_MS = 1000
function watchConnections (server) {
  const events = [] // [ms, +1 | -1]
  const w = { open: 0, peak: 0, total: 0, closedWhileWatching: 0 }
  const now = () => Number(process.hrtime.bigint()) / 1e6
  const onConnection = socket => {
    w.total++
    w.peak = Math.max(w.peak, ++w.open)
    events.push([now(), 1])
    let gone = false
    const onGone = () => {
      if (gone) return
      gone = true
      w.open--
      w.closedWhileWatching++
      events.push([now() - CLOSE_GRACE_MS, -1])
    }
    socket.once('end', onGone)
    socket.once('close', onGone)
  }
  server.on('connection', onConnection)
  w.stop = () => {
    server.off('connection', onConnection)
    // Ends before arrivals at the same instant: a slot freed, then taken.
    const sorted = events.slice().sort((a, b) => a[0] - b[0] || a[1] - b[1])
    let open = 0
    w.held = 0
    for (const [, d] of sorted) w.held = Math.max(w.held, open += d)
  }
  return w
}

function h2load (args) {
  return new Promise((resolve, reject) => {
    execFile('h2load', args, { timeout: 120000, maxBuffer: 1 << 20 }, (err, stdout) => err ? reject(err) : resolve(stdout))
  })
}

describe('the edge lanes\' upstream under 10,000 requests in flight (seed 004\'s workload)', function () {
  this.timeout(180000)
  const servers = useServers({ lanes: LANES.filter(l => l.name === 'h2e') })

  it(`Caddy holds at most ${EDGE_UPSTREAM_CONNS} connections to the app, whose listen queue (${EDGE_APP_BACKLOG}) never overflows; every request answered`, async () => {
    assert.ok(EDGE_APP_BACKLOG > EDGE_UPSTREAM_CONNS, 'the app must be able to queue every connection Caddy may dial at once')
    const lane = servers.lane('h2e')
    const watch = watchConnections(lane.server)
    const before = tcpExt()
    let out
    try {
      out = await h2load(['-t', '2', '-c', '100', '-n', '10000', '-m', '100', `${lane.url}/option?size=612`])
    } finally {
      watch.stop()
    }
    const after = tcpExt()
    const overflows = after.ListenOverflows - before.ListenOverflows
    const finished = /finished in ([\d.]+)(m?s)/.exec(out)
    process.stdout.write(`      · h2load ${finished ? finished[0] : '?'}; the app: ${watch.total} connections from Caddy, at most ${watch.peak} at once as it saw them, ${watch.held} with a close counted ${CLOSE_GRACE_MS} ms early; ` +
      `${watch.closedWhileWatching} closed meanwhile; listen overflows ${overflows}, TCP timeouts ${after.TCPTimeouts - before.TCPTimeouts} in this namespace\n`)
    assert.match(out, /requests: 10000 total, 10000 started, 10000 done, 10000 succeeded, 0 failed/)
    assert.ok(watch.held <= EDGE_UPSTREAM_CONNS, `Caddy held ${watch.held} connections to the app at once (at most ${EDGE_UPSTREAM_CONNS}; ` +
      `the app saw ${watch.peak}, a close counted ${CLOSE_GRACE_MS} ms before the app saw it)`)
    assert.equal(overflows, 0, 'the app\'s listen queue overflowed: Caddy dialled more than it could queue')
  })
})

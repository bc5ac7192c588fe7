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

// Connections open at once on `server`, at most, while watching.
function watchConnections (server) {
  const w = { open: 0, peak: 0, total: 0 }
  const onConnection = socket => {
    w.total++
    w.peak = Math.max(w.peak, ++w.open)
    socket.once('close', () => w.open--)
  }
  server.on('connection', onConnection)
  w.stop = () => server.off('connection', onConnection)
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
    process.stdout.write(`      · h2load ${finished ? finished[0] : '?'}; the app: ${watch.total} connections from Caddy, at most ${watch.peak} at once; ` +
      `listen overflows ${overflows}, TCP timeouts ${after.TCPTimeouts - before.TCPTimeouts} in this namespace\n`)
    assert.match(out, /requests: 10000 total, 10000 started, 10000 done, 10000 succeeded, 0 failed/)
    assert.ok(watch.peak <= EDGE_UPSTREAM_CONNS, `the app had ${watch.peak} connections from Caddy at once (at most ${EDGE_UPSTREAM_CONNS})`)
    assert.equal(overflows, 0, 'the app\'s listen queue overflowed: Caddy dialled more than it could queue')
  })
})

'use strict'

// Abusive clients, on every lane an attack applies to: what the lane does
// (GOAWAY and its code, a closed connection), whether a normal request on
// another connection is still answered (and how fast, recorded, with only a
// generous bound asserted), and how far the server's memory rises. The
// servers and the attackers share this process, so the RSS rise measured
// here bounds the server's from above. A summary is printed at the end.
//
// Fixes these tests prove (each fails without its fix):
//  - spdy, GOAWAY delivered and named on a protocol error: server/compat/spdy.js fix 7
//  - spdy, CONTINUATION flood: fix 8
//  - spdy, rapid reset: fix 9 (a: GOAWAY after 1,000 resets; b: reset streams
//    never reach the app)
//  - h1, slowloris closed within seconds of headersTimeout, idle and
//    stalled connections closed: server/lanes/h1.js TIMEOUTS, IDLE_TIMEOUT
const assert = require('node:assert/strict')
const tls = require('node:tls')
const net = require('node:net')
const fs = require('node:fs')
const { watchRss } = require('../../support/rss')
const { performance } = require('node:perf_hooks')
const { useServers } = require('../../support/servers')
const { forEachLane } = require('../../support/lanes')
const { laneGet } = require('../../support/clients')
const { connectRaw, frame, hpackLiteral, requestBlock, RawClient, TYPE, FLAG } = require('../../support/h2-frames')
const { LANES } = require('../../../server/lanes')
const { caddyVersion, caddyWarning, EDGE_UPSTREAM_CONNS } = require('../../../server/edge/caddy')
const { payload, MIB } = require('../../../server/payload')

// Every HTTP/2 lane, h2e (Caddy's Go net/http) included: these attacks are
// on the protocol, and a lane behind an edge must survive them like any.
// Its memory is Caddy's and the app's together (watchRss). Lane h3 has its
// own attacks in h3-conformance.test.js.
const H2_LANES = LANES.filter(l => l.protocol === 'h2')
const H1_LANES = LANES.filter(l => l.protocol === 'http/1.1')
// A normal request must be answered within this, however busy the machine
// (its real latency is recorded: a few ms, up to about 1.5 s during a
// flood on a 2-core machine running other tests).
const ANSWER_WITHIN = 10000
const CANCEL = 8

const sleep = ms => new Promise(resolve => setTimeout(resolve, ms))
const turn = () => new Promise(resolve => setImmediate(resolve))
const mib = bytes => Math.round(bytes / MIB)

function withTimeout (promise, ms, what) {
  let timer
  return Promise.race([
    promise.finally(() => clearTimeout(timer)),
    new Promise((resolve, reject) => { timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms`)), ms) })
  ])
}

// Requests the lane's app was handed (every lane's server emits 'request'),
// how many of those are still running, and how many ran to their end (the
// whole response written; the others were aborted).
function countRequests (server) {
  const counter = { count: 0, running: 0, peak: 0, completed: 0, stop () { server.off('request', onRequest) } }
  const onRequest = (req, res) => {
    counter.count++
    counter.running++
    counter.peak = Math.max(counter.peak, counter.running)
    res.once('close', () => {
      counter.running--
      if (res.writableFinished) counter.completed++
    })
  }
  server.on('request', onRequest)
  return counter
}

const goawayOf = client => client.frames.find(f => f.type === 'GOAWAY')

// How a raw HTTP/2 connection ended, as the client saw it.
function howEnded (client) {
  const goaway = goawayOf(client)
  const parts = []
  if (goaway) {
    const debug = goaway.payload.subarray(8).toString()
    parts.push(`GOAWAY ${RawClient.errorName(goaway)}${debug ? ` ("${debug}")` : ''}`)
  }
  parts.push(client.closed ? 'connection closed' : 'connection left open')
  return parts.join(', ')
}

// Writes total frames (or frame groups) made by make(i), as fast as the
// socket takes them, giving the event loop a turn between batches of about
// 64 KiB so the client sees a GOAWAY or a close as it happens. Stops when
// the connection closes. Returns how many were written, and how many had
// been when the client first saw the connection end.
async function flood (client, total, make) {
  let sent = 0
  let endedAt = null
  const unit = make(0).length
  const batch = Math.max(1, Math.floor(64 * 1024 / unit))
  while (sent < total && !client.closed) {
    const parts = []
    for (let i = 0; i < batch && sent < total; i++) parts.push(make(sent++))
    if (!client.write(Buffer.concat(parts))) await drained(client.socket)
    else await turn()
    if (endedAt === null && (client.closed || goawayOf(client))) endedAt = sent
  }
  return { sent, endedAt }
}

function drained (socket) {
  return new Promise(resolve => {
    const done = () => { socket.off('drain', done); socket.off('close', done); resolve() }
    socket.on('drain', done)
    socket.on('close', done)
  })
}

// Raw TLS connections (ALPN of the lane) that each send `first` once
// connected; `pause` stops reading (so responses pile up at the server).
function tlsConnections (lane, ca, n, { first = null, pause = false } = {}) {
  const u = new URL(lane.url)
  return Promise.all(Array.from({ length: n }, () => new Promise((resolve, reject) => {
    const socket = tls.connect({ host: u.hostname, port: Number(u.port), ca, servername: 'localhost', ALPNProtocols: [lane.protocol] })
    const conn = { socket, reply: '', closed: false, port: null }
    socket.on('data', d => { if (conn.reply.length < 200) conn.reply += d })
    socket.on('close', () => { conn.closed = true })
    socket.once('secureConnect', () => {
      conn.port = socket.localPort // gone from the socket once it closes
      socket.on('error', () => {})
      if (first) socket.write(first)
      if (pause) socket.pause()
      resolve(conn)
    })
    socket.once('error', reject)
  })))
}

async function waitFor (test, ms, step = 100) {
  const until = Date.now() + ms
  while (!test() && Date.now() < until) await sleep(step)
  return test()
}

describe('abuse: attacks on the lanes', function () {
  this.timeout(60000)
  const servers = useServers()
  const ca = () => servers.tls.cert
  // Caddy's process, for an edge lane (whose memory is counted with ours).
  const edgePid = laneDef => laneDef.edge ? servers.running.edge.pid : null
  const summary = []
  const record = (lane, attack, text) => summary.push(`${lane.padEnd(4)} ${attack}: ${text}`)
  const cleanups = []
  afterEach(() => { for (const fn of cleanups.splice(0)) fn() })
  after(() => {
    process.stdout.write(`\n  What each lane did (Node ${process.versions.node}):\n${summary.map(l => `    ${l}\n`).join('')}\n`)
  })

  // A normal request for `size` bytes on a new connection: answered whole,
  // within ANSWER_WITHIN. Returns its latency in ms.
  async function normalRequest (lane, size = 100 * 1024, srv = servers) {
    const started = performance.now()
    const res = await withTimeout(laneGet(lane, `/option?size=${size}`, { ca: srv.tls.cert }), ANSWER_WITHIN, `a normal request on lane ${lane.name}`)
    const ms = performance.now() - started
    assert.equal(res.status, 200)
    assert.ok(res.body.equals(payload(size)), `lane ${lane.name}: the normal request's body is not the ${size} bytes asked for`)
    return Math.round(ms)
  }

  async function openRaw (lane, settings, srv = servers) {
    const client = await connectRaw(lane.url, { settings, ca: srv.tls.cert })
    cleanups.push(() => client.close())
    return client
  }

  describe('HTTP/2 rapid reset (CVE-2023-44487): 20,000 HEADERS, each followed at once by RST_STREAM CANCEL', () => {
    const STREAMS = 20000
    const PATHS = ['/option?size=1mb&delay=0', '/option?size=1mb&delay=100']
    // A lane that ends the connection must stop running requests long
    // before the flood ends (nghttp2 and spdy fix 9 stop after about 1,000).
    const MAX_RUN = STREAMS / 4
    const RSS_BOUND = 256 * MIB
    // h2e: Caddy's Go HTTP/2 server (golang.org/x/net/http2, with Go's
    // CVE-2023-44487 fix) defends otherwise than h2 and h2n: it runs at most
    // MAX_CONCURRENT_STREAMS (250) handlers at once and ends the connection
    // (GOAWAY ENHANCE_YOUR_CALM) only when more than 1,000 wait to start;
    // a reset stream's handler is cancelled, and Caddy then aborts its
    // request to the app. Its handlers end quickly, so the connection mostly
    // stays open (now and then a GOAWAY comes). What is asserted of it instead
    // of an ended connection: the reset requests that reached the app
    // (measured 1,000-5,013 of 20,000) are aborted, not run to their end (0-18
    // were; Debian's Caddy 2.6.2, built with Go 1.19.8 before that fix, ran
    // 1,900-4,600 of them to their end: the comparison below), and never
    // more at the app at once than Caddy has connections to it. How many reach the
    // app in all is not bounded by that defence (it is how many handlers Go
    // starts before it reads each stream's RST_STREAM, a matter of the
    // machine's speed: 5,013 on CI once), so it is recorded, not asserted.
    const ABORTS_RESET_REQUESTS = new Set(['h2e'])
    const MAX_COMPLETED = STREAMS / 100
    // Go runs at most MAX_CONCURRENT_STREAMS (250) handlers, but a handler
    // that has returned leaves its aborted request running at the app until
    // the app, busy with the flood, sees the close (measured 2-574 at once):
    // the hard bound is Caddy's upstream connections, one request each
    // (EDGE_UPSTREAM_CONNS, server/edge/caddy.js).
    const MAX_AT_ONCE = EDGE_UPSTREAM_CONNS

    // Sends the flood for `path` on lane `laneDef` of `srv` (the suite's
    // servers unless given), with a normal request on another connection
    // during it and one after it (each { ms } or { error }); records and
    // returns what happened, `completed` being how many of the flood's
    // requests ran to their end at the app.
    async function rapidReset (laneDef, path, { srv = servers, label = laneDef.name } = {}) {
      const lane = srv.lane(laneDef.name)
      const requests = countRequests(lane.server)
      cleanups.push(() => requests.stop())
      const rss = watchRss(laneDef.edge ? srv.running.edge.pid : null)
      const c = await openRaw(lane, undefined, srv)
      const block = requestBlock(c.authority, path)
      const reset = Buffer.alloc(4)
      reset.writeUInt32BE(CANCEL)
      const started = performance.now()
      const flooding = flood(c, STREAMS, i => {
        const id = 1 + 2 * i
        return Buffer.concat([frame(TYPE.HEADERS, FLAG.END_STREAM | FLAG.END_HEADERS, id, block), frame(TYPE.RST_STREAM, 0, id, reset)])
      })
      await turn()
      const outcome = ms => ({ ms })
      const failure = err => ({ error: err.message.replace(/\s+/g, ' ') })
      const during = normalRequest(lane, undefined, srv).then(outcome, failure)
      const { sent, endedAt } = await flooding
      const floodMs = Math.round(performance.now() - started)
      const duringOne = await during
      const afterOne = await normalRequest(lane, undefined, srv).then(outcome, failure)
      await waitFor(() => c.closed, 1000)
      const rise = rss.stop()
      // The app also answered the normal requests that succeeded.
      const completed = requests.completed - [duringOne, afterOne].filter(o => !o.error).length
      const said = o => o.error ? `failed (${o.error})` : `${o.ms} ms`
      record(label, `rapid reset ${path}`, `${howEnded(c)} (seen after ${endedAt ?? 'all'} of ${sent} streams sent in ${floodMs} ms); ` +
        `the app ran ${requests.count} requests (at most ${requests.peak} at once), ${completed} of the flood's to their end; normal request ${said(duringOne)} during, ${said(afterOne)} after; RSS +${mib(rise)} MiB`)
      return { lane, c, sent, requests, completed, rise, during: duringOne, after: afterOne }
    }

    forEachLane(laneDef => {
      const aborts = ABORTS_RESET_REQUESTS.has(laneDef.name)
      for (const path of PATHS) {
        it(`for ${path}: ${aborts ? 'aborts the reset requests it started (the connection may stay open)' : 'ends the connection early'}, answers another, memory stays bounded`, async () => {
          const { lane, c, sent, requests, completed, rise, during, after } = await rapidReset(laneDef, path)
          assert.equal(during.error, undefined)
          assert.equal(after.error, undefined)
          if (aborts) {
            assert.ok(completed <= MAX_COMPLETED, `lane ${lane.name} ran ${completed} of the reset requests to their end (at most ${MAX_COMPLETED} allowed)`)
            assert.ok(requests.peak <= MAX_AT_ONCE, `lane ${lane.name} ran ${requests.peak} requests at once (at most ${MAX_AT_ONCE} allowed)`)
            const goaway = goawayOf(c)
            if (goaway) assert.equal(RawClient.errorName(goaway), 'ENHANCE_YOUR_CALM', 'Go ends such a connection with ENHANCE_YOUR_CALM')
          } else {
            assert.ok(goawayOf(c) || c.closed, `lane ${lane.name} neither sent GOAWAY nor closed the connection after ${sent} reset streams`)
          }
          if (laneDef.name === 'h2') {
            assert.equal(goawayOf(c) && RawClient.errorName(goawayOf(c)), 'ENHANCE_YOUR_CALM', 'spdy fixes 7 and 9a: GOAWAY ENHANCE_YOUR_CALM')
            // A stream reset in the read that opened it never reaches spdy's
            // app (fix 9b); only pairs split across reads can.
            assert.ok(requests.count < STREAMS / 100, `spdy ran ${requests.count} requests the client had reset at once`)
          }
          if (!aborts) assert.ok(requests.count <= MAX_RUN, `lane ${lane.name} ran ${requests.count} of ${sent} reset requests (at most ${MAX_RUN} allowed)`)
          assert.ok(rise < RSS_BOUND, `RSS rose ${mib(rise)} MiB (bound ${mib(RSS_BOUND)} MiB)`)
        })
      }
    }, H2_LANES)

    // For comparison, where Debian 12's Caddy 2.6.2 is installed (apt's
    // caddy; OLD_CADDY_PATH names another one older than 2.7): the same
    // flood on a lane h2e that it serves, to show what the pinned Caddy
    // fixed. Built with Go 1.19.8, it has no CVE-2023-44487 defence: it
    // leaves the connection open and runs the reset requests it started to
    // their end (measured: 2,400-4,600 of the 2,400-13,500 that reached the
    // app; a normal request meanwhile at times a 502 or no answer within
    // 10 s; Caddy and this process +400-1,100 MiB). Asserted: that it
    // does so (a Caddy 2.6.2 that passes would mean this comparison shows
    // nothing), that it survives, and that it answers normally once the
    // requests it started are done.
    describe('for comparison: Debian 12\'s Caddy 2.6.2 on lane h2e, where installed', function () {
      const OLD_CADDY = process.env.OLD_CADDY_PATH || '/usr/bin/caddy'
      const RECOVER_WITHIN = 60000
      const h2eDef = LANES.find(l => l.name === 'h2e')
      let version = null
      let saved = null // { value } of CADDY_PATH while it is changed here
      before(function () {
        version = fs.existsSync(OLD_CADDY) ? caddyVersion(OLD_CADDY) : null
        if (!h2eDef || !caddyWarning(version)) return this.skip()
        saved = { value: process.env.CADDY_PATH }
        process.env.CADDY_PATH = OLD_CADDY // read when useServers below starts Caddy
      })
      const old = useServers({ lanes: [h2eDef].filter(Boolean) })
      const restore = () => {
        if (!saved) return
        if (saved.value === undefined) delete process.env.CADDY_PATH
        else process.env.CADDY_PATH = saved.value
        saved = null
      }
      before(restore)
      after(restore)

      it(`for ${PATHS[0]}: the connection stays open, the reset requests run to their end; the lane survives and recovers`, async function () {
        this.timeout(RECOVER_WITHIN + 60000)
        const label = `h2e on Caddy ${version}`
        const { lane, c, requests, completed } = await rapidReset(h2eDef, PATHS[0], { srv: old, label })
        const ended = goawayOf(c) || c.closed ? howEnded(c) : null
        const closeFlood = performance.now()
        c.close()
        const drained = await waitFor(() => requests.running === 0, RECOVER_WITHIN)
        const drainedMs = Math.round(performance.now() - closeFlood)
        // Its first requests after that can still get a 502 (a pooled
        // connection to the app that the flood broke): a few tries.
        const failures = []
        let ms = null
        while (ms === null && failures.length < 5) {
          ms = await normalRequest(lane, undefined, old).catch(err => { failures.push(err.message.replace(/\s+/g, ' ')); return null })
          if (ms === null) await sleep(500)
        }
        record(label, `rapid reset ${PATHS[0]}, after`, `the flood's requests ${drained ? 'done' : 'still running'} ${drainedMs} ms after it was closed; ` +
          `then ${failures.length ? `${failures.length} failed request(s) (${[...new Set(failures)].join('; ')}), ` : ''}a normal request ${ms === null ? 'never answered' : `${ms} ms`}`)
        assert.equal(ended, null, `Caddy ${version} ended the rapid-reset connection (${ended})`)
        assert.ok(completed > MAX_COMPLETED, `Caddy ${version} ran only ${completed} reset requests to their end: the comparison shows nothing`)
        assert.doesNotThrow(() => process.kill(old.running.edge.pid, 0), 'Caddy died')
        assert.ok(drained, `${requests.running} of the flood's requests still running ${RECOVER_WITHIN / 1000} s after it`)
        assert.notEqual(ms, null, `no normal answer in 5 tries after the flood: ${failures.join('; ')}`)
      })
    })
  })

  describe('streams reset mid-response with every error code, and a stream window overflowed', () => {
    // spdy-transport emits 'error' on a stream reset with any code but
    // CANCEL, and on a window overflow; unhandled, that would end the
    // process (mocha fails the test on any uncaught exception).
    forEachLane(laneDef => {
      it('no crash, and another connection is answered', async () => {
        const lane = servers.lane(laneDef.name)
        const c = await openRaw(lane) // each body stops at its 65,535-byte window
        c.windowUpdate(0, 1 << 30)
        const ids = Array.from({ length: 28 }, () => c.request('/option?size=1mb'))
        await c.until(() => ids.every(id => c.dataBytes[id] > 0), 'some of every body', 10000)
        ids.forEach((id, i) => c.reset(id, i % 14)) // NO_ERROR … HTTP_1_1_REQUIRED, twice
        const overflowed = c.request('/option?size=1mb')
        c.windowUpdate(overflowed, 0x7fffffff)
        c.windowUpdate(overflowed, 0x7fffffff)
        await c.settle(500)
        const ms = await normalRequest(lane)
        const resets = c.framesOf('RST_STREAM', overflowed).map(f => RawClient.errorName(f))
        record(lane.name, 'resets and window overflow', `overflowed stream: ${resets.length ? `RST_STREAM ${resets.join(', ')}` : 'no RST_STREAM'}, ${howEnded(c)}; normal request ${ms} ms`)
      })
    }, H2_LANES)
  })

  describe('responses never read', () => {
    const RSS_BOUND = 128 * MIB

    forEachLane(laneDef => {
      it('500 streams for 16 MiB on one connection that never sends WINDOW_UPDATE: others are answered, no copy per response', async () => {
        const lane = servers.lane(laneDef.name)
        const rss = watchRss(edgePid(laneDef))
        const c = await openRaw(lane) // default windows: 65,535 bytes per stream and for the connection
        const ids = Array.from({ length: 500 }, () => c.request('/option?size=16mb'))
        await c.until(() => c.dataBytes.total >= 65535, 'the connection window\'s 65,535 bytes', 10000)
        await c.settle(1000)
        const ms = await normalRequest(lane, MIB)
        const rise = rss.stop()
        const answered = ids.filter(id => c.framesOf('HEADERS', id).length > 0).length
        const refused = c.framesOf('RST_STREAM').map(f => RawClient.errorName(f))
        record(lane.name, 'unread 500 × 16 MiB', `${answered} streams answered, ${refused.length ? `${refused.length} reset (${[...new Set(refused)].join(', ')})` : 'none reset'}, ` +
          `${c.dataBytes.total} body bytes sent (the window), ${howEnded(c)}; normal 1 MiB request ${ms} ms; RSS +${mib(rise)} MiB`)
        assert.equal(c.dataBytes.total, 65535, 'DATA beyond the connection window')
        assert.ok(rise < RSS_BOUND, `RSS rose ${mib(rise)} MiB (bound ${mib(RSS_BOUND)} MiB)`)
      })
    }, H2_LANES)

    forEachLane(laneDef => {
      // Each stuck connection holds what TLS has encrypted of one 256 KiB
      // piece of its body (the body itself is a view of the shared block):
      // about 0.6 MiB, so the rise grows with the number of connections.
      it('100 connections each asking for 16 MiB and never reading: others are answered, no copy per response', async () => {
        const lane = servers.lane(laneDef.name)
        const rss = watchRss(edgePid(laneDef))
        const conns = await tlsConnections(lane, ca(), 100, { first: 'GET /option?size=16mb HTTP/1.1\r\nHost: localhost\r\n\r\n', pause: true })
        cleanups.push(() => conns.forEach(conn => conn.socket.destroy()))
        await sleep(1500)
        const ms = await normalRequest(lane, MIB)
        const rise = rss.stop()
        record(lane.name, 'unread 100 × 16 MiB', `normal 1 MiB request ${ms} ms; RSS +${mib(rise)} MiB; ` +
          `such connections are destroyed after ${lane.server.timeout / 1000} s without traffic (see the idle test)`)
        assert.ok(rise < RSS_BOUND, `RSS rose ${mib(rise)} MiB (bound ${mib(RSS_BOUND)} MiB)`)
      })
    }, H1_LANES)
  })

  describe('CONTINUATION flood: HEADERS without END_HEADERS, then CONTINUATION frames without end', () => {
    const RSS_BOUND = 128 * MIB
    // 16,000 bytes of valid HPACK (literal header fields, no indexing).
    const FULL = Buffer.concat(Array.from({ length: 125 }, (_, i) => hpackLiteral(`x-flood-${i % 10}`, 'v'.repeat(110))))
    const VARIANTS = [
      { name: '100,000 empty CONTINUATION frames', frames: 100000, payload: Buffer.alloc(0) },
      { name: `100 MB in CONTINUATION frames of ${FULL.length} bytes`, frames: Math.ceil(100e6 / FULL.length), payload: FULL }
    ]

    forEachLane(laneDef => {
      for (const variant of VARIANTS) {
        it(`${variant.name}: the connection is ended with GOAWAY, another is answered, memory stays bounded`, async () => {
          const lane = servers.lane(laneDef.name)
          const rss = watchRss(edgePid(laneDef))
          const c = await openRaw(lane)
          c.write(frame(TYPE.HEADERS, FLAG.END_STREAM, 1, requestBlock(c.authority, '/lane')))
          const continuation = frame(TYPE.CONTINUATION, 0, 1, variant.payload)
          const flooding = flood(c, variant.frames, () => continuation)
          await turn()
          const during = normalRequest(lane)
          const { sent, endedAt } = await flooding
          const duringMs = await during
          await waitFor(() => c.closed, 3000)
          const rise = rss.stop()
          record(lane.name, `CONTINUATION flood, ${variant.name}`, `${howEnded(c)} (seen after ${endedAt ?? 'all'} of ${sent} frames sent); ` +
            `normal request ${duringMs} ms; RSS +${mib(rise)} MiB`)
          assert.ok(c.closed, `lane ${lane.name} kept the connection open after ${sent} CONTINUATION frames`)
          // spdy's GOAWAY is this project's (server/compat/spdy.js fix 7);
          // node:http2 destroys the session itself, at times before its
          // GOAWAY is written (recorded above).
          if (laneDef.name === 'h2') {
            const goaway = goawayOf(c)
            assert.ok(goaway, `lane ${lane.name} closed the connection without a GOAWAY`)
            assert.match(RawClient.errorName(goaway), /^(ENHANCE_YOUR_CALM|PROTOCOL_ERROR)$/)
          }
          assert.ok(rise < RSS_BOUND, `RSS rose ${mib(rise)} MiB (bound ${mib(RSS_BOUND)} MiB)`)
        })
      }
    }, H2_LANES)
  })

  describe('slowloris and idle connections', () => {
    const RSS_BOUND = 128 * MIB

    forEachLane(laneDef => {
      it('sets explicit time limits on receiving requests and on idle sockets', () => {
        const server = servers.lane(laneDef.name).server
        assert.equal(server.headersTimeout, 20000)
        assert.equal(server.requestTimeout, 60000)
        assert.equal(server.keepAliveTimeout, 5000)
        assert.equal(server.timeout, 120000)
        // Longer than the longest server delay, so no delayed answer is cut.
        assert.ok(server.timeout > 60000 && server.requestTimeout >= server.headersTimeout)
      })

      it('500 connections sending their request head a byte every 2 s: others are answered, and they are closed once headersTimeout passes', async () => {
        const lane = servers.lane(laneDef.name)
        const server = lane.server
        const rss = watchRss(edgePid(laneDef))
        const conns = await tlsConnections(lane, ca(), 500, { first: 'GET /lane HTTP/1.1\r\nHost: localhost\r\nX-Slow: ' })
        cleanups.push(() => conns.forEach(conn => conn.socket.destroy()))
        const drip = setInterval(() => { for (const conn of conns) if (!conn.closed) conn.socket.write('a') }, 2000)
        cleanups.push(() => clearInterval(drip))
        await sleep(2500) // at least one byte more each
        const ms = await normalRequest(lane)
        const rise = rss.stop()
        assert.equal(conns.filter(conn => conn.closed).length, 0, 'closed before headersTimeout')
        // The real limit is 20 s; lowered here (a public, documented property
        // of Node's server, read at every check) so the test takes seconds.
        // The lane's check interval (1 s) is what makes it take effect soon.
        const real = server.headersTimeout
        server.headersTimeout = 2000
        cleanups.push(() => { server.headersTimeout = real })
        const lowered = performance.now()
        const allClosed = await waitFor(() => conns.every(conn => conn.closed), 8000)
        const closedMs = Math.round(performance.now() - lowered)
        const timedOut = conns.filter(conn => /^HTTP\/1\.1 408 /.test(conn.reply)).length
        record(lane.name, 'slowloris 500 connections', `normal request ${ms} ms; RSS +${mib(rise)} MiB; with headersTimeout lowered to 2 s ` +
          `${conns.filter(conn => conn.closed).length} closed within ${closedMs} ms, ${timedOut} of them after a 408 (real limit ${real / 1000} s)`)
        assert.ok(allClosed, `${conns.filter(conn => !conn.closed).length} of 500 slowloris connections still open`)
        assert.equal(timedOut, 500, 'every slowloris connection should get 408 Request Timeout')
        assert.ok(rise < RSS_BOUND, `RSS rose ${mib(rise)} MiB (bound ${mib(RSS_BOUND)} MiB)`)
      })

      // Proves the mechanism; the test above fails without the lane's value.
      it('destroys a connection that never sends a request, and one that stopped reading its response, once idle for its timeout', async () => {
        const lane = servers.lane(laneDef.name)
        const server = lane.server
        // The real timeout is 120 s; server.setTimeout (public) applies to
        // connections made after it, so the test lowers it to 1 s.
        const real = server.timeout
        server.setTimeout(1000)
        cleanups.push(() => server.setTimeout(real))
        const serverSockets = new Map() // client port -> the server's socket
        const onConnection = socket => serverSockets.set(socket.remotePort, socket)
        server.on('secureConnection', onConnection)
        cleanups.push(() => server.off('secureConnection', onConnection))
        const [idle] = await tlsConnections(lane, ca(), 1)
        const [stalled] = await tlsConnections(lane, ca(), 1, { first: 'GET /option?size=16mb HTTP/1.1\r\nHost: localhost\r\n\r\n', pause: true })
        cleanups.push(() => { idle.socket.destroy(); stalled.socket.destroy() })
        const serverSide = conn => serverSockets.get(conn.port)
        const done = await waitFor(() => serverSide(idle)?.destroyed && serverSide(stalled)?.destroyed, 5000)
        record(lane.name, 'idle connections', `with the idle timeout lowered to 1 s: one that never sent a request ${serverSide(idle)?.destroyed ? 'destroyed' : 'open'}, ` +
          `one not reading its 16 MiB ${serverSide(stalled)?.destroyed ? 'destroyed' : 'open'} (real timeout ${real / 1000} s)`)
        assert.ok(done, 'the server kept an idle or a stalled connection')
      })
    }, H1_LANES)

    forEachLane(laneDef => {
      // Documents what the HTTP/2 lanes do: neither node:http2 nor spdy has
      // an idle timeout (server.timeout is 0), so only TLS's handshake
      // timeout (120 s, Node's default) ends any of these.
      it('100 connections that never finish TLS, 100 that never send the preface, 100 that send half of it: others are answered', async () => {
        const lane = servers.lane(laneDef.name)
        const rss = watchRss(edgePid(laneDef))
        const u = new URL(lane.url)
        const tcp = await Promise.all(Array.from({ length: 100 }, () => new Promise((resolve, reject) => {
          const socket = net.connect(Number(u.port), u.hostname, () => resolve(conn))
          const conn = { socket, closed: false }
          socket.on('close', () => { conn.closed = true })
          socket.on('error', reject)
        })))
        const silent = await tlsConnections(lane, ca(), 100)
        const half = await tlsConnections(lane, ca(), 100, { first: 'PRI * HTTP/2.0\r\n\r\n' })
        const all = [...tcp, ...silent, ...half]
        cleanups.push(() => all.forEach(conn => conn.socket.destroy()))
        await sleep(2000)
        const ms = await normalRequest(lane)
        const rise = rss.stop()
        const open = list => list.filter(conn => !conn.closed).length
        record(lane.name, 'slow handshake / preface', `after 2 s still open: ${open(tcp)}/100 without TLS, ${open(silent)}/100 without preface, ` +
          `${open(half)}/100 with half a preface; normal request ${ms} ms; RSS +${mib(rise)} MiB`)
        assert.ok(rise < RSS_BOUND, `RSS rose ${mib(rise)} MiB (bound ${mib(RSS_BOUND)} MiB)`)
      })
    }, H2_LANES)
  })
})

'use strict'

// The h3 lane (the Caddy tools/caddy pins: 2.11.9, quic-go v0.63) against the
// QUIC and HTTP/3 RFCs and abusive clients, beside what h2spec is to the h2
// lanes. No ready-made conformance suite runs here (h3spec needs Hackage or a
// binary download, the QUIC interop runner needs Docker images, quic-go's
// interop client speaks HTTP/0.9 and expects the runner's container layout),
// so the checks are these, each citing the section it tests:
//  - raw UDP from Node (test/support/quic-packets.js, checked against RFC
//    9001's test vectors in test/support/quic-packets.test.js) for what no
//    client library sends: unknown versions, too small Initials, garbage;
//  - h3get (tools/h3get, quic-go's HTTP/3 client) for many streams on one
//    connection and for cancelling requests as fast as they are sent;
//  - ngtcp2's example client (`gtlsclient`, Debian's ngtcp2-client), a second,
//    independent QUIC implementation, for what the interop runner's test
//    cases exercise: ChaCha20, key update, loss, version negotiation,
//    resumption and 0-RTT. It does not verify certificates (ngtcp2's example
//    clients never do); h3get, which does, covers that.
// Only loopback traffic; every wait is bounded. A summary is printed at the end.
const assert = require('node:assert/strict')
const dgram = require('node:dgram')
const crypto = require('node:crypto')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { execFile } = require('node:child_process')
const { performance } = require('node:perf_hooks')
const { useServers } = require('../../support/servers')
const { h3Get, h3get, useH3Client } = require('../../support/clients')
const q = require('../../support/quic-packets')
const { laneByName } = require('../../../server/lanes')
const { payload, MIB } = require('../../../server/payload')

const ANSWER_WITHIN = 10000 // a normal request, however busy the machine (as in abuse.test.js)
const QUIET_MS = 1000 // how long "no answer" is watched for
const sleep = ms => new Promise(resolve => setTimeout(resolve, ms))
const sha256 = buf => crypto.createHash('sha256').update(buf).digest('hex')
const mib = bytes => Math.round(bytes / MIB)

// A UDP socket on loopback that keeps every datagram it receives.
async function udpPeer (port) {
  const socket = dgram.createSocket('udp4')
  const received = []
  socket.on('message', msg => received.push(msg))
  await new Promise((resolve, reject) => { socket.once('error', reject); socket.bind(0, '127.0.0.1', resolve) })
  socket.setRecvBufferSize(8 * 1024 * 1024)
  return {
    received,
    bytes: () => received.reduce((sum, m) => sum + m.length, 0),
    send: buf => new Promise((resolve, reject) => socket.send(buf, port, '127.0.0.1', err => err ? reject(err) : resolve())),
    // Resolves once `count` datagrams arrived, or after `ms` regardless.
    async wait (count, ms) {
      const until = performance.now() + ms
      while (received.length < count && performance.now() < until) await sleep(10)
      return received
    },
    close: () => new Promise(resolve => socket.close(resolve))
  }
}

function withTimeout (promise, ms, what) {
  let timer
  return Promise.race([
    promise.finally(() => clearTimeout(timer)),
    new Promise((resolve, reject) => { timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms`)), ms) })
  ])
}

// Requests the lane's app was handed while counting, the most at once, how
// many ran to their end (the whole response written), and how long the
// longest of the others lived before it was aborted.
function countRequests (server) {
  const counter = { count: 0, inFlight: 0, peak: 0, completed: 0, longestAbortedMs: 0, stop () { server.off('request', onRequest) } }
  const onRequest = (req, res) => {
    const started = performance.now()
    counter.count++
    counter.peak = Math.max(counter.peak, ++counter.inFlight)
    res.once('close', () => {
      counter.inFlight--
      if (res.writableFinished) counter.completed++
      else counter.longestAbortedMs = Math.max(counter.longestAbortedMs, performance.now() - started)
    })
  }
  server.on('request', onRequest)
  return counter
}

async function waitFor (test, ms, step = 20) {
  const until = performance.now() + ms
  while (!test() && performance.now() < until) await sleep(step)
  return test()
}

describe('h3 lane: QUIC and HTTP/3 conformance and robustness', function () {
  this.timeout(60000)
  useH3Client()
  const servers = useServers({ lanes: [laneByName('h3')] })
  const lane = () => servers.lane('h3')
  const port = () => Number(new URL(lane().url).port)
  const ca = () => servers.tls.cert
  const caddyPid = () => servers.running.edge.pid
  const summary = []
  const record = (what, text) => summary.push(`${what}: ${text}`)
  const cleanups = []
  afterEach(async () => { for (const fn of cleanups.splice(0)) await fn() })
  after(() => {
    process.stdout.write(`\n  What the h3 lane did (Caddy ${servers.running?.edge?.version}):\n${summary.map(l => `    ${l}\n`).join('')}\n`)
  })

  async function peer () {
    const p = await udpPeer(port())
    cleanups.push(() => p.close())
    return p
  }

  function caddyAlive () {
    try {
      process.kill(caddyPid(), 0)
      return true
    } catch {
      return false
    }
  }

  function caddyRss () {
    return Number(/VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${caddyPid()}/status`, 'utf8'))[1]) * 1024
  }

  // A normal HTTP/3 request for `size` bytes on a new connection: answered
  // whole, over HTTP/3, within ANSWER_WITHIN. Returns its latency in ms.
  async function normalRequest (size = 100 * 1024) {
    const started = performance.now()
    const res = await withTimeout(h3Get(`${lane().url}/option?size=${size}`, { ca: ca() }), ANSWER_WITHIN, 'a normal HTTP/3 request')
    assert.equal(res.status, 200)
    assert.equal(res.proto, 'HTTP/3.0')
    assert.ok(res.body.equals(payload(size)), `the normal request's body is not the ${size} bytes asked for`)
    return Math.round(performance.now() - started)
  }

  describe('versions and the size of the first datagram', () => {
    // RFC 9000 §6.1 (a server answers a version it does not support with
    // Version Negotiation), §5.2.2 (if the datagram is at least 1200 bytes),
    // §17.2.1 (the packet: version 0, the client's connection IDs swapped,
    // the versions supported). 0x1a2a3a4a follows §15's reserved pattern
    // 0x?a?a?a?a, kept for forcing exactly this.
    it('answers an unknown version (0x1a2a3a4a) in a 1200-byte datagram with Version Negotiation: version 1 listed, connection IDs echoed (RFC 9000 §6.1, §17.2.1)', async () => {
      const p = await peer()
      const dcid = crypto.randomBytes(8)
      const scid = crypto.randomBytes(8)
      await p.send(q.longHeaderPacket({ version: 0x1a2a3a4a, dcid, scid, size: 1200 }))
      const [reply] = await p.wait(1, 2000)
      assert.ok(reply, 'no answer to an unknown version')
      const vn = q.parseVersionNegotiation(reply)
      assert.ok(vn, `the answer is not a Version Negotiation packet: ${reply.subarray(0, 8).toString('hex')}`)
      assert.ok(vn.dcid.equals(scid), 'Destination Connection ID is not the client\'s Source Connection ID')
      assert.ok(vn.scid.equals(dcid), 'Source Connection ID is not the client\'s Destination Connection ID')
      assert.ok(vn.versions.includes(q.V1), `version 1 not offered: ${vn.versions.map(v => v.toString(16))}`)
      assert.ok(!vn.versions.includes(0x1a2a3a4a), 'offers the version it was just refused')
      record('version negotiation', `versions offered ${vn.versions.map(v => `0x${v.toString(16).padStart(8, '0')}`).join(', ')} ` +
        '(0x?a?a?a?a: greasing, RFC 9000 §6.3; 0x709a50c4: QUIC v2 draft; 0xff00001d: draft-29)')
    })

    // RFC 9000 §5.2.2: servers MUST drop smaller packets that specify
    // unsupported versions (a spoofed small packet must not buy a reply).
    it('sends nothing for an unknown version in a datagram under 1200 bytes (RFC 9000 §5.2.2)', async () => {
      const p = await peer()
      for (const size of [1199, 100, 40]) {
        await p.send(q.longHeaderPacket({ version: 0x1a2a3a4a, dcid: crypto.randomBytes(8), scid: crypto.randomBytes(8), size }))
      }
      assert.equal((await p.wait(1, QUIET_MS)).length, 0, 'answered a datagram under 1200 bytes')
    })

    // RFC 9000 §14.1: a server MUST discard an Initial packet carried in a
    // UDP datagram with a payload smaller than 1200 bytes. The very same
    // ClientHello padded to 1200 bytes is answered with the server's Initial
    // (decrypted here with the Initial keys, RFC 9001 §5.2): it is the size
    // the server refuses, not the packet.
    it('drops a client Initial in a datagram under 1200 bytes, and answers the same ClientHello in 1200 bytes with a ServerHello (RFC 9000 §14.1)', async () => {
      const scid = crypto.randomBytes(8)
      const hello = q.clientHello({ scid })
      for (const size of [1199, 1000]) {
        const p = await peer()
        await p.send(q.clientInitial({ dcid: crypto.randomBytes(8), scid, crypto: hello, size }))
        assert.equal((await p.wait(1, QUIET_MS)).length, 0, `answered an Initial in a ${size}-byte datagram`)
      }
      const p = await peer()
      const dcid = crypto.randomBytes(8)
      await p.send(q.clientInitial({ dcid, scid, crypto: hello, size: 1200 }))
      const [reply] = await p.wait(1, 3000)
      assert.ok(reply, 'no answer to a valid Initial in 1200 bytes')
      assert.ok(q.parseLongHeader(reply).dcid.equals(scid), 'the answer is not addressed to the client\'s connection ID')
      const opened = q.openInitial(reply, dcid)
      const serverHello = opened.frames.find(f => f.type === 'CRYPTO' && f.offset === 0)
      assert.ok(serverHello, `no CRYPTO frame in the server's Initial: ${JSON.stringify(opened.frames)}`)
      assert.equal(serverHello.data[0], 2, 'the server\'s first handshake message is not a ServerHello')
    })

    // RFC 9000 §8.1: before the client's address is validated, a server MUST
    // NOT send more than three times the bytes it received; RFC 9002
    // §6.2.2.1: packets sent on PTO count too. quic-go checks the limit
    // before each packet and then sends it whole, so it may go over by up to
    // one datagram (quic-go#2862, "allow an amplification factor of 3.x"):
    // allowed here, and the real factor recorded.
    it('sends at most 3× the bytes of an unanswered 1200-byte Initial (plus one datagram), PTO retransmissions included (RFC 9000 §8.1, RFC 9002 §6.2.2.1)', async () => {
      const p = await peer()
      const dcid = crypto.randomBytes(8)
      const scid = crypto.randomBytes(8)
      await p.send(q.clientInitial({ dcid, scid, crypto: q.clientHello({ scid }), size: 1200 }))
      await p.wait(Infinity, 2500) // past the server's first PTOs (about 200 ms, then doubling)
      const sent = p.bytes()
      const largest = Math.max(...p.received.map(m => m.length))
      record('anti-amplification', `one 1200-byte Initial left unanswered: ${p.received.length} datagrams, ${sent} bytes back (${(sent / 1200).toFixed(2)}×) within 2.5 s`)
      assert.ok(sent > 0, 'no answer at all')
      assert.ok(sent <= 3 * 1200 + largest, `sent ${sent} bytes for 1200 received (limit 3 × 1200 + one datagram of ${largest})`)
    })
  })

  describe('garbage and abandoned handshakes', () => {
    // RFC 9000 §5.2 (a packet no connection owns is discarded, or answered
    // with Version Negotiation or a Stateless Reset only), §12.2 (a
    // datagram may hold anything), RFC 9001 §5.5 (a packet that fails to
    // decrypt is discarded): whatever arrives, the server keeps serving.
    // §6.1 lets a server limit the Version Negotiation packets it sends, and
    // quic-go does: it queues at most 4 and drops the rest while busy
    // (server.go, enqueueVersionNegotiationPacket), so in a burst only some
    // reserved versions get one (measured: 450-500 of 1,200; Caddy 2.6.2's
    // quic-go 0.29 answered every one). Asserted: some do, never more than
    // the datagrams that could draw one, and hardly any other answer.
    it('6,000 garbage datagrams of five kinds, then a normal request succeeds, one connection kept working throughout, Caddy still runs', async function () {
      this.timeout(90000)
      const scid = crypto.randomBytes(8)
      const realInitial = q.clientInitial({ dcid: crypto.randomBytes(8), scid, crypto: q.clientHello({ scid }), size: 1200 })
      const nibble = () => crypto.randomInt(16)
      const reserved = () => (nibble() << 28 | nibble() << 20 | nibble() << 12 | nibble() << 4 | 0x0a0a0a0a) >>> 0
      const KINDS = {
        'random bytes, 1 to 1500': () => crypto.randomBytes(1 + crypto.randomInt(1500)),
        'short headers for unknown connections': () => Buffer.concat([Buffer.from([0x40 | crypto.randomInt(0x40)]), crypto.randomBytes(20 + crypto.randomInt(1200))]),
        'v1 long headers of random content, 1200 to 1452 bytes': () => q.longHeaderPacket({ version: q.V1, dcid: crypto.randomBytes(8), scid: crypto.randomBytes(8), size: 1200 + crypto.randomInt(253) }),
        'reserved versions in 1200 bytes': () => q.longHeaderPacket({ version: reserved(), dcid: crypto.randomBytes(8), scid: crypto.randomBytes(8), size: 1200 }),
        'a real Initial cut short or bit-flipped': () => {
          const b = Buffer.from(realInitial.subarray(0, 20 + crypto.randomInt(realInitial.length - 20)))
          b[crypto.randomInt(b.length)] ^= 1 << crypto.randomInt(8)
          return b
        }
      }
      const PER_KIND = 1200
      const rss = caddyRss()
      const peers = await Promise.all(Array.from({ length: 4 }, () => peer()))
      // One connection making requests one after another during the flood.
      const during = h3get(`${lane().url}/option?size=10000`, ['--repeat', '40'], { ca: ca(), timeoutMs: 60000 })
      // A datagram can draw Version Negotiation when it is a long header of
      // a version other than 1 in at least 1200 bytes (RFC 9000 §5.2.2).
      const couldDrawVn = d => d.length >= 1200 && (d[0] & 0x80) !== 0 && d.readUInt32BE(1) !== q.V1
      const started = performance.now()
      let sent = 0
      let vnEligible = 0
      for (let i = 0; i < PER_KIND; i++) {
        const datagrams = Object.values(KINDS).map(make => make())
        vnEligible += datagrams.filter(couldDrawVn).length
        await Promise.all(datagrams.map((d, k) => peers[(i + k) % peers.length].send(d)))
        sent += datagrams.length
      }
      const floodMs = Math.round(performance.now() - started)
      await sleep(300)
      const answers = peers.flatMap(p => p.received)
      const vn = answers.filter(m => q.parseVersionNegotiation(m)).length
      const whileFlooded = await during
      const ms = await normalRequest()
      const rise = caddyRss() - rss
      record('garbage', `${sent} datagrams (${Object.keys(KINDS).join('; ')}) in ${floodMs} ms: ${answers.length} answers ` +
        `(${vn} Version Negotiation for ${vnEligible} that could draw one, ${answers.length - vn} other); a connection meanwhile: ${whileFlooded.succeeded}/40 requests; ` +
        `then a normal request ${ms} ms; Caddy RSS ${rise >= 0 ? '+' : ''}${mib(rise)} MiB`)
      assert.equal(sent, 6000)
      assert.equal(whileFlooded.succeeded, 40, JSON.stringify(whileFlooded))
      assert.equal(whileFlooded.connections, 1)
      assert.ok(caddyAlive(), 'Caddy died')
      // Only versions Caddy does not know (the reserved ones, and any random
      // first bytes that happen to look like a long header of another
      // version) can be answered, and only with Version Negotiation.
      assert.ok(vn > 0, `no Version Negotiation for any of ${PER_KIND} reserved versions`)
      assert.ok(vn <= vnEligible, `${vn} Version Negotiation packets for ${vnEligible} datagrams that could draw one`)
      assert.ok(answers.length - vn <= PER_KIND * 0.05, `${answers.length - vn} answers other than Version Negotiation`)
    })

    // RFC 9000 §8.1 again, for many connections at once: 300 clients send a
    // valid Initial (so the server does a TLS handshake for each: signs with
    // its key) and never answer. The server's bytes stay within 3× plus a
    // datagram per connection, and real clients are still served: after the flood always; during it, the server may
    // refuse a new connection outright (quic-go's CONNECTION_REFUSED while its queue of handshakes is full, as long
    // as a loaded machine keeps it full: RFC 9000 §5.2.2, a server's right), but never leaves it unanswered.
    it('300 handshakes begun and abandoned: within the anti-amplification limit, a normal request answered (or refused outright) during and answered after (RFC 9000 §8.1)', async () => {
      const HANDSHAKES = 300
      const p = await peer()
      const started = performance.now()
      for (let i = 0; i < HANDSHAKES; i++) {
        const scid = crypto.randomBytes(8)
        await p.send(q.clientInitial({ dcid: crypto.randomBytes(8), scid, crypto: q.clientHello({ scid }), size: 1200 }))
      }
      const sendMs = Math.round(performance.now() - started)
      const during = normalRequest().catch(err => {
        if (/CONNECTION_REFUSED/.test(err.message)) return 'refused (CONNECTION_REFUSED)'
        throw err
      })
      await p.wait(Infinity, 2500)
      const duringMs = await during
      const afterMs = await normalRequest()
      const byType = {}
      for (const m of p.received) {
        const h = q.parseLongHeader(m)
        const type = !h ? 'short header' : h.version === 0 ? 'Version Negotiation' : ['Initial', '0-RTT', 'Handshake', 'Retry'][(h.first >> 4) & 3]
        byType[type] = (byType[type] || 0) + 1
      }
      const bytes = p.bytes()
      record('abandoned handshakes', `${HANDSHAKES} Initials sent in ${sendMs} ms: ${p.received.length} datagrams back ` +
        `(${Object.entries(byType).map(([k, v]) => `${v} ${k}`).join(', ')}), ${(bytes / (HANDSHAKES * 1200)).toFixed(2)}× the bytes received; ` +
        `normal request ${typeof duringMs === 'number' ? `${duringMs} ms` : duringMs} during, ${afterMs} ms after`)
      assert.ok(bytes <= HANDSHAKES * (3 * 1200 + 1500), `sent ${bytes} bytes for ${HANDSHAKES * 1200} received`)
      assert.ok(caddyAlive(), 'Caddy died')
    })
  })

  describe('streams', () => {
    // RFC 9000 §2.1, §4.6: one connection carries many concurrent streams,
    // as many at once as the server's MAX_STREAMS allows (quic-go: 100),
    // the client waiting for more credit; RFC 9114 §4.1: one request per stream.
    it('200 requests on one connection, as parallel streams: every answer exact, one connection, at most 100 at once (RFC 9000 §4.6, RFC 9114 §4.1)', async () => {
      const size = 10000
      const app = countRequests(lane().server)
      cleanups.push(() => app.stop())
      const r = await h3get(`${lane().url}/option?size=${size}&delay=20`, ['--repeat', '200', '--parallel'], { ca: ca(), timeoutMs: 30000 })
      record('200 parallel requests', `${r.succeeded} answered on ${r.connections} connection(s) in ${Math.round(r.totalMs)} ms; at most ${app.peak} at the app at once`)
      assert.deepEqual({ succeeded: r.succeeded, failed: r.failed, connections: r.connections, statuses: r.statuses, bodies: r.bodies, errors: r.errors },
        { succeeded: 200, failed: 0, connections: 1, statuses: { 200: 200 }, bodies: { [sha256(payload(size))]: 200 }, errors: [] })
      assert.equal(app.count, 200)
      // 200 × 20 ms one after another would take 4 s: they overlapped.
      assert.ok(app.peak > 10, `at most ${app.peak} requests at once: the streams were not concurrent`)
      assert.ok(app.peak <= 100, `${app.peak} requests at once, beyond the server's 100 streams`)
    })

    // HTTP/3's rapid reset (CVE-2023-44487 is HTTP/2's): each request sent
    // whole and cancelled at once with STOP_SENDING H3_REQUEST_CANCELLED
    // (RFC 9114 §4.1.1, RFC 9000 §3.5). Unlike HTTP/2, a reset stream keeps
    // counting against MAX_STREAMS until closed, so the client cannot race
    // ahead of the server's 100 streams, and the connection need not end.
    // The defence asked of the server, as of the HTTP/2 lanes in
    // abuse.test.js: it stops the work of a cancelled request. quic-go v0.63
    // cancels a request's context when STOP_SENDING arrives
    // (http3/server_conn.go) and Caddy's reverse proxy then aborts its
    // upstream request: the app is still handed a share of the requests (the
    // cancel races the dispatch; measured 1,200-3,200 of 5,000, up to 360 at
    // once, each aborted within about 110 ms) but hardly any runs to its end
    // (0-6: a 1 MiB answer written whole before the cancel came), and Caddy
    // grows by 0-70 MiB. Caddy 2.6.2's quic-go 0.29 had no such cancellation
    // (it came with quic-go#4508, 2024): 2,900-5,000 reached the app,
    // 2,600-4,300 ran to their end, up to 1,000 at once, Caddy +170-240 MiB,
    // and the connection's next request waited 1.6-2.4 s. More of the
    // requests reach the app than the HTTP/2 test's quarter, so that bound is
    // not asserted here; the work they cost is.
    const STREAMS = 5000
    const RSS_BOUND = 256 * MIB // as for HTTP/2's rapid reset
    const SETTLE_MS = 3000
    for (const target of ['/option?size=1mb', '/option?size=1mb&delay=100']) {
      it(`rapid reset: ${STREAMS} requests for ${target} each cancelled as sent: none runs to its end at the app, the connection and the lane answer promptly (RFC 9114 §4.1.1)`, async function () {
        this.timeout(120000)
        const app = countRequests(lane().server)
        cleanups.push(() => app.stop())
        const rss = caddyRss()
        const started = performance.now()
        const r = await h3get(`${lane().url}${target}`, ['--cancel', String(STREAMS)], { ca: ca(), timeoutMs: 90000 })
        const floodMs = Math.round(performance.now() - started)
        // The flood's requests at the app, each aborted by Caddy: all over soon.
        const settled = await waitFor(() => app.inFlight === 0, SETTLE_MS)
        app.stop()
        const after = r.after || {}
        const afterDone = !after.error && after.status === 200 ? 1 : 0 // the same connection's request after the flood, also counted
        const completed = app.completed - afterDone
        const ms = await normalRequest()
        const rise = caddyRss() - rss
        record(`rapid reset ${target}`, `${r.cancelled} of ${STREAMS} requests sent and cancelled in ${Math.round(r.floodMs)} ms on one connection` +
          `${r.floodError ? ` (stopped: ${r.floodError})` : ''}; the app was handed ${app.count - afterDone} of them, at most ${app.peak} at once, ` +
          `${completed} ran to the end, the others aborted after at most ${Math.round(app.longestAbortedMs)} ms; ` +
          `the same connection's next request: ${after.error ? `error ${after.error}` : `${after.status}, ${after.bodyLength} bytes`} after ${Math.round(after.ms)} ms; ` +
          `a new connection's request ${ms} ms after the ${floodMs} ms run; Caddy RSS ${rise >= 0 ? '+' : ''}${mib(rise)} MiB`)
        assert.equal(r.error, undefined, JSON.stringify(r))
        assert.equal(r.cancelled, STREAMS, `the server stopped granting streams: ${JSON.stringify(r)}`)
        assert.ok(caddyAlive(), 'Caddy died')
        assert.equal(after.error, undefined, `the connection's request after the flood failed: ${JSON.stringify(after)}`)
        assert.deepEqual([after.status, after.bodyLength], [200, MIB], 'the connection\'s request after the flood')
        assert.ok(app.count <= STREAMS + 1, `the app was handed ${app.count} requests for ${STREAMS} sent and one more`)
        assert.ok(completed <= STREAMS / 100, `${completed} of the ${STREAMS} cancelled requests ran to their end at the app`)
        assert.ok(settled, `${app.inFlight} of the flood's requests still running at the app ${SETTLE_MS} ms after it`)
        assert.ok(rise < RSS_BOUND, `Caddy's RSS rose ${mib(rise)} MiB (bound ${mib(RSS_BOUND)} MiB)`)
      })
    }
  })

  describe('interop with a second implementation: ngtcp2\'s client (gtlsclient)', () => {
    const GTLSCLIENT = process.env.GTLSCLIENT || 'gtlsclient'
    let dir

    before(async function () {
      this.timeout(10000)
      const found = await new Promise(resolve => execFile(GTLSCLIENT, ['--help'], err => resolve(!err || err.code !== 'ENOENT')))
      if (!found) throw new Error(`these tests need ngtcp2's client ${GTLSCLIENT}: install it (Debian/Ubuntu: apt-get install -y ngtcp2-client) or set GTLSCLIENT`)
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'h2bench-ngtcp2-'))
    })
    after(() => dir && fs.rmSync(dir, { recursive: true, force: true }))

    // One download with gtlsclient (`query` added to the URL); → { log, body }
    // (the body as saved, or null). Its log is its debug output without
    // frame and body dumps.
    function download (size, args = [], query = '') {
      const out = fs.mkdtempSync(path.join(dir, 'download-'))
      const url = `${lane().url}/option?size=${size}${query}`
      const argv = ['--exit-on-all-streams-close', '--no-quic-dump', '--no-http-dump', '--timeout=5s', '--handshake-timeout=5s', `--download=${out}`, ...args, '127.0.0.1', String(port()), url]
      return new Promise(resolve => {
        execFile(GTLSCLIENT, argv, { timeout: 30000, maxBuffer: 256 * 1024 * 1024 }, (err, stdout, stderr) => {
          const files = fs.readdirSync(out)
          const body = files.length === 1 ? fs.readFileSync(path.join(out, files[0])) : null
          resolve({ log: `${stdout}${stderr}`, body, code: err ? err.code ?? err.signal : 0 })
        })
      })
    }

    function assertDownloaded (r, size) {
      assert.ok(r.body, `nothing downloaded (exit ${r.code}): ${r.log.split('\n').filter(l => /error|ERR_|close/i.test(l)).slice(-5).join(' | ')}`)
      assert.equal(r.body.length, size)
      assert.ok(r.body.equals(payload(size)), 'the downloaded bytes are not the payload')
      assert.match(r.log, /Negotiated ALPN is h3/)
    }

    // RFC 9001 §5.3: TLS_CHACHA20_POLY1305_SHA256 (and AES-256-GCM) are
    // QUIC cipher suites; ChaCha20 also changes header protection (§5.4.4).
    for (const suite of ['CHACHA20-POLY1305', 'AES-256-GCM']) {
      it(`completes a handshake and a 1 MiB download offering only ${suite} (RFC 9001 §5.3, §5.4)`, async () => {
        const r = await download(MIB, [`--ciphers=NORMAL:-VERS-ALL:+VERS-TLS1.3:-CIPHER-ALL:+${suite}`])
        assertDownloaded(r, MIB)
        assert.match(r.log, new RegExp(`Negotiated cipher suite is ${suite}`))
      })
    }

    // RFC 9001 §6: either endpoint may update its 1-RTT keys; the peer
    // follows (the key phase bit) and the transfer goes on. quic-go v0.63
    // starts its own first update after 100 packets (FirstKeyUpdateInterval),
    // early in any transfer: the client must follow it. (Caddy 2.6.2's quic-go
    // 0.29 kept its first keys through a 4 MiB transfer.)
    it('starts a key update of its own mid-transfer, and the client follows (RFC 9001 §6)', async () => {
      const r = await download(4 * MIB)
      assertDownloaded(r, 4 * MIB)
      assert.doesNotMatch(r.log, /Initiate key update/)
      assert.match(r.log, /pkt rx .*type=1RTT k=1/, 'no packet from the server in the next key phase')
      assert.match(r.log, /con rotate keys/, 'the client did not see the server update its keys')
    })

    // The other way. ngtcp2 allows one key update at a time: its example
    // client gives up (ERR_INVALID_STATE, then it closes the connection)
    // when its own update is due while the server's is unconfirmed, as a
    // timer of 10 ms into a fast transfer mostly was. So the client updates
    // 10 ms after the handshake while the response waits 50 ms at the app,
    // before the server's 100th packet; the new keys carry the transfer.
    it('follows a key update the client starts while its request is answered (RFC 9001 §6)', async () => {
      const r = await download(4 * MIB, ['--key-update=10ms'], '&delay=50')
      assertDownloaded(r, 4 * MIB)
      assert.match(r.log, /Initiate key update/)
      assert.doesNotMatch(r.log, /ERR_INVALID_STATE/)
      assert.match(r.log, /key update confirmed/)
    })

    // RFC 9002: loss detection and recovery, both ways (the client drops
    // 10 % of what it sends and of what it receives).
    it('completes a 1 MiB download with 10 % of the packets lost each way (RFC 9002 §6)', async () => {
      const r = await download(MIB, ['--tx-loss=0.1', '--rx-loss=0.1'])
      assertDownloaded(r, MIB)
      const dropped = way => (r.log.match(new RegExp(`Simulated ${way} packet loss`, 'g')) || []).length
      record('ngtcp2 loss', `1 MiB with 10 % loss each way: downloaded whole; the client dropped ${dropped('outgoing')} packets it sent and ${dropped('incoming')} it received`)
      assert.ok(dropped('outgoing') > 0 && dropped('incoming') > 0, 'no packet was dropped: the test tested nothing')
    })

    // RFC 9000 §6.2: a client that started with a version the server does not
    // support gets Version Negotiation and connects again with one it does.
    it('leads a client that starts with version 0x1a2a3a4a to version 1 (RFC 9000 §6.2)', async () => {
      const r = await download(1000, ['--version=0x1a2a3a4a', '--preferred-versions=v1'])
      assert.match(r.log, /pkt rx .*type=VN/)
      assert.match(r.log, /the negotiated version is 0x00000001/)
      assertDownloaded(r, 1000)
    })

    // RFC 9001 §4.6 (0-RTT), RFC 8446 §2.2-2.3: a second connection resumes
    // the first's TLS session and sends its request as 0-RTT. Caddy accepts
    // it (2.11.9 as 2.6.2 did; its allow_0rtt is left at the default), which
    // matters for timings: a browser's resumed h3 connection can have its
    // first request answered one round trip sooner.
    it('resumes a session and answers a request sent as 0-RTT (RFC 9001 §4.6)', async () => {
      const session = path.join(dir, 'session.pem')
      const params = path.join(dir, 'transport-params.pem')
      const first = await download(1000, [`--session-file=${session}`, `--tp-file=${params}`])
      assertDownloaded(first, 1000)
      assert.ok(fs.existsSync(session) && fs.existsSync(params), 'no session ticket or transport parameters saved')
      const second = await download(1000, [`--session-file=${session}`, `--tp-file=${params}`])
      assert.match(second.log, /pkt tx .*type=0RTT/, 'the client sent no 0-RTT packet')
      assert.doesNotMatch(second.log, /Early data was rejected/)
      assertDownloaded(second, 1000)
    })
  })
})

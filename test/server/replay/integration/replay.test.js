'use strict'

// server/replay/serve.js end to end: the constructed three-origin site
// (test/server/replay/har-fixture.js: a.example and b.example shared an
// address and a certificate, c.example:8443 had its own) replayed over h1,
// h2 (node:http2), h2-spdy, h2e (h3's Caddy, over TCP) and h3 (Caddy), fetched by real clients that
// trust only the replay's CA and connect to the planned addresses by name:
// node:https and node:http2 (their connection made to the plan's address,
// SNI the recorded name), and h3get over QUIC. Each protocol: the recorded
// bytes (compressed again as recorded, binary exact), status and headers
// (hop-by-hop gone, both Set-Cookie kept), the recorded server time waited
// (a lower bound), the recorded order of repeated requests, 404s counted
// and named, and one leaf covering both names that shared a certificate
// (so a browser may coalesce them; over h2 one connection serves both).
// h2e is h3's server: the same Caddy binary and configuration (it answers
// QUIC too, and announces it), spoken to over HTTP/2 on TCP.
// In test/run.js's private namespace the origins listen on their recorded
// ports (443, 8443), and h2 and h3 run again with them moved to free ports
// (the replay maps the moved :authority back); outside one, always moved.
const assert = require('node:assert/strict')
const https = require('node:https')
const http2 = require('node:http2')
const tls = require('node:tls')
const zlib = require('node:zlib')
const crypto = require('node:crypto')
const { performance } = require('node:perf_hooks')
const { archiveFromHar } = require('../../../../server/replay/archive')
const { startReplay, replayCertificates } = require('../../../../server/replay/serve')
const { mayBuildHere } = require('../../../../link/namespace')
const { freePort, edgeUnavailableReason, caddyVersion } = require('../../../../server/edge/caddy')
const { h3get, useH3Client } = require('../../../support/clients')
const { h2benchHar, BODIES, PNG, SERVER_TIME } = require('../har-fixture')

const A = 'https://a.example'
const B = 'https://b.example'
const C = 'https://c.example:8443'

// Where the replay listens for `origin`: { host, address, port, authority (as the client sends it) }.
function target (replay, origin) {
  const o = replay.origins.find(x => x.origin === origin)
  return { host: o.host, address: o.address, port: o.port, authority: o.port === 443 ? o.host : `${o.host}:${o.port}` }
}

// What a browser sends: without it, Caddy's proxy (Go's transport) asks the upstream for gzip itself and un-gzips the answer.
const BROWSER = { 'accept-encoding': 'gzip, deflate, br, zstd' }
// A dns.lookup that answers `address` for any name (Node's with or without { all: true }).
const lookupAt = address => (name, options, callback) => options && options.all ? callback(null, [{ address, family: 4 }]) : callback(null, address, 4)

// A TLS connection to the plan's address, named as recorded (SNI), trusting only the replay's CA.
const connect = (t, ca, alpn) => tls.connect({ host: t.address, port: t.port, servername: t.host, ca, ALPNProtocols: [alpn] })

// GET over HTTP/1.1 → { status, statusMessage, headers, body, ms (to the response head), cert }
function h1Fetch (replay, origin, path, { method = 'GET' } = {}) {
  const t = target(replay, origin)
  return new Promise((resolve, reject) => {
    const start = performance.now()
    const req = https.request({
      method, host: t.host, port: t.port, path, agent: false, headers: { host: t.authority, ...BROWSER }, servername: t.host, ca: replay.caPem, ALPNProtocols: ['http/1.1'], lookup: lookupAt(t.address)
    }, res => {
      const ms = performance.now() - start
      const chunks = []
      res.on('data', c => chunks.push(c))
      res.on('end', () => resolve({ status: res.statusCode, statusMessage: res.statusMessage, headers: res.headers, body: Buffer.concat(chunks), ms, alpn: res.socket.alpnProtocol, cert: res.socket.getPeerX509Certificate() }))
    })
    req.on('error', reject)
    req.end()
  })
}

// An HTTP/2 session to `origin`'s address; get(path, authority?) → like h1Fetch's.
function h2Session (replay, origin) {
  const t = target(replay, origin)
  const session = http2.connect(`https://${t.authority}`, { createConnection: () => connect(t, replay.caPem, 'h2') })
  session.on('error', () => {})
  const get = (path, authority = t.authority) => new Promise((resolve, reject) => {
    const start = performance.now()
    const req = session.request({ ':path': path, ':authority': authority, ...BROWSER })
    let headers = null
    let ms = null
    const chunks = []
    req.on('response', h => { headers = h; ms = performance.now() - start })
    req.on('data', c => chunks.push(c))
    req.on('end', () => headers ? resolve({ status: headers[':status'], headers, body: Buffer.concat(chunks), ms, alpn: session.alpnProtocol, cert: session.socket.getPeerX509Certificate() }) : reject(new Error(`${path}: no response`)))
    req.on('error', reject)
    req.end()
  })
  return { get, session, close: () => new Promise(resolve => session.close(resolve)) }
}
async function h2Fetch (replay, origin, path) {
  const s = h2Session(replay, origin)
  try {
    return await s.get(path)
  } finally {
    await s.close()
  }
}

// GET over HTTP/3 (h3get): to the plan's address, :authority the recorded
// name. h3get dials the URL's host, an address here, so it cannot check the
// name against the leaf (that is checked over TCP on the same port below).
async function h3Fetch (replay, origin, path) {
  const t = target(replay, origin)
  const r = await h3get(`https://${t.address}:${t.port}${path}`, ['--insecure'], { headers: { Host: t.authority, ...BROWSER } })
  if (r.error) throw new Error(`h3get ${origin}${path}: ${r.error}`)
  return { status: r.status, headers: r.headers, body: Buffer.from(r.body, 'base64'), ms: r.timings.headersMs, alpn: r.alpn, proto: r.proto }
}

const FETCH = { h1: h1Fetch, h2: h2Fetch, 'h2-spdy': h2Fetch, h2e: h2Fetch, h3: h3Fetch }
// Headers the protocol's server adds that were not recorded: HTTP/1.1's connection management; Go's Date at the
// edge, and over TCP its Alt-Svc for its own h3.
const SERVER_ADDS = { h1: ['connection', 'keep-alive'], h2: [], 'h2-spdy': [], h2e: ['date', 'alt-svc'], h3: ['date'] }
const ALPN = { h1: 'http/1.1', h2: 'h2', 'h2-spdy': 'h2', h2e: 'h2', h3: 'h3' }
const EDGE = ['h2e', 'h3'] // served by Caddy

// The origins' ports: recorded in a private namespace (unless `moved`), else free ones (>= 1024) on the plan's addresses.
async function portsHere (moved) {
  if (mayBuildHere() && !moved) return null
  const ab = await freePort('127.0.1.1')
  const c = await freePort('127.0.1.2')
  return { [A]: ab, [B]: ab, [C]: c }
}

// Each protocol on the recorded ports; h2 and h3 also with the ports moved (as a test outside a namespace
// must): the :authority then carries the moved port, and the replay maps it back to the recorded origin.
const CASES = [...['h1', 'h2', 'h2-spdy', 'h2e', 'h3'].map(protocol => ({ protocol, moved: false })), { protocol: 'h2', moved: true }, { protocol: 'h3', moved: true }]
for (const { protocol, moved } of CASES) {
  describe(`server/replay/serve.js: the three-origin site replayed over ${protocol}${moved ? ', its ports moved' : ''}`, function () {
    this.timeout(60000)
    const archive = archiveFromHar(h2benchHar(), { file: 'fixture.har' })
    const stored = url => archive.entries.find(e => e.url === url).response.body
    const fetch = (origin, path) => FETCH[protocol](replay, origin, path)
    let replay = null

    if (EDGE.includes(protocol)) useH3Client()
    before(async function () {
      if (EDGE.includes(protocol) && edgeUnavailableReason()) this.skip()
      replay = await startReplay(archive, { protocol, ports: await portsHere(moved) })
    })
    after(() => replay && replay.close())

    it('plans a.example and b.example on one address, c.example on another; each origin on its port, the protocol asked for', () => {
      const at = Object.fromEntries(replay.origins.map(o => [o.origin, o.address]))
      assert.equal(at[A], at[B])
      assert.notEqual(at[A], at[C])
      assert.ok(!Object.values(at).includes('127.0.0.1'))
      if (mayBuildHere() && !moved) assert.deepEqual(replay.origins.map(o => o.port), [443, 443, 8443])
      else assert.ok(replay.origins.every(o => o.port >= 1024 && o.port !== 8443))
      assert.ok(replay.origins.every(o => o.protocol === ALPN[protocol]))
      assert.match(replay.hostResolverRules, /MAP a\.example(:443)? 127\.0\.1\.1/)
      assert.equal(replay.spki.length, 2)
    })

    it('the page: its recorded bytes compressed again with gzip, its headers, after its recorded server time', async () => {
      const res = await fetch(A, '/')
      assert.equal(res.alpn, ALPN[protocol])
      assert.equal(Number(res.status), 200)
      assert.equal(res.headers['content-encoding'], 'gzip')
      assert.equal(res.headers['content-type'], 'text/html')
      assert.equal(res.headers.vary, 'accept-encoding')
      assert.deepEqual(res.body, stored(`${A}/`)) // the bytes served are the archive's
      assert.deepEqual(zlib.gunzipSync(res.body), BODIES[`${A}/`]) // which decode to the recorded page
      assert.equal(Number(res.headers['content-length']), res.body.length)
      // The server waited the recorded 150 ms before answering (the timer's 1 ms granularity allowed for).
      assert.ok(res.ms >= SERVER_TIME[`${A}/`] - 1, `answered after ${res.ms} ms`)
      if (!EDGE.includes(protocol)) assert.equal(res.headers.date, undefined) // none was recorded
    })

    it('a brotli script and a binary image (other origin, same address) byte for byte; the recorded Alt-Svc dropped', async () => {
      const js = await fetch(A, '/app.js?v=1')
      assert.equal(js.headers['content-encoding'], 'br')
      assert.deepEqual(zlib.brotliDecompressSync(js.body), BODIES[`${A}/app.js?v=1`])
      const png = await fetch(B, '/logo.png')
      assert.equal(png.headers['content-type'], 'image/png')
      assert.equal(png.headers.etag, '"png1"')
      assert.deepEqual(png.body, PNG)
      assert.ok(png.ms >= SERVER_TIME[`${B}/logo.png`] - 1, `answered after ${png.ms} ms`)
      // h3: Caddy announces its own h3 for the port it serves; never the recorded value for another port. h2e: the
      // same Caddy announces it over TCP (the browser, kept off QUIC, stays on HTTP/2).
      if (protocol === 'h2e') assert.match(png.headers['alt-svc'], new RegExp(`^h3=":${target(replay, B).port}"`))
      else if (protocol !== 'h3' || png.headers['alt-svc'] === undefined) assert.equal(png.headers['alt-svc'], undefined)
      else assert.match(png.headers['alt-svc'], new RegExp(`^h3=":${target(replay, B).port}"`))
    })

    it('c.example:8443: both Set-Cookie kept, hop-by-hop headers gone, a length instead of chunks', async () => {
      const res = await fetch(C, '/data.json')
      assert.deepEqual(res.body, BODIES[`${C}/data.json`])
      const cookies = res.headers['set-cookie']
      assert.deepEqual(Array.isArray(cookies) ? cookies : String(cookies).split(', '), ['a=1; Secure', 'b=2; Secure'])
      assert.equal(res.headers['x-kept'], 'yes')
      for (const gone of ['keep-alive', 'x-hop', 'transfer-encoding']) assert.equal(res.headers[gone], undefined, gone)
      assert.equal(Number(res.headers['content-length']), BODIES[`${C}/data.json`].length)
    })

    it('every response carries the recorded headers and nothing more but its length (and what the protocol\'s server must add)', async () => {
      for (const [origin, path] of [[A, '/'], [B, '/logo.png'], [C, '/data.json'], [A, '/weird']]) {
        const res = await fetch(origin, path)
        const recorded = new Set(archive.entries.find(e => e.url === origin + path).response.headers.map(([n]) => n.toLowerCase()))
        const served = Object.keys(res.headers).filter(n => !n.startsWith(':') && !SERVER_ADDS[protocol].includes(n))
        assert.deepEqual(served.sort(), [...recorded, 'content-length'].sort(), `${origin}${path}`)
        for (const [name, value] of archive.entries.find(e => e.url === origin + path).response.headers) {
          if (name !== 'set-cookie') assert.equal(res.headers[name.toLowerCase()], value, `${origin}${path} ${name}`)
        }
      }
    })

    it('a body the browser could not give: content.size placeholder bytes; an unknown coding served as identity', async () => {
      const gone = await fetch(C, '/gone')
      assert.deepEqual(gone.body, Buffer.alloc(1234, ' '))
      const weird = await fetch(A, '/weird')
      assert.equal(weird.headers['content-encoding'], undefined)
      assert.deepEqual(weird.body, BODIES[`${A}/weird`])
    })

    it('repeated requests get the recorded responses in order, then the last again; another query the closest recording', async () => {
      assert.equal(String((await fetch(B, '/api?x=1&y=2')).body), '{"call":1}')
      assert.equal(String((await fetch(B, '/api?x=1&y=2')).body), '{"call":2}')
      assert.equal(String((await fetch(B, '/api?x=1&y=2')).body), '{"call":2}')
      assert.equal(String((await fetch(B, '/api?x=9&y=2&z=0')).body), '{"call":"x9"}')
    })

    it('an unrecorded request: 404, counted per origin and named; what was served counted', async () => {
      const before = replay.app.misses().total
      const res = await fetch(A, '/not-recorded?q=1')
      assert.equal(Number(res.status), 404)
      assert.match(String(res.body), /nothing recorded for GET https:\/\/a\.example\/not-recorded\?q=1/)
      await fetch(C, '/nope')
      const misses = replay.app.misses()
      assert.equal(misses.total, before + 2)
      assert.deepEqual(misses.requests.slice(-2), [{ method: 'GET', url: `${A}/not-recorded?q=1` }, { method: 'GET', url: `${C}/nope` }])
      assert.equal(misses.byOrigin[A], 1)
      assert.equal(misses.byOrigin[C], 1)
      const served = replay.app.served()
      assert.ok(served.byOrigin[B] >= 5 && served.byOrigin[A] >= 3 && served.byOrigin[C] >= 2, JSON.stringify(served))
      assert.ok(served.fuzzy >= 1)
    })

    it('a.example\'s leaf, issued by the replay CA, covers b.example too: connections may be coalesced', async () => {
      // Over TCP on the same address and port (for h3: Caddy's TCP side, same leaf as its QUIC side).
      const t = target(replay, A)
      const cert = await new Promise((resolve, reject) => {
        const s = connect(t, replay.caPem, protocol === 'h1' ? 'http/1.1' : 'h2')
        s.once('secureConnect', () => { resolve(s.getPeerX509Certificate()); s.destroy() })
        s.once('error', reject)
      })
      assert.ok(cert.verify(new crypto.X509Certificate(replay.caPem).publicKey))
      assert.equal(cert.checkHost('b.example'), 'b.example')
      assert.equal(cert.checkHost('c.example'), undefined)
      assert.ok(replay.spki.includes(crypto.createHash('sha256').update(cert.publicKey.export({ type: 'spki', format: 'der' })).digest('base64')))
      if (ALPN[protocol] === 'h2') {
        // One HTTP/2 connection to a.example serves b.example's image as well.
        const s = h2Session(replay, A)
        try {
          const png = await s.get('/logo.png', target(replay, B).authority)
          assert.deepEqual(png.body, PNG)
        } finally {
          await s.close()
        }
      }
    })

    if (EDGE.includes(protocol) && !moved) {
      it('the edge: one Caddy per certificate, the Caddy found here (the same binary for h3 and h2e), offering h1, h2 and h3 whichever protocol was asked', async () => {
        const version = caddyVersion()
        assert.ok(version, 'caddy version')
        assert.equal(replay.edge.caddys.length, 2)
        for (const c of replay.edge.caddys) assert.equal(c.version, version)
        // h3's server: the h2e replay answers QUIC too, the same bytes; h3's answers HTTP/2 over TCP alike.
        const [quic, tcp] = await Promise.all([h3Fetch(replay, B, '/logo.png'), h2Fetch(replay, B, '/logo.png')])
        assert.deepEqual([quic.alpn, tcp.alpn], ['h3', 'h2'])
        assert.deepEqual(quic.body, PNG)
        assert.deepEqual(tcp.body, PNG)
      })
    }
  })
}

describe('server/replay/serve.js: certificates made once, served by every replay of the archive', function () {
  this.timeout(60000)
  const archive = archiveFromHar(h2benchHar(), { file: 'fixture.har' })

  it('two replays given replayCertificates show the same CA and leaves; certificates for another number of recorded ones are refused', async () => {
    const certificates = await replayCertificates(archive)
    const seen = []
    for (const protocol of ['h1', 'h2']) {
      const replay = await startReplay(archive, { protocol, ports: await portsHere(true), certificates })
      try {
        const got = await FETCH[protocol](replay, C, '/data.json')
        assert.equal(got.status, 200)
        seen.push({ caPem: replay.caPem, spki: replay.spki, leaf: got.cert.fingerprint256 })
      } finally {
        await replay.close()
      }
    }
    assert.equal(seen[0].caPem, certificates.caPem)
    assert.deepEqual(seen[0], seen[1])
    assert.deepEqual(seen[0].spki, certificates.spki)
    const fewer = { ...certificates, leaves: certificates.leaves.slice(1), spki: certificates.spki.slice(1) }
    await assert.rejects(startReplay(archive, { protocol: 'h2', ports: await portsHere(true), certificates: fewer }), /certificates for 1 recorded certificates given; this archive has 2/)
  })
})

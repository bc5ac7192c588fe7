'use strict'

// Time as the site gave it (server/replay/freshness.js through
// server/replay/app.js), end to end over each protocol's real server:
// test/server/replay/har-fixture.js freshnessHar, a page recorded ten
// minutes ago, replayed over h1 (node:https), h2 (node:http2), h2-spdy, h3
// (Caddy: its HTTP/3 side by h3get; and h2e, its TCP side, where the replay
// has that protocol), and over h2 with the fifo and early-hints variants.
// Each answer's Date is now (within a few seconds of this process's clock),
// Expires − Date and Date − Last-Modified are the recorded differences, Age
// and an invalid Expires are as recorded; a response recorded without a Date
// gets none (but from Caddy, whose Go server adds its own) and its Expires
// moves from its start. Conditional GETs get a 304 without a body, with the
// headers RFC 9110 §15.4.5 names, where the recorded ETag matches (weakly)
// or, without If-None-Match, where the representation was not modified
// since If-Modified-Since (also a second later, when the Last-Modified the
// replay gives has moved on with the Date); else the whole response. The
// recorded 250 ms server time is waited before the 304 as before the 200 (a
// lower bound only). time 'recorded' serves the dates as recorded. The
// origin listens on a free port >= 1024 (the replay maps it back), so this
// runs in or out of test/run.js's namespace.
const assert = require('node:assert/strict')
const https = require('node:https')
const http2 = require('node:http2')
const tls = require('node:tls')
const { performance } = require('node:perf_hooks')
const { archiveFromHar } = require('../../../../server/replay/archive')
const { startReplay, PROTOCOLS } = require('../../../../server/replay/serve')
const { parseHttpDate, formatHttpDate } = require('../../../../server/replay/freshness')
const { freePort, edgeUnavailableReason } = require('../../../../server/edge/caddy')
const { h3get, useH3Client } = require('../../../support/clients')
const { freshnessHar, FRESH, FRESH_ORIGIN, freshBody } = require('../har-fixture')

const BROWSER = { 'accept-encoding': 'gzip, deflate, br, zstd' }
const CLOCK_SLACK_MS = 5000 // "now": the replay's Date against this process's clock, read around the request
const sleep = ms => new Promise(resolve => setTimeout(resolve, ms))
const lookupAt = address => (name, options, callback) => options && options.all ? callback(null, [{ address, family: 4 }]) : callback(null, address, 4)

function target (replay) {
  const o = replay.origins.find(x => x.origin === FRESH_ORIGIN)
  return { host: o.host, address: o.address, port: o.port, authority: `${o.host}:${o.port}` }
}

// → { status, headers, body, ms (to the response head), before, after (Date.now() around the request) }
function h1Fetch (replay, path, { method = 'GET', headers = {} } = {}) {
  const t = target(replay)
  return new Promise((resolve, reject) => {
    const before = Date.now()
    const start = performance.now()
    const req = https.request({
      method, host: t.host, port: t.port, path, agent: false, headers: { host: t.authority, ...BROWSER, ...headers }, servername: t.host, ca: replay.caPem, ALPNProtocols: ['http/1.1'], lookup: lookupAt(t.address)
    }, res => {
      const ms = performance.now() - start
      const chunks = []
      res.on('data', c => chunks.push(c))
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks), ms, before, after: Date.now() }))
    })
    req.on('error', reject)
    req.end()
  })
}

function h2Fetch (replay, path, { method = 'GET', headers = {} } = {}) {
  const t = target(replay)
  const session = http2.connect(`https://${t.authority}`, { createConnection: () => tls.connect({ host: t.address, port: t.port, servername: t.host, ca: replay.caPem, ALPNProtocols: ['h2'] }) })
  session.on('error', () => {})
  return new Promise((resolve, reject) => {
    const before = Date.now()
    const start = performance.now()
    const req = session.request({ ':method': method, ':path': path, ':authority': t.authority, ...BROWSER, ...headers }, { endStream: true })
    let head = null
    let ms = null
    const chunks = []
    req.on('response', h => { head = h; ms = performance.now() - start })
    req.on('data', c => chunks.push(c))
    req.on('end', () => {
      session.close()
      if (!head) return reject(new Error(`${path}: no response`))
      resolve({ status: Number(head[':status']), headers: head, body: Buffer.concat(chunks), ms, before, after: Date.now() })
    })
    req.on('error', err => { session.close(); reject(err) })
  })
}

// GET over HTTP/3 (h3get: no HEAD), to the plan's address, Host the recorded name.
async function h3Fetch (replay, path, { method = 'GET', headers = {} } = {}) {
  assert.equal(method, 'GET')
  const t = target(replay)
  const before = Date.now()
  const r = await h3get(`https://${t.address}:${t.port}${path}`, ['--insecure'], { headers: { Host: t.authority, ...BROWSER, ...headers } })
  if (r.error) throw new Error(`h3get ${path}: ${r.error}`)
  return { status: r.status, headers: r.headers, body: Buffer.from(r.body, 'base64'), ms: r.timings.headersMs, before, after: Date.now() }
}

const FETCH = { h1: h1Fetch, h2: h2Fetch, 'h2-spdy': h2Fetch, h2e: h2Fetch, h3: h3Fetch }
const EDGE = ['h2e', 'h3'] // Caddy's: Go's server adds a Date where the response has none
const dateOf = (res, name) => {
  const ms = parseHttpDate(res.headers[name])
  assert.notEqual(ms, null, `${name}: ${JSON.stringify(res.headers[name])}`)
  return ms
}
// The answer's Date is "now": between the second the request went and the one its answer came.
function assertNow (res, what) {
  const date = dateOf(res, 'date')
  assert.ok(date >= Math.floor(res.before / 1000) * 1000 - CLOCK_SLACK_MS && date <= res.after + CLOCK_SLACK_MS,
    `${what}: Date ${res.headers.date}, asked at ${new Date(res.before).toISOString()}`)
}

const CASES = [...['h1', 'h2', 'h2-spdy', 'h3', 'h2e'].filter(p => PROTOCOLS.includes(p)).map(protocol => ({ protocol, variant: 'plain' })),
  { protocol: 'h2', variant: 'fifo' }, { protocol: 'h2', variant: 'early-hints' }]
for (const { protocol, variant } of CASES) {
  describe(`server/replay: time as the site gave it, over ${protocol}${variant === 'plain' ? '' : ` (${variant})`}`, function () {
    this.timeout(60000)
    const har = freshnessHar({ agoMs: 10 * 60 * 1000 })
    const archive = archiveFromHar(har, { file: 'fresh.har' })
    const recorded = (r, name) => {
      const h = archive.entries.find(e => e.path === r.path).response.headers.find(([n]) => n === name)
      return h ? h[1] : undefined
    }
    const fetch = (path, opts) => FETCH[protocol](replay, path, opts)
    let replay = null

    if (EDGE.includes(protocol)) useH3Client()
    before(async function () {
      if (EDGE.includes(protocol) && edgeUnavailableReason()) this.skip()
      const port = await freePort('127.0.1.1')
      replay = await startReplay(archive, { protocol, variant, ports: { [FRESH_ORIGIN]: port } })
    })
    after(() => replay && replay.close())

    it('Date is now; Expires − Date and Date − Last-Modified as recorded; Cache-Control and Age as recorded', async () => {
      const exp = await fetch(FRESH.expires.path)
      assert.equal(exp.status, 200)
      assert.deepEqual(exp.body, freshBody(FRESH.expires))
      assertNow(exp, 'expires.png')
      assert.equal(dateOf(exp, 'expires') - dateOf(exp, 'date'), FRESH.expires.expiresS * 1000)
      assert.ok(parseHttpDate(recorded(FRESH.expires, 'date')) < exp.before - 9 * 60 * 1000) // recorded ten minutes ago
      const heur = await fetch(FRESH.heuristic.path)
      assertNow(heur, 'heuristic.css')
      assert.equal(dateOf(heur, 'date') - dateOf(heur, 'last-modified'), FRESH.heuristic.lastModifiedS * 1000)
      assert.equal(heur.headers['cache-control'], undefined)
      const aged = await fetch(FRESH.aged.path)
      assertNow(aged, 'aged.js')
      assert.equal(aged.headers.age, '100')
      assert.equal(aged.headers['cache-control'], 'max-age=600')
    })

    it('an invalid Expires (0) stays as recorded; a response recorded without a Date gets none, its Expires moved from its start', async () => {
      const expired = await fetch(FRESH.expired.path)
      assert.equal(expired.headers.expires, '0')
      assertNow(expired, 'expired.txt')
      assert.equal(dateOf(expired, 'date') - dateOf(expired, 'last-modified'), FRESH.expired.lastModifiedS * 1000)
      const undated = await fetch(FRESH.undated.path)
      if (EDGE.includes(protocol)) assertNow(undated, 'undated.css (Go\'s Date)')
      else assert.equal(undated.headers.date, undefined)
      const expires = dateOf(undated, 'expires')
      const start = Math.floor(undated.before / 1000) * 1000
      const lifetime = FRESH.undated.expiresS * 1000
      assert.ok(expires >= start + lifetime - CLOCK_SLACK_MS && expires <= undated.after + lifetime + CLOCK_SLACK_MS, undated.headers.expires)
      assert.equal(expires - dateOf(undated, 'last-modified'), (FRESH.undated.expiresS + FRESH.undated.lastModifiedS) * 1000)
    })

    it('If-None-Match matching the ETag: 304, no body, the headers a 304 carries; another ETag: the whole response', async () => {
      const before = replay.app.served()
      const variantBefore = replay.app.variantStats()
      const hit = await fetch(FRESH.etag.path, { headers: { 'if-none-match': '"e1"' } })
      assert.equal(hit.status, 304)
      assert.equal(hit.body.length, 0)
      assert.equal(hit.headers.etag, '"e1"')
      assert.equal(hit.headers['cache-control'], 'no-cache')
      assertNow(hit, 'etag.js 304')
      assert.equal(hit.headers['content-type'], undefined)
      // A list, and a weak tag: weak comparison.
      assert.equal((await fetch(FRESH.etag.path, { headers: { 'if-none-match': '"x", W/"e1"' } })).status, 304)
      const miss = await fetch(FRESH.etag.path, { headers: { 'if-none-match': '"e0"' } })
      assert.equal(miss.status, 200)
      assert.deepEqual(miss.body, freshBody(FRESH.etag))
      const after = replay.app.served()
      assert.equal(after.notModified - before.notModified, 2)
      assert.equal(after.notModifiedBy.etag - before.notModifiedBy.etag, 2)
      assert.equal(after.total - before.total, 3)
      // The variants still do their part: a 103 before each answer, the 304s through the scheduler as the 200.
      const variantAfter = replay.app.variantStats()
      if (variant === 'early-hints') assert.equal(variantAfter.hints.responses - variantBefore.hints.responses, 3)
      if (variant === 'fifo') assert.equal(variantAfter.scheduler.responses - variantBefore.scheduler.responses, 3)
    })

    it('If-Modified-Since: 304 for the Last-Modified given, also a second later when the one given has moved on; 200 for an older date', async () => {
      const first = await fetch(FRESH.lastModified.path)
      assert.equal(first.status, 200)
      const given = first.headers['last-modified']
      await sleep(1100) // the next answer's Date, and so its Last-Modified, a second later
      const next = await fetch(FRESH.lastModified.path)
      assert.ok(dateOf(next, 'last-modified') > parseHttpDate(given), `${next.headers['last-modified']} after ${given}`)
      const before = replay.app.served().notModifiedBy.date
      const hit = await fetch(FRESH.lastModified.path, { headers: { 'if-modified-since': given } })
      assert.equal(hit.status, 304)
      assert.equal(hit.body.length, 0)
      assert.equal(hit.headers['cache-control'], 'no-cache')
      assertNow(hit, 'lm.css 304')
      // No ETag: the 304 keeps Last-Modified (RFC 9110 §15.4.5).
      assert.equal(dateOf(hit, 'date') - dateOf(hit, 'last-modified'), FRESH.lastModified.lastModifiedS * 1000)
      assert.equal(replay.app.served().notModifiedBy.date - before, 1)
      const older = await fetch(FRESH.lastModified.path, { headers: { 'if-modified-since': formatHttpDate(parseHttpDate(given) - 60 * 60 * 1000) } })
      assert.equal(older.status, 200)
      assert.deepEqual(older.body, freshBody(FRESH.lastModified))
      // With If-None-Match, If-Modified-Since is not looked at (lm.css has no ETag: the condition holds, 200).
      assert.equal((await fetch(FRESH.lastModified.path, { headers: { 'if-none-match': '"e1"', 'if-modified-since': given } })).status, 200)
    })

    it('the recorded 250 ms server time is waited before the 200 and before the 304', async () => {
      const full = await fetch(FRESH.slow.path)
      assert.equal(full.status, 200)
      assert.ok(full.ms >= FRESH.slow.serverTimeMs - 1, `200 after ${full.ms} ms`)
      const not = await fetch(FRESH.slow.path, { headers: { 'if-none-match': full.headers.etag } })
      assert.equal(not.status, 304)
      assert.ok(not.ms >= FRESH.slow.serverTimeMs - 1, `304 after ${not.ms} ms`)
      assert.equal(not.headers.etag, 'W/"slow"')
      assert.equal(not.headers['last-modified'], undefined) // with an ETag the 304 has no Last-Modified
    })

    if (protocol !== 'h3') {
      it('HEAD with a matching ETag: 304; a conditional POST is no 304 (nothing was recorded for it: 404)', async () => {
        const head = await fetch(FRESH.etag.path, { method: 'HEAD', headers: { 'if-none-match': '"e1"' } })
        assert.equal(head.status, 304)
        const post = await fetch(FRESH.etag.path, { method: 'POST', headers: { 'if-none-match': '"e1"' } })
        assert.equal(post.status, 404)
      })
    }
  })
}

describe('server/replay: time \'recorded\' serves the dates as recorded (the comparison the slow test makes)', function () {
  this.timeout(60000)
  it('the recorded Date, Expires and Last-Modified; conditional requests still answered 304', async () => {
    const archive = archiveFromHar(freshnessHar({ agoMs: 10 * 60 * 1000 }), { file: 'fresh.har' })
    const replay = await startReplay(archive, { protocol: 'h2', time: 'recorded', ports: { [FRESH_ORIGIN]: await freePort('127.0.1.1') } })
    try {
      const entry = archive.entries.find(e => e.path === FRESH.heuristic.path)
      const res = await h2Fetch(replay, FRESH.heuristic.path)
      for (const name of ['date', 'last-modified']) assert.equal(res.headers[name], entry.response.headers.find(([n]) => n === name)[1])
      assert.equal((await h2Fetch(replay, FRESH.heuristic.path, { headers: { 'if-modified-since': res.headers['last-modified'] } })).status, 304)
    } finally {
      await replay.close()
    }
    await assert.rejects(startReplay(archive, { protocol: 'h2', time: 'frozen', ports: { [FRESH_ORIGIN]: await freePort('127.0.1.1') } }), /time "frozen" is not one of shifted, recorded/)
  })
})

'use strict'

const assert = require('node:assert/strict')
const { useServers } = require('../../support/servers')
const { forEachLane } = require('../../support/lanes')
const { LANES } = require('../../../server/lanes')
const { laneGet, alpnHandshake, noAlpnRequest, h1Get, h2Get, h3get, useH3Client } = require('../../support/clients')
const { payload, MIB } = require('../../../server/payload')

describe('lanes over real TLS', function () {
  useH3Client()
  const servers = useServers()
  const ca = () => servers.tls.cert

  forEachLane(laneDef => {
    const lane = () => servers.lane(laneDef.name)
    const get = path => laneGet(lane(), path, { ca: ca() })

    if (!laneDef.edge) {
      it(`negotiates only ${laneDef.protocol} by ALPN`, async () => {
        assert.deepEqual(await alpnHandshake(lane().url, ['h2', 'http/1.1'], { ca: ca() }), { alpn: laneDef.protocol })
        const other = laneDef.protocol === 'h2' ? 'http/1.1' : 'h2'
        const refused = await alpnHandshake(lane().url, [other], { ca: ca() })
        assert.notEqual(refused.alpn, other, `lane ${laneDef.name} accepted ALPN ${other}`)
      })
    } else if (laneDef.protocol === 'h2') {
      // Unlike h2 and h2n, which refuse anything but h2: the lane's Caddy
      // server has protocols h1 and h2 (server/lanes/h2-caddy.js), so its
      // TLS offers both and a client that offers only http/1.1 is served
      // HTTP/1.1. The page sees and flags that from X-H2bench-Protocol;
      // browsers always offer h2. (Caddy 2.6 refused h2 without h1; 2.11
      // would serve h2 alone, refusing a client that offers only http/1.1.)
      it('negotiates h2 by ALPN over TCP, and http/1.1 with a client that offers only that', async () => {
        assert.deepEqual(await alpnHandshake(lane().url, ['h2', 'http/1.1'], { ca: ca() }), { alpn: 'h2' })
        assert.deepEqual(await alpnHandshake(lane().url, ['h2'], { ca: ca() }), { alpn: 'h2' })
        assert.deepEqual(await alpnHandshake(lane().url, ['http/1.1'], { ca: ca() }), { alpn: 'http/1.1' })
      })

      it('does not answer QUIC: HTTP/2 over TCP only', async () => {
        const r = await h3get(lane().url, ['--alpn', 'h3'], { ca: ca(), timeoutMs: 1500 })
        assert.ok(r.error, `lane ${laneDef.name} completed a QUIC handshake: ${JSON.stringify(r)}`)
      })
    } else {
      // HTTP/3 negotiates h3 in QUIC's own TLS handshake (RFC 9114 §3.1);
      // a QUIC client offering no ALPN the server knows is refused with
      // CRYPTO_ERROR 0x178, no_application_protocol (RFC 9001 §8.1).
      it('negotiates h3 by ALPN over QUIC and refuses a QUIC client offering anything else', async () => {
        assert.deepEqual(await h3get(lane().url, ['--alpn', 'h3'], { ca: ca() }), { alpn: 'h3' })
        const refused = await h3get(lane().url, ['--alpn', 'h2,http/1.1,hq-interop'], { ca: ca() })
        assert.match(refused.error || '', /0x178|no application protocol/, JSON.stringify(refused))
      })

      // The same port on TCP answers clients without QUIC (and tells them of
      // h3 in Alt-Svc): a fallback the page flags, never counted as h3.
      it('answers h2 and http/1.1 over TCP on the same port as a fallback', async () => {
        assert.deepEqual(await alpnHandshake(lane().url, ['h2', 'http/1.1'], { ca: ca() }), { alpn: 'h2' })
        assert.deepEqual(await alpnHandshake(lane().url, ['http/1.1'], { ca: ca() }), { alpn: 'http/1.1' })
        const port = new URL(lane().url).port
        for (const res of [await h2Get(`${lane().url}/lane`, { ca: ca() }), await h1Get(`${lane().url}/lane`, { ca: ca() })]) {
          assert.equal(res.status, 200)
          assert.equal(res.headers['x-h2bench-protocol'], res.alpn)
          assert.equal(res.headers['alt-svc'], `h3=":${port}"; ma=2592000`)
        }
      })
    }

    // h1: HTTP/1.1 is its protocol. h2, h2n: close, so they never measure
    // HTTP/1.1 while claiming h2. The edge lanes' TCP ports (Go's net/http
    // with h1 enabled) serve such a client HTTP/1.1, and the app reports
    // that protocol, so it is never counted as h2 or h3.
    const closesWithoutAlpn = laneDef.protocol === 'h2' && !laneDef.edge
    it(closesWithoutAlpn ? 'closes a client that negotiated no ALPN (no silent HTTP/1.1)' : 'serves a client without ALPN HTTP/1.1, and says so', async () => {
      const reply = await noAlpnRequest(lane().url, { ca: ca() })
      if (closesWithoutAlpn) return assert.equal(reply, '')
      assert.match(reply, /^HTTP\/1\.1 200/)
      assert.match(reply, /\r\nx-h2bench-protocol: http\/1\.1\r\n/i)
    })

    for (const size of [0, 1, 1000, 100 * 1024, MIB + 7, 16 * MIB]) {
      it(`serves exactly ${size} bytes, the same bytes on every lane`, async () => {
        const res = await get(`/option?size=${size}`)
        assert.equal(res.status, 200)
        assert.equal(res.alpn, laneDef.protocol)
        if (laneDef.protocol === 'h3') assert.equal(res.proto, 'HTTP/3.0')
        assert.equal(res.body.length, size)
        assert.equal(Number(res.headers['content-length']), size)
        assert.ok(res.body.equals(payload(size)), 'body differs from the payload block')
      })
    }

    it('accepts units: 100kb and 0.1mb', async () => {
      assert.equal((await get('/option?size=100kb')).body.length, 102400)
      assert.equal((await get('/option?size=0.1mb')).body.length, 104858)
    })

    it('sends every promised header', async () => {
      const res = await get('/option?size=10&delay=5')
      const h = res.headers
      assert.equal(h['content-type'], 'text/plain; charset=utf-8')
      assert.equal(h['cache-control'], 'no-store')
      assert.equal(h['access-control-allow-origin'], '*')
      assert.equal(h['timing-allow-origin'], '*')
      assert.match(h['access-control-expose-headers'], /Server-Timing/)
      assert.match(h['server-timing'], /^delay;dur=\d+(\.\d)?;desc="server delay \(asked 5 ms\)"$/)
      assert.equal(h['x-h2bench-lane'], laneDef.name)
      assert.equal(h['x-h2bench-protocol'], laneDef.protocol)
      // What the edge adds: `Via: 1.1 Caddy` (Caddy 2.7 and later name
      // themselves there, the hop to the app being HTTP/1.1, rather than in
      // Server, which 2.6 set), and on QUIC no Alt-Svc (the client is
      // already there). The app sends no Server header.
      assert.equal(h.via, laneDef.edge ? '1.1 Caddy' : undefined)
      assert.equal(h.server, undefined)
      assert.equal(h['alt-svc'], undefined)
    })

    it('honours the delay and reports the delay it waited', async () => {
      const t0 = process.hrtime.bigint()
      const res = await get('/option?size=10&delay=150')
      const ms = Number(process.hrtime.bigint() - t0) / 1e6
      assert.ok(ms >= 150, `answered after ${ms} ms`)
      const waited = Number(/dur=([\d.]+)/.exec(res.headers['server-timing'])[1])
      assert.ok(waited >= 149 && waited < ms + 1, `server-timing says ${waited} ms`)
    })

    const bad = [
      ['size=-1', 'size'], ['size=abc', 'size'], ['size=1e12', 'size'], ['size=10gb', 'size'],
      ['size=67108865', 'size'], ['delay=-5', 'delay'], ['delay=99999999', 'delay'],
      ['size=1&size=2', 'size'], ['delay=1&delay=2', 'delay']
    ]
    for (const [query, param] of bad) {
      it(`answers ${query} with a 400 naming ${param} and its range`, async () => {
        const res = await get(`/option?${query}`)
        assert.equal(res.status, 400)
        assert.match(res.headers['content-type'], /application\/json/)
        const body = JSON.parse(res.body)
        assert.equal(body.param, param)
        assert.match(body.error, param === 'size' ? /0…67108864 bytes|more than once/ : /0…60000 ms|more than once/)
        assert.equal(res.headers['access-control-allow-origin'], '*')
      })
    }

    it('answers unknown routes with a JSON 404', async () => {
      const res = await get('/nope')
      assert.equal(res.status, 404)
      assert.match(JSON.parse(res.body).error, /no route GET \/nope/)
    })

    it('still serves after all that', async () => {
      const res = await get('/option?size=12345')
      assert.equal(res.body.length, 12345)
    })
  })
})

describe('every lane answers alike', function () {
  useH3Client()
  const servers = useServers()
  // Per-connection headers HTTP/2 does not have, and values that differ by design.
  const HOP = new Set(['date', 'connection', 'keep-alive', ':status'])
  const VARYING = new Set(['x-h2bench-lane', 'x-h2bench-protocol', 'server-timing'])

  // Every lane over its own protocol, and the h3 lane's TCP fallback too
  // (h2 and HTTP/1.1 on the same port), since clients without QUIC get those.
  function answersOf (path) {
    const ca = servers.tls.cert
    const h3 = servers.lane('h3')
    return Promise.all([
      ...servers.running.lanes.map(lane => laneGet(lane, path, { ca }).then(res => ({ lane, via: lane.protocol, res }))),
      ...(h3 ? [h2Get(h3.url + path, { ca }).then(res => ({ lane: h3, via: 'h2 over TCP', res })),
        h1Get(h3.url + path, { ca }).then(res => ({ lane: h3, via: 'http/1.1 over TCP', res }))] : [])
    ])
  }

  // The only headers an edge lane may add: `Via: 1.1 Caddy`, and Alt-Svc
  // advertising h3 on this port on the h3 lane's TCP answers. Each is checked
  // and then removed; anything else an edge adds or drops fails the test.
  function withoutEdgeHeaders ({ lane, via, res }) {
    const headers = { ...res.headers }
    const laneDef = LANES.find(l => l.name === lane.name)
    const where = `lane ${lane.name} via ${via}`
    if (laneDef.edge) {
      assert.equal(headers.via, '1.1 Caddy', where)
      delete headers.via
    }
    if (lane.protocol === 'h3' && via !== 'h3') {
      assert.equal(headers['alt-svc'], `h3=":${new URL(lane.url).port}"; ma=2592000`, where)
      delete headers['alt-svc']
    }
    return headers
  }

  for (const path of ['/option?size=4321&delay=1', '/option?size=-1', '/option?delay=99999999', '/push?assets=2&size=10', '/asset/1.js?size=99',
    '/push?assets=1&mode=pull', '/push?assets=0', '/push?assets=1&delay=x', '/push?assets=1&tag=a%20b', '/asset/0.js?delay=x', '/asset/0.js?size=-1', '/nope']) {
    it(`GET ${path}: same status, headers and bytes on every lane`, async () => {
      const answers = await answersOf(path)
      const page = path.startsWith('/push') // names its lane and push outcome
      const shape = answer => ({
        status: Number(answer.res.status),
        headers: Object.fromEntries(Object.entries(withoutEdgeHeaders(answer))
          .filter(([k]) => !HOP.has(k) && !k.startsWith(':'))
          .map(([k, v]) => [k, VARYING.has(k) || k === 'x-h2bench-push' || (page && k === 'content-length') ? typeof v : v])
          .sort(([a], [b]) => a.localeCompare(b))),
        body: page ? answer.res.body.toString().replace(/lane \w+|\(\w+\)|promised=\d+|refused-by-client|unsupported-by-lane/g, '') : answer.res.body.toString('base64')
      })
      const [first, ...rest] = answers.map(shape)
      rest.forEach((other, i) => assert.deepEqual(other, first, `lane ${answers[i + 1].lane.name} via ${answers[i + 1].via} differs from lane ${answers[0].lane.name}`))
    })
  }
})

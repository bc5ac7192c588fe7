'use strict'

const assert = require('node:assert/strict')
const { useServers } = require('../support/servers')
const { forEachLane } = require('../support/lanes')
const { laneGet, alpnHandshake, noAlpnRequest } = require('../support/clients')
const { payload, MIB } = require('../../server/payload')

describe('lanes over real TLS', function () {
  const servers = useServers()
  const ca = () => servers.tls.cert

  forEachLane(laneDef => {
    const lane = () => servers.lane(laneDef.name)
    const get = path => laneGet(lane(), path, { ca: ca() })

    it(`negotiates only ${laneDef.protocol} by ALPN`, async () => {
      assert.deepEqual(await alpnHandshake(lane().url, ['h2', 'http/1.1'], { ca: ca() }), { alpn: laneDef.protocol })
      const other = laneDef.protocol === 'h2' ? 'http/1.1' : 'h2'
      const refused = await alpnHandshake(lane().url, [other], { ca: ca() })
      assert.notEqual(refused.alpn, other, `lane ${laneDef.name} accepted ALPN ${other}`)
    })

    it(laneDef.protocol === 'h2' ? 'closes a client that negotiated no ALPN (no silent HTTP/1.1)' : 'serves a client without ALPN', async () => {
      const reply = await noAlpnRequest(lane().url, { ca: ca() })
      if (laneDef.protocol === 'h2') assert.equal(reply, '')
      else assert.match(reply, /^HTTP\/1\.1 200/)
    })

    for (const size of [0, 1, 1000, 100 * 1024, MIB + 7, 16 * MIB]) {
      it(`serves exactly ${size} bytes, the same bytes on every lane`, async () => {
        const res = await get(`/option?size=${size}`)
        assert.equal(res.status, 200)
        assert.equal(res.alpn, laneDef.protocol)
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
  const servers = useServers()
  // Per-connection headers HTTP/2 does not have, and values that differ by design.
  const HOP = new Set(['date', 'connection', 'keep-alive', ':status'])
  const VARYING = new Set(['x-h2bench-lane', 'x-h2bench-protocol', 'server-timing'])

  for (const path of ['/option?size=4321&delay=1', '/option?size=-1', '/option?delay=99999999', '/push?assets=2&size=10', '/asset/1.js?size=99',
    '/push?assets=1&mode=pull', '/push?assets=0', '/push?assets=1&delay=x', '/push?assets=1&tag=a%20b', '/asset/0.js?delay=x', '/asset/0.js?size=-1', '/nope']) {
    it(`GET ${path}: same status, headers and bytes on every lane`, async () => {
      const answers = await Promise.all(servers.running.lanes.map(lane => laneGet(lane, path, { ca: servers.tls.cert })))
      const page = path.startsWith('/push') // names its lane and push outcome
      const shape = res => ({
        status: Number(res.status),
        headers: Object.fromEntries(Object.entries(res.headers)
          .filter(([k]) => !HOP.has(k) && !k.startsWith(':'))
          .map(([k, v]) => [k, VARYING.has(k) || k === 'x-h2bench-push' || (page && k === 'content-length') ? typeof v : v])
          .sort(([a], [b]) => a.localeCompare(b))),
        body: page ? res.body.toString().replace(/lane \w+|\(\w+\)|promised=\d+|refused-by-client|unsupported-by-lane/g, '') : res.body.toString('base64')
      })
      const [first, ...rest] = answers.map(shape)
      for (const other of rest) assert.deepEqual(other, first)
    })
  }
})

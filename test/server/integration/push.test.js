'use strict'

const assert = require('node:assert/strict')
const { useServers } = require('../../support/servers')
const { h2Session, h2Get, h1Get, laneGet, useH3Client } = require('../../support/clients')
const { assetBody } = require('../../../server/routes/push')
const { payloadBlock } = require('../../../server/payload')
const { forEachLane } = require('../../support/lanes')
const { LANES } = require('../../../server/lanes')

// The h2 lanes that push. h2e (Caddy) speaks HTTP/2 but never pushes
// (pushSupport 'unsupported', server/lanes/edge.js), and h3 has no push a
// client would accept; the tests below that go over every lane check what
// those lanes say instead.
const PUSH_LANES = LANES.filter(l => l.protocol === 'h2' && !l.edge)

describe('pushed-asset route', function () {
  useH3Client() // the tests over every lane reach the h3 lane over HTTP/3
  const servers = useServers()
  const ca = () => servers.tls.cert
  const stats = async lane => JSON.parse((await h2Get(`${lane.url}/push/stats`, { ca: ca() })).body)

  forEachLane(laneDef => {
    const lane = () => servers.lane(laneDef.name)

    it('pushes every asset with the page when the client allows push', async () => {
      const s = h2Session(lane().url, { ca: ca(), enablePush: true })
      try {
        const res = await s.get('/push?assets=3&size=5000')
        assert.equal(res.status, 200)
        assert.equal(res.headers['x-h2bench-push'], 'promised=3')
        const html = res.body.toString()
        for (let i = 0; i < 3; i++) assert.ok(html.includes(`/asset/${i}.js?size=5000`))
        const pushed = await Promise.all(s.pushes.map(p => p.done))
        assert.deepEqual(pushed.map(p => p.headers[':path']).sort(),
          ['/asset/0.js?size=5000', '/asset/1.js?size=5000', '/asset/2.js?size=5000'])
        for (const p of pushed) {
          assert.equal(p.body.length, 5000)
          assert.ok(p.body.equals(assetBody(5000)))
          assert.equal(p.responseHeaders['content-type'], 'application/javascript; charset=utf-8')
        }
        // A pushed asset carries the headers the same asset has when requested
        // (else the browser would hide its Resource Timing, say).
        const requested = await s.get('/asset/0.js?size=5000')
        const comparable = h => Object.fromEntries(Object.entries(h).filter(([k]) => !k.startsWith(':') && k !== 'date'))
        assert.deepEqual(comparable(pushed[0].responseHeaders), comparable(requested.headers))
        assert.equal(pushed[0].responseHeaders['timing-allow-origin'], '*')
        assert.equal(pushed[0].responseHeaders['x-h2bench-lane'], laneDef.name)
      } finally {
        await s.close()
      }
    })

    it('records a refusal when the client disables push, and promises nothing', async () => {
      const before = await stats(lane())
      const s = h2Session(lane().url, { ca: ca(), enablePush: false })
      try {
        const res = await s.get('/push?assets=5&size=100')
        assert.equal(res.headers['x-h2bench-push'], 'refused-by-client')
        assert.equal(s.pushes.length, 0)
        const asset = await s.get('/asset/4.js?size=100')
        assert.equal(asset.body.length, 100)
      } finally {
        await s.close()
      }
      const after = await stats(lane())
      assert.equal(after.refusedPages, before.refusedPages + 1)
      assert.equal(after.promised, before.promised)
    })

    it('survives a client that resets every pushed stream, and keeps serving', async () => {
      const s = h2Session(lane().url, { ca: ca(), enablePush: true })
      s.session.removeAllListeners('stream')
      s.session.on('stream', stream => stream.close(0x8)) // CANCEL each push
      try {
        const res = await s.get('/push?assets=10&size=200kb')
        assert.equal(res.headers['x-h2bench-push'], 'promised=10')
      } finally {
        await s.close()
      }
      const after = await stats(lane())
      assert.equal(after.lane, laneDef.name)
      assert.ok(after.promised >= 10)
      const again = h2Session(lane().url, { ca: ca(), enablePush: true })
      try {
        const res = await again.get('/push?assets=1&size=10')
        assert.equal(res.status, 200)
        await Promise.all(again.pushes.map(p => p.done))
      } finally {
        await again.close()
      }
    })

    it('survives a client that disappears right after asking for pushes', async () => {
      const s = h2Session(lane().url, { ca: ca(), enablePush: true })
      const req = s.session.request({ ':path': '/push?assets=50&size=1mb' })
      req.on('error', () => {})
      await new Promise(resolve => req.once('response', resolve))
      s.session.destroy()
      const res = await h2Get(`${lane().url}/option?size=10`, { ca: ca() })
      assert.equal(res.body.length, 10)
    })
  }, PUSH_LANES)

  describe('lane h1 (https)', () => {
    it('says it cannot push and serves the page and assets by request', async () => {
      const lane = servers.lane('h1')
      const res = await h1Get(`${lane.url}/push?assets=2&size=64`, { ca: ca() })
      assert.equal(res.headers['x-h2bench-push'], 'unsupported-by-lane')
      const asset = await h1Get(`${lane.url}/asset/1.js?size=64`, { ca: ca() })
      assert.equal(asset.body.length, 64)
      assert.equal(asset.headers['content-type'], 'application/javascript; charset=utf-8')
    })
  })

  describe('edge lanes h2e and h3 (Caddy)', () => {
    it('say they cannot push, even to an HTTP/2 client that allows it, and serve the assets by request', async () => {
      const s = h2Session(servers.lane('h2e').url, { ca: ca(), enablePush: true })
      try {
        const res = await s.get('/push?assets=2&size=64')
        assert.equal(res.headers['x-h2bench-push'], 'unsupported-by-lane')
        assert.equal(s.pushes.length, 0)
      } finally {
        await s.close()
      }
      const h3 = await laneGet(servers.lane('h3'), '/push?assets=2&size=64', { ca: ca() })
      assert.equal(h3.alpn, 'h3')
      assert.equal(h3.headers['x-h2bench-push'], 'unsupported-by-lane')
      const asset = await laneGet(servers.lane('h3'), '/asset/1.js?size=64', { ca: ca() })
      assert.ok(asset.body.equals(assetBody(64)))
    })
  })

  describe('modes: push, hints (103 Early Hints), none', () => {
    it('mode=hints on h2n sends 103 with a preload Link per asset, then the page', async () => {
      const s = h2Session(servers.lane('h2n').url, { ca: ca(), enablePush: true })
      try {
        const req = s.session.request({ ':path': '/push?assets=3&size=100&mode=hints' })
        const informational = []
        req.on('headers', h => informational.push(h))
        const final = await new Promise((resolve, reject) => { req.on('response', resolve); req.on('error', reject) })
        req.resume()
        await new Promise(resolve => req.on('end', resolve))
        assert.equal(informational.length, 1)
        assert.equal(informational[0][':status'], 103)
        assert.equal(informational[0].link,
          '</asset/0.js?size=100>; rel=preload; as=script, </asset/1.js?size=100>; rel=preload; as=script, </asset/2.js?size=100>; rel=preload; as=script')
        assert.equal(final[':status'], 200)
        assert.equal(final['x-h2bench-push'], 'hints=3')
        assert.equal(s.pushes.length, 0)
      } finally {
        await s.close()
      }
    })

    for (const name of ['h1', 'h2']) {
      it(`mode=hints on ${name} is a 400 that says why`, async () => {
        const res = await laneGet(servers.lane(name), '/push?assets=1&mode=hints', { ca: ca() })
        assert.equal(res.status, 400)
        const body = JSON.parse(res.body)
        assert.equal(body.param, 'mode')
        assert.match(body.error, name === 'h1' ? /browsers ignore them over HTTP\/1\.1/ : /spdy has no HTTP\/2 103/)
      })
    }

    it('/push/stats names the modes a lane cannot do, with the 400 message /push would give', async () => {
      for (const lane of servers.running.lanes) {
        const body = JSON.parse((await laneGet(lane, '/push/stats', { ca: ca() })).body)
        if (lane.name === 'h2n') {
          assert.deepEqual(body.unavailable, {})
        } else {
          const res = await laneGet(lane, '/push?assets=1&mode=hints', { ca: ca() })
          assert.deepEqual(body.unavailable, { hints: JSON.parse(res.body).error })
        }
      }
    })

    it('tag=T makes the asset URLs unique to one load, and those assets cacheable (Chrome preloads hints through its cache)', async () => {
      const s = h2Session(servers.lane('h2n').url, { ca: ca() })
      try {
        const req = s.session.request({ ':path': '/push?assets=2&size=10&mode=hints&tag=abc-1' })
        const informational = []
        req.on('headers', h => informational.push(h))
        req.resume()
        await new Promise((resolve, reject) => { req.on('end', resolve); req.on('error', reject) })
        assert.equal(informational[0].link,
          '</asset/0.js?size=10&tag=abc-1>; rel=preload; as=script, </asset/1.js?size=10&tag=abc-1>; rel=preload; as=script')
        const tagged = await s.get('/asset/1.js?size=10&tag=abc-1')
        assert.equal(tagged.headers['cache-control'], 'private, max-age=600')
        assert.equal(tagged.body.length, 10)
        const untagged = await s.get('/asset/1.js?size=10')
        assert.equal(untagged.headers['cache-control'], 'no-store')
      } finally {
        await s.close()
      }
    })

    it('mode=none promises nothing even to a client that accepts push', async () => {
      const s = h2Session(servers.lane('h2').url, { ca: ca(), enablePush: true })
      try {
        const res = await s.get('/push?assets=2&size=10&mode=none')
        assert.equal(res.headers['x-h2bench-push'], 'none')
        assert.equal(s.pushes.length, 0)
      } finally {
        await s.close()
      }
    })
  })

  describe('delay=D', () => {
    it('waits D ms before the page and each requested asset; pushed assets come with the page', async () => {
      const s = h2Session(servers.lane('h2n').url, { ca: ca(), enablePush: true })
      try {
        await s.get('/lane') // connection set up before timing
        let t0 = performance.now()
        const res = await s.get('/push?assets=2&size=10&delay=150')
        const pageMs = performance.now() - t0
        assert.ok(pageMs >= 145, `page after ${pageMs} ms`)
        assert.equal(res.headers['x-h2bench-push'], 'promised=2')
        assert.ok(res.body.toString().includes('/asset/1.js?size=10&amp;delay=150') ||
          res.body.toString().includes('/asset/1.js?size=10&delay=150'))
        const pushed = await Promise.all(s.pushes.map(p => p.done))
        assert.deepEqual(pushed.map(p => p.headers[':path']).sort(), ['/asset/0.js?size=10&delay=150', '/asset/1.js?size=10&delay=150'])
        t0 = performance.now()
        const asset = await s.get('/asset/0.js?size=10&delay=150')
        const assetMs = performance.now() - t0
        assert.equal(asset.body.length, 10)
        assert.ok(assetMs >= 145, `asset after ${assetMs} ms`)
      } finally {
        await s.close()
      }
    })

    it('on every lane, the asset URLs carry the delay and an asset request waits it', async () => {
      for (const lane of servers.running.lanes) {
        const res = await laneGet(lane, '/push?assets=1&size=10&mode=none&delay=60', { ca: ca() })
        assert.equal(res.status, 200, lane.name)
        assert.match(res.body.toString(), /\/asset\/0\.js\?size=10&(amp;)?delay=60/, lane.name)
        const t0 = performance.now()
        const asset = await laneGet(lane, '/asset/0.js?size=10&delay=60', { ca: ca() })
        assert.equal(asset.body.length, 10)
        assert.ok(performance.now() - t0 >= 55, lane.name)
      }
    })

    it('absent or 0: no delay and no delay in the asset URLs', async () => {
      const res = await h2Get(`${servers.lane('h2').url}/push?assets=1&size=10&mode=none&delay=0`, { ca: ca() })
      assert.ok(!res.body.toString().includes('delay'))
    })
  })

  describe('bad input', () => {
    for (const [query, param] of [['', 'assets'], ['assets=0', 'assets'], ['assets=101', 'assets'],
      ['assets=x', 'assets'], ['assets=2&size=-1', 'size'], ['assets=1&assets=2', 'assets'], ['assets=1&mode=pull', 'mode'],
      ['assets=1&tag=a%20b', 'tag'], ['assets=1&tag=' + 'x'.repeat(65), 'tag'], ['assets=1&delay=x', 'delay'],
      ['assets=1&delay=60001', 'delay'], ['assets=1&delay=1&delay=2', 'delay']]) {
      it(`/push?${query} is a 400 naming ${param}`, async () => {
        const res = await h1Get(`${servers.lane('h1').url}/push?${query}`, { ca: ca() })
        assert.equal(res.status, 400)
        assert.equal(JSON.parse(res.body).param, param)
      })
    }
    for (const query of ['delay=x', 'delay=60001', 'size=10&delay=-5']) {
      it(`/asset/0.js?${query} is a 400 naming delay`, async () => {
        const res = await h1Get(`${servers.lane('h1').url}/asset/0.js?${query}`, { ca: ca() })
        assert.equal(res.status, 400)
        assert.equal(JSON.parse(res.body).param, 'delay')
      })
    }
  })
})

describe('asset bodies', () => {
  it('are exactly the size asked, valid JavaScript', () => {
    for (const size of [0, 1, 2, 3, 1000, 1 << 20]) {
      const body = assetBody(size)
      assert.equal(body.length, size)
      assert.doesNotThrow(() => new Function(body.toString()))
    }
  })
  it('are views of the shared payload block, not copies', () => {
    assert.equal(assetBody(290 * 1024).buffer, payloadBlock().buffer)
  })
})

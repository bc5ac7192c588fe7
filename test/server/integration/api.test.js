'use strict'

const assert = require('node:assert/strict')
const { performance } = require('node:perf_hooks')
const { useServers } = require('../../support/servers')
const { h1Get, h2Get, h3Get, h2Session, useH3Client } = require('../../support/clients')
const { forEachLane } = require('../../support/lanes')
const { LANES } = require('../../../server/lanes')
const { item, DEFAULT_ITEM_BYTES } = require('../../../server/routes/api')

const PUSH_LANES = LANES.filter(l => l.protocol === 'h2' && !l.edge)

// Seed 001's REST API (server/routes/api.js) on every lane: the collection,
// each item, the compound document, validators and 304s, Prefer-Push.
describe('REST API routes (/api)', function () {
  useH3Client()
  const servers = useServers()
  const ca = () => servers.tls.cert

  // A GET with request headers over the lane's own protocol.
  async function get (laneDef, path, headers = {}) {
    const lane = servers.lane(laneDef.name)
    if (lane.protocol === 'h3') return h3Get(lane.url + path, { ca: ca(), headers })
    if (lane.protocol === 'h2') {
      const s = h2Session(lane.url, { ca: ca() })
      try {
        return await s.get(path, headers)
      } finally {
        await s.close()
      }
    }
    return h1Get(lane.url + path, { ca: ca(), headers })
  }
  const parse = res => JSON.parse(res.body.toString())

  forEachLane(laneDef => {
    it('a collection of N items links to each; every item is its own JSON resource of exactly `size` bytes', async () => {
      const res = await get(laneDef, '/api/items?count=5&size=300&tag=run1')
      assert.equal(res.status, 200)
      assert.equal(res.headers['content-type'], 'application/hal+json')
      assert.equal(res.headers['cache-control'], 'no-store')
      const doc = parse(res)
      assert.equal(doc.total, 5)
      assert.deepEqual(doc._links.item.map(l => l.href), [1, 2, 3, 4, 5].map(i => `/api/items/${i}?size=300&cache=none&tag=run1`))
      const one = await get(laneDef, doc._links.item[2].href)
      assert.equal(one.status, 200)
      assert.equal(one.body.length, 300)
      assert.equal(one.headers['content-length'], '300')
      assert.equal(parse(one).id, 3)
      assert.equal(parse(one)._links.self.href, doc._links.item[2].href)
    })

    it('the compound document embeds every item as its own resource has it', async () => {
      const doc = parse(await get(laneDef, '/api/compound?count=4'))
      assert.equal(doc._embedded.item.length, 4)
      for (const [i, embedded] of doc._embedded.item.entries()) {
        const own = parse(await get(laneDef, doc._links.item[i].href))
        assert.deepEqual(embedded, own)
        assert.equal(Buffer.byteLength(JSON.stringify(embedded)), DEFAULT_ITEM_BYTES)
      }
    })

    it('cache modes: no-store, fresh (max-age), revalidate (no-cache); a matching If-None-Match gets a 304 without a body', async () => {
      const none = await get(laneDef, '/api/items/7')
      assert.equal(none.headers['cache-control'], 'no-store')
      const fresh = await get(laneDef, '/api/items/7?cache=fresh&tag=a')
      assert.equal(fresh.headers['cache-control'], 'private, max-age=600')
      const stale = await get(laneDef, '/api/items/7?cache=revalidate&tag=a')
      assert.equal(stale.headers['cache-control'], 'private, no-cache')
      const etag = stale.headers.etag
      assert.match(etag, /^"[^"]+"$/, 'a strong validator')
      assert.notEqual(etag, fresh.headers.etag, 'another representation, another tag')
      const again = await get(laneDef, '/api/items/7?cache=revalidate&tag=a', { 'if-none-match': etag })
      assert.equal(again.status, 304)
      assert.equal(again.body.length, 0)
      assert.equal(again.headers.etag, etag)
      assert.equal(again.headers['cache-control'], 'private, no-cache')
      const weak = await get(laneDef, '/api/items/7?cache=revalidate&tag=a', { 'if-none-match': `"other", W/${etag}` })
      assert.equal(weak.status, 304, 'If-None-Match compares weakly, in a list')
      const other = await get(laneDef, '/api/items/7?cache=revalidate&tag=b', { 'if-none-match': etag })
      assert.equal(other.status, 200)
    })

    it('/api/stats/<tag> counts what the server answered for a tag: collections, compound documents, items 200 and 304', async () => {
      const tag = `st-${laneDef.name}-${Date.now().toString(36)}`
      const empty = parse(await get(laneDef, `/api/stats/${tag}`))
      assert.deepEqual(empty, { lane: laneDef.name, tag, collection: 0, compound: 0, items: { 200: 0, 304: 0 }, pushed: 0 })
      await get(laneDef, `/api/items?count=3&tag=${tag}`)
      await get(laneDef, `/api/compound?count=2&tag=${tag}`)
      const first = await get(laneDef, `/api/items/1?cache=revalidate&tag=${tag}`)
      await get(laneDef, `/api/items/2?cache=revalidate&tag=${tag}`)
      await get(laneDef, `/api/items/1?cache=revalidate&tag=${tag}`, { 'if-none-match': first.headers.etag })
      await get(laneDef, '/api/items/1?cache=revalidate') // untagged: not counted
      const counts = parse(await get(laneDef, `/api/stats/${tag}`))
      assert.deepEqual(counts, { lane: laneDef.name, tag, collection: 1, compound: 1, items: { 200: 2, 304: 1 }, pushed: 0 })
      const bad = await get(laneDef, '/api/stats/no%20spaces')
      assert.equal(bad.status, 400)
      assert.equal(parse(bad).param, 'tag')
    })

    it('bad input: a 400 JSON naming the parameter and what is allowed', async () => {
      const cases = [
        ['/api/items', 'count', /count is required: the number of items, an integer 1…1000/],
        ['/api/items?count=1001', 'count', /count must be an integer 1…1000; got "1001"/],
        ['/api/compound?count=abc', 'count', /count must be an integer 1…1000/],
        ['/api/items/1?size=100', 'size', /size must be an integer 256…65536/],
        ['/api/items/1?cache=forever', 'cache', /cache must be one of none, fresh, revalidate; got "forever"/],
        ['/api/items/0', 'id', /id must be an integer 1…1000; got "0"/],
        ['/api/items/x', 'id', /id must be an integer 1…1000/],
        ['/api/items?count=2&tag=no%20spaces', 'tag', /tag must be 1…64 letters/],
        ['/api/items/1?delay=-1', 'delay', /delay must be an integer/],
        ['/api/compound?count=1000&size=65536', 'size', /count × size ≤ 33554432 bytes \(at 1000 items, size ≤ 33554\)/]
      ]
      for (const [path, param, message] of cases) {
        const res = await get(laneDef, path)
        assert.equal(res.status, 400, path)
        const body = parse(res)
        assert.equal(body.param, param, path)
        assert.match(body.error, message, path)
      }
    })
  })

  it('honours the delay on the collection, the compound document and each item', async () => {
    for (const path of ['/api/items?count=2&delay=120', '/api/compound?count=2&delay=120', '/api/items/1?delay=120']) {
      const t0 = performance.now()
      const res = await get(LANES[0], path)
      assert.equal(res.status, 200)
      assert.ok(performance.now() - t0 >= 115, `${path} answered before its delay`)
    }
  })

  it('1,000 items: the collection links them all, the compound document holds them all (1,000 × 512 B)', async () => {
    const lane = servers.lane('h2n')
    const doc = JSON.parse((await h2Get(`${lane.url}/api/compound?count=1000`, { ca: ca() })).body)
    assert.equal(doc._links.item.length, 1000)
    assert.equal(doc._embedded.item.length, 1000)
    assert.deepEqual(doc._embedded.item[999], item(1000, { size: DEFAULT_ITEM_BYTES, cache: 'none', tag: undefined }))
  })

  describe('Prefer-Push: item', () => {
    for (const laneDef of PUSH_LANES) {
      it(`${laneDef.name}: pushes every item with the collection when the client accepts push`, async () => {
        const lane = servers.lane(laneDef.name)
        const s = h2Session(lane.url, { ca: ca(), enablePush: true })
        try {
          const res = await s.get('/api/items?count=3&cache=fresh&tag=p', { 'prefer-push': 'item' })
          assert.equal(res.status, 200)
          assert.equal(res.headers['x-h2bench-push'], 'promised=3')
          const pushed = await Promise.all(s.pushes.map(p => p.done))
          const links = JSON.parse(res.body)._links.item.map(l => l.href)
          assert.deepEqual(pushed.map(p => p.headers[':path']).sort(), [...links].sort())
          for (const p of pushed) {
            assert.equal(p.body.length, DEFAULT_ITEM_BYTES)
            assert.equal(p.responseHeaders['cache-control'], 'private, max-age=600')
            assert.match(p.responseHeaders.etag, /^"item-\d-512-fresh-p"$/)
            assert.equal(JSON.parse(p.body)._links.self.href, p.headers[':path'])
          }
        } finally {
          await s.close()
        }
      })

      it(`${laneDef.name}: says refused-by-client when the client refuses push, as browsers do`, async () => {
        const lane = servers.lane(laneDef.name)
        const s = h2Session(lane.url, { ca: ca(), enablePush: false })
        try {
          const res = await s.get('/api/items?count=3', { 'prefer-push': 'item' })
          assert.equal(res.headers['x-h2bench-push'], 'refused-by-client')
          assert.equal(s.pushes.length, 0)
        } finally {
          await s.close()
        }
      })
    }

    it('lanes that cannot push say so; without Prefer-Push nothing is asked', async () => {
      for (const name of ['h1', 'h2e', 'h3']) {
        const res = await get(LANES.find(l => l.name === name), '/api/items?count=2', { 'prefer-push': 'item' })
        assert.equal(res.headers['x-h2bench-push'], 'unsupported-by-lane', name)
      }
      const plain = await get(LANES.find(l => l.name === 'h2n'), '/api/items?count=2')
      assert.equal(plain.headers['x-h2bench-push'], 'not asked (no Prefer-Push: item)')
    })

    it('a page on another origin may send Prefer-Push: the CORS preflight allows it for 10 minutes', async () => {
      const https = require('node:https')
      const lane = servers.lane('h1')
      const res = await new Promise((resolve, reject) => {
        const req = https.request(`${lane.url}/api/items?count=2&tag=pf`, {
          method: 'OPTIONS', ca: ca(),
          headers: { Origin: 'http://127.0.0.1:1', 'Access-Control-Request-Method': 'GET', 'Access-Control-Request-Headers': 'prefer-push' }
        }, resolve)
        req.on('error', reject)
        req.end()
      })
      res.resume()
      assert.equal(res.statusCode, 204)
      assert.equal(res.headers['access-control-allow-origin'], '*')
      assert.equal(res.headers['access-control-allow-headers'], 'Prefer-Push')
      assert.equal(res.headers['access-control-allow-methods'], 'GET')
      assert.equal(res.headers['access-control-max-age'], '600')
    })

    it('pushed items are counted for their tag at /api/stats', async () => {
      const lane = servers.lane('h2')
      const s = h2Session(lane.url, { ca: ca(), enablePush: true })
      try {
        await s.get('/api/items?count=3&tag=pushcount', { 'prefer-push': 'item' })
        await Promise.all(s.pushes.map(p => p.done))
      } finally {
        await s.close()
      }
      const counts = JSON.parse((await h2Get(`${lane.url}/api/stats/pushcount`, { ca: ca() })).body)
      assert.equal(counts.pushed, 3)
      assert.equal(counts.collection, 1)
    })

    it('the outcomes are counted at /push/stats', async () => {
      const lane = servers.lane('h2n')
      const before = JSON.parse((await h2Get(`${lane.url}/push/stats`, { ca: ca() })).body)
      const s = h2Session(lane.url, { ca: ca(), enablePush: true })
      try {
        await s.get('/api/items?count=4', { 'prefer-push': 'item' })
        await Promise.all(s.pushes.map(p => p.done))
      } finally {
        await s.close()
      }
      const after = JSON.parse((await h2Get(`${lane.url}/push/stats`, { ca: ca() })).body)
      assert.equal(after.pages - before.pages, 1)
      assert.equal(after.promised - before.promised, 4)
    })
  })
})

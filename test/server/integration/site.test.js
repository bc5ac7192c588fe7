'use strict'

const assert = require('node:assert/strict')
const { useServers } = require('../../support/servers')
const { laneGet } = require('../../support/clients')
const { forEachLane } = require('../../support/lanes')
const { LANES } = require('../../../server/lanes')
const { composition, LIMITS, PNG_FRAMING } = require('../../../server/routes/site')
const { payloadBlock } = require('../../../server/payload')

// The page route of the HTTP/3 page-load experiments, over every lane a Node
// client can reach (the h3 lane is QUIC: the browser tests take it).
const TCP_LANES = LANES.filter(l => l.protocol !== 'h3')

// The subresource URLs named in a page, in document order.
const subresourcesOf = html => [...html.matchAll(/(?:href|src)="(\/site\/a\/[^"]+)"/g)].map(m => m[1].replace(/&amp;/g, '&'))

describe('site page route', function () {
  this.timeout(30000)
  const servers = useServers({ lanes: TCP_LANES })
  const ca = () => servers.tls.cert
  const get = (name, path) => laneGet(servers.lane(name), path, { ca: ca() })

  describe('composition', () => {
    it('adds up to the asked size exactly, the document included, at every size', () => {
      for (const size of [LIMITS.minSize, 15 * 1024, 15000, 99 * 1024, 100 * 1024, 1048576, 1000000, 3333333, LIMITS.maxSize]) {
        const parts = composition(size)
        assert.equal(parts.reduce((a, p) => a + p.bytes, 0), size, `size ${size}`)
        for (const p of parts) assert.ok(p.bytes > 0, `size ${size}: an empty ${p.kind}`)
      }
    })

    it('is a small page (HTML, 1 CSS, 1 JS, 3 images) below 100 KiB and a 21-resource page above', () => {
      assert.deepEqual(composition(15 * 1024).map(p => [p.kind, p.bytes]),
        [['html', 5120], ['css', 2560], ['js', 3584], ['png', 1536], ['png', 1536], ['png', 1024]])
      const big = composition(1048576)
      assert.equal(big.length, 21)
      const share = kind => big.filter(p => kind.includes(p.kind)).reduce((a, p) => a + p.bytes, 0) / 1048576
      assert.ok(Math.abs(share(['png']) - 0.6) < 0.01)
      assert.ok(Math.abs(share(['js']) - 0.3) < 0.01)
      assert.equal(big.filter(p => p.kind === 'css').length, 2)
      assert.equal(big.filter(p => p.kind === 'js').length, 4)
      assert.equal(big.filter(p => p.kind === 'png').length, 14)
    })
  })

  forEachLane(laneDef => {
    for (const [size, bytes] of [['15kb', 15360], ['1mb', 1048576]]) {
      it(`GET /site?size=${size}: the document and its subresources are ${bytes} bytes in all, with the right headers`, async () => {
        const page = await get(laneDef.name, `/site?size=${size}&tag=t1&delay=5`)
        assert.equal(page.status, 200)
        assert.equal(page.headers['content-type'], 'text/html; charset=utf-8')
        assert.equal(page.headers['cache-control'], 'no-store')
        assert.equal(Number(page.headers['content-length']), page.body.length)
        const urls = subresourcesOf(page.body.toString('latin1'))
        const parts = composition(bytes)
        assert.equal(urls.length, parts.length - 1)
        assert.equal(page.headers['x-h2bench-site'], `resources=${parts.length}; bytes=${bytes}`)
        let total = page.body.length
        for (const url of urls) {
          assert.match(url, /&delay=5&tag=t1$/)
          const r = await get(laneDef.name, url)
          assert.equal(r.status, 200, url)
          assert.equal(r.headers['cache-control'], 'no-store')
          assert.equal(Number(r.headers['content-length']), r.body.length)
          const ext = url.match(/\.(\w+)\?/)[1]
          if (ext === 'png') {
            // A real PNG (signature, IHDR 1 × 1) carrying payload bytes in a chunk decoders skip.
            assert.ok(r.body.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])), `${url}: a PNG`)
            assert.equal(r.body.toString('latin1', 12, 16), 'IHDR')
            assert.equal(r.body.toString('latin1', 37, 41), 'paDd')
            assert.ok(r.body.subarray(41, 41 + r.body.length - PNG_FRAMING).equals(payloadBlock().subarray(0, r.body.length - PNG_FRAMING)), `${url}: payload bytes`)
          } else {
            assert.ok(r.body.equals(payloadBlock().subarray(0, r.body.length)), `${url}: payload bytes`)
          }
          assert.match(r.headers['content-type'], { css: /^text\/css/, js: /^application\/javascript/, png: /^image\/png$/ }[ext])
          total += r.body.length
        }
        assert.equal(total, bytes)
      })
    }

    it('answers 400 naming the parameter for bad input', async () => {
      const cases = [
        ['/site', 'size'], ['/site?size=1kb', 'size'], ['/site?size=17mb', 'size'], ['/site?size=abc', 'size'],
        ['/site?size=15kb&size=1mb', 'size'], ['/site?size=15kb&delay=-1', 'delay'], ['/site?size=15kb&delay=60001', 'delay'],
        ['/site?size=15kb&tag=a%20b', 'tag'], ['/site/a/1.css', 'size'], ['/site/a/1.css?size=17mb', 'size'], ['/site/a/2.js?size=10&tag=!', 'tag']
      ]
      for (const [path, param] of cases) {
        const r = await get(laneDef.name, path)
        assert.equal(r.status, 400, path)
        const json = JSON.parse(r.body)
        assert.equal(json.param, param, path)
        assert.match(json.error, new RegExp(param), path)
      }
      const missing = await get(laneDef.name, '/site/a/1.exe?size=10')
      assert.equal(missing.status, 404)
    })

    it('waits the asked delay before the page', async () => {
      const t0 = Date.now()
      const r = await get(laneDef.name, '/site?size=15kb&delay=150')
      assert.equal(r.status, 200)
      assert.ok(Date.now() - t0 >= 145, `answered after ${Date.now() - t0} ms`)
    })
  }, TCP_LANES)

  it('serves the same bytes on every lane', async () => {
    const bodies = async path => Promise.all(TCP_LANES.map(l => get(l.name, path).then(r => r.body)))
    for (const path of ['/site?size=15kb&tag=same', '/site?size=1mb&tag=same']) {
      const pages = await bodies(path)
      for (const b of pages.slice(1)) assert.ok(b.equals(pages[0]), path)
      for (const url of subresourcesOf(pages[0].toString('latin1')).slice(0, 4)) {
        const subs = await bodies(url)
        for (const b of subs.slice(1)) assert.ok(b.equals(subs[0]), url)
      }
    }
  })
})

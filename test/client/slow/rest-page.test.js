'use strict'

const assert = require('node:assert/strict')
const { useServers } = require('../../support/servers')
const { LANES } = require('../../../server/lanes')
const { launchBrowser } = require('../../support/browser')
const { openPage } = require('../../support/page')

const lanes = LANES.filter(l => ['h1', 'h2'].includes(l.name))

// window.h2bench.rest (client/js/rest.js) in Chromium: what the runner's rest
// cells and the page's REST section measure with. A cache visit must prove
// its cache hits or it is no sample; the largest collection the API serves
// (1,000 items) goes through on both protocols; bad options are refused.
describe('the page: window.h2bench.rest (REST visits)', function () {
  this.timeout(180000)
  const servers = useServers({ lanes })
  let browser = null
  let page = null
  let errors = null

  before(async () => {
    browser = await launchBrowser({ spki: servers.tls.spki, lanes: servers.running.lanes })
    ;({ page, errors } = await openPage(browser, `${servers.running.page.url}/`))
  })
  after(async () => { if (browser) await browser.close() })

  const rest = options => page.evaluate(o => window.h2bench.rest(o), options)
  const rowOf = (result, lane, scenario) => result.rows.find(r => r.lane === lane && r.scenario === scenario)

  it('with the browser cache off, cache and cache-stale visits have no proven hits: reported unproven, never timed', async () => {
    const cdp = await page.createCDPSession()
    await cdp.send('Network.enable')
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true })
    try {
      const result = await rest({ items: 10, repeats: 2, lanes: ['h2'], scenarios: ['separate', 'cache', 'cache-stale'] })
      const cache = rowOf(result, 'h2', 'cache')
      assert.deepEqual(cache.samples, [], 'no sample without its cache hits')
      assert.equal(cache.unproven, 2)
      assert.equal(cache.failures, 0)
      assert.deepEqual(cache.visits.map(v => [v.cache, v.network, v.proven]), [[0, 11, false], [0, 11, false]])
      const stale = rowOf(result, 'h2', 'cache-stale')
      assert.deepEqual(stale.samples, [])
      assert.deepEqual(stale.visits.map(v => [v.revalidated, v.proven]), [[0, false], [0, false]], 'no cached copy: nothing to revalidate')
      assert.equal(rowOf(result, 'h2', 'separate').samples.length, 2, 'the uncached scenario is timed as usual')
    } finally {
      await cdp.send('Network.setCacheDisabled', { cacheDisabled: false })
      await cdp.detach()
    }
  })

  it('1,000 items (the most the API serves) on HTTP/1.1 and HTTP/2: every request answered and counted', async () => {
    const result = await rest({ items: 1000, repeats: 1, lanes: ['h1', 'h2'], scenarios: ['separate', 'compound', 'cache', 'cache-stale'] })
    for (const lane of ['h1', 'h2']) {
      const v = s => rowOf(result, lane, s).visits[0]
      for (const s of ['separate', 'compound', 'cache', 'cache-stale']) assert.equal(v(s).error, null, `${lane} ${s}: ${v(s).error}`)
      assert.deepEqual([v('separate').requests, v('separate').network, v('separate').server.requests], [1001, 1001, 1001], lane)
      assert.deepEqual([v('compound').requests, v('compound').network], [1, 1], lane)
      assert.deepEqual([v('cache').cache, v('cache').network, v('cache').server.requests, v('cache').proven], [900, 101, 101, true], lane)
      assert.deepEqual([v('cache-stale').revalidated, v('cache-stale').network, v('cache-stale').proven], [900, 1001, true], lane)
      assert.equal(rowOf(result, lane, 'separate').protocol, lane === 'h1' ? 'http/1.1' : 'h2')
    }
  })

  it('refuses bad options, naming each field and what is allowed', async () => {
    const err = await page.evaluate(() => window.h2bench.rest({ items: 0, size: 100, lanes: ['h9'], scenarios: ['magic'] }).then(() => null, e => e.errors))
    assert.match(err.items, /items must be an integer 1…1000; got 0/)
    assert.match(err.size, /size must be an integer 256…65536; got 100/)
    assert.match(err.lanes, /lanes must be a non-empty list of h1, h2; got \["h9"\]/)
    assert.match(err.scenarios, /scenarios must be a non-empty list of separate, compound, cache, cache-stale, push/)
    const big = await page.evaluate(() => window.h2bench.rest.validate({ items: 1000, size: 65536, scenarios: ['compound'] }))
    assert.match(big.errors.size, /above 32 MiB: size ≤ 33554 at 1000 items/)
    assert.deepEqual(errors, [])
  })
})

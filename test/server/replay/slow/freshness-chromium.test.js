'use strict'

// Repeat views held to the site's cache behaviour, in real Chromium
// (server/replay/freshness.js through the replay): test/server/replay/
// har-fixture.js freshnessHar, a page recorded ten minutes ago whose
// stylesheet is fresh by heuristic only (Last-Modified an hour before its
// Date, no Cache-Control: 6 minutes, RFC 9111 §4.2.2), whose script has
// max-age=300 and whose image an Expires 5 minutes after its Date; a script
// with no-cache and an ETag, a stylesheet with no-cache and a Last-Modified
// alone. Loaded cold, then (about:blank between, as a site run's repeat
// view, a second later so the replay's Last-Modified has moved on) again in
// the same browser: the repeat view takes the three fresh ones from its
// cache (the HAR's _fromCache, and Resource Timing's transferSize 0) and
// revalidates the no-cache two, answered 304 (by If-None-Match and by
// If-Modified-Since: the replay's counts, and the HAR's status). The same
// page replayed with its dates as recorded (time 'recorded', the replay
// before freshness.js) shows why: ten minutes old on arrival, all three are
// stale, the repeat view takes nothing from its cache and fetches them again
// (the stylesheet revalidated by its Last-Modified, the others whole).
const assert = require('node:assert/strict')
const { openReplayInChromium, closeReplayInChromium } = require('../../../support/replay-chromium')
const { recordCdp } = require('../../../../harness/har/cdp-har')
const { freshnessHar, FRESH, FRESH_ORIGIN } = require('../har-fixture')

const PAGE = `${FRESH_ORIGIN}/fresh/`
const FRESH_ONES = [FRESH.heuristic, FRESH.maxAge, FRESH.expires].map(r => FRESH_ORIGIN + r.path).sort()
const REVALIDATED = [FRESH.etag, FRESH.lastModified].map(r => FRESH_ORIGIN + r.path).sort()
const sleep = ms => new Promise(resolve => setTimeout(resolve, ms))

// One load of the page on `page` (recorded by `recorder` as HAR page `id`), until load and no request in flight
// for 300 ms → { entries (the page's, favicon left out), timing (Resource Timing: url → transferSize),
// served (what the replay answered meanwhile: app.served() differences) }.
async function load (page, recorder, replay, id) {
  const before = replay.app.served()
  recorder.startPage(id, PAGE)
  const nav = await page.goto(PAGE, { waitUntil: 'load' })
  assert.equal(nav.status(), 200)
  for (let quiet = 0, i = 0; quiet < 3 && i < 100; i++) {
    await sleep(100)
    quiet = recorder.snapshot().entries.filter(e => e.pageref === id && e._incomplete).length ? 0 : quiet + 1
  }
  const timing = Object.fromEntries(await page.evaluate(() => performance.getEntriesByType('resource').map(e => [e.name, e.transferSize])))
  const after = replay.app.served()
  const entries = recorder.snapshot().entries.filter(e => e.pageref === id && !e.request.url.endsWith('/favicon.ico'))
  const by = how => after.notModifiedBy[how] - before.notModifiedBy[how]
  return { entries, timing, served: { total: after.total - before.total, etag: by('etag'), date: by('date') } }
}

// A cold load then a repeat view in one tab → { cold, repeat } (load's), and a line of figures printed.
async function coldThenRepeat (state, what) {
  const { replay, chrome } = state
  const page = await chrome.context.newPage()
  const cdp = await page.createCDPSession()
  const recorder = await recordCdp(cdp)
  const cold = await load(page, recorder, replay, 'cold')
  await page.goto('about:blank')
  await sleep(1100) // the replay's next Date, and Last-Modified, a second on: If-Modified-Since must still match
  const repeat = await load(page, recorder, replay, 'repeat')
  recorder.stop()
  await page.close()
  const cached = l => l.entries.filter(e => e._fromCache).map(e => e.request.url).sort()
  const zero = l => Object.entries(l.timing).filter(([, size]) => size === 0).map(([url]) => url).sort()
  const status = l => l.entries.filter(e => !e._fromCache).map(e => `${new URL(e.request.url).pathname} ${e.response.status}`).join(', ')
  process.stdout.write(`      (${what}: cold ${cold.entries.length} requests, ${cached(cold).length} from cache, ${cold.served.etag + cold.served.date} 304s; ` +
    `repeat ${repeat.entries.length} requests, ${cached(repeat).length} from cache (transferSize 0: ${zero(repeat).length}), ` +
    `${repeat.served.etag} 304 by If-None-Match and ${repeat.served.date} by If-Modified-Since, the replay answered ${repeat.served.total}: ${status(repeat)})\n`)
  return { cold, repeat, cached, zero }
}

for (const protocol of ['h1', 'h2', 'h3']) {
  describe(`server/replay in Chromium over ${protocol}: a repeat view takes from its cache what the site let it keep`, function () {
    this.timeout(120000)
    const state = {}
    before(async function () { await openReplayInChromium(this, state, freshnessHar({ agoMs: 10 * 60 * 1000 }), { protocol }) })
    after(() => closeReplayInChromium(state))

    it('cold: everything from the replay; repeat: heuristic, max-age and Expires ones from the cache, the no-cache ones revalidated with a 304', async () => {
      const { cold, repeat, cached, zero } = await coldThenRepeat(state, `${protocol}, dates shifted`)
      assert.equal(cold.entries.length, 6, cold.entries.map(e => e.request.url).join(', '))
      assert.deepEqual(cached(cold), [])
      assert.deepEqual({ etag: cold.served.etag, date: cold.served.date }, { etag: 0, date: 0 })
      assert.ok(cold.entries.every(e => e.response.status === 200 && e._protocol === (protocol === 'h1' ? 'http/1.1' : protocol)))

      assert.deepEqual(cached(repeat), FRESH_ONES)
      for (const url of FRESH_ONES) assert.equal(repeat.timing[url], 0, `${url}: transferSize ${repeat.timing[url]}`)
      assert.deepEqual(zero(repeat).filter(u => !FRESH_ONES.includes(u)), [])
      // The no-cache two asked again with their validators, each answered 304: one by ETag, one by date.
      assert.deepEqual({ etag: repeat.served.etag, date: repeat.served.date }, { etag: 1, date: 1 })
      for (const url of REVALIDATED) {
        const e = repeat.entries.find(x => x.request.url === url)
        assert.ok(e && !e._fromCache, url)
        assert.equal(e.response.status, 304, url)
      }
      // The page itself (no caching headers) and the two revalidations: all the replay answered.
      assert.equal(repeat.served.total, 3)
      assert.deepEqual(state.replay.app.misses().requests.filter(m => !m.url.endsWith('/favicon.ico')), [])
    })
  })
}

describe('server/replay in Chromium over h2, the dates as recorded (time \'recorded\'): why they are shifted', function () {
  this.timeout(120000)
  const state = {}
  before(async function () { await openReplayInChromium(this, state, freshnessHar({ agoMs: 10 * 60 * 1000 }), { protocol: 'h2', time: 'recorded' }) })
  after(() => closeReplayInChromium(state))

  it('ten minutes old on arrival, nothing is fresh: the repeat view takes nothing from its cache and asks for all again', async () => {
    const { repeat, cached } = await coldThenRepeat(state, 'h2, dates as recorded')
    assert.deepEqual(cached(repeat), [])
    // The heuristic stylesheet revalidated by its Last-Modified (304) as the no-cache ones are; max-age and Expires
    // ones, without validators, fetched whole.
    assert.deepEqual({ etag: repeat.served.etag, date: repeat.served.date }, { etag: 1, date: 2 })
    assert.equal(repeat.served.total, 6)
    for (const r of [FRESH.maxAge, FRESH.expires]) assert.equal(repeat.entries.find(e => e.request.url === FRESH_ORIGIN + r.path).response.status, 200, r.path)
  })
})

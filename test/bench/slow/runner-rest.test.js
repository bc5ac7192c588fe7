'use strict'

const assert = require('node:assert/strict')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { validateResults } = require('../../../bench/report/runner/results-schema')
const { unavailableReason } = require('../../../link/namespace')
const { edgeUnavailableReason } = require('../../../server/edge/caddy')
const { firefoxUnavailableReason } = require('../../../harness/firefox')
const { runNode } = require('../../support/run-node')

const RUN = path.join(__dirname, '..', '..', '..', 'bin', 'h2bench-run.js')
const RTT = 20 // the smoke cell's link: rtt=20ms
const ITEMS = 10
const CACHED = 9 // 90 % of 10 items, left in the cache by the unmeasured earlier visit

// Seed 001's REST scenarios, smoke form, through the packet-level link in
// Chromium and Firefox (npm run bench -- rest --smoke --browser both). What
// must hold whatever the figures: every visit answered; each scenario sent
// what it should to the network, took what it should from the cache, and got
// its 304s, as Resource Timing and the server's own count agree; browsers
// refused push and Node's http2 client got every item pushed; no visit beat
// the round trips it needs on a 20 ms link.
describe('npm run bench -- rest --network link --smoke --browser both (the real command)', function () {
  this.timeout(300000)
  let dir = null
  let result = null
  let json = null
  let report = null
  let browsers = ['chromium', 'firefox']

  before(async function () {
    const why = unavailableReason() || edgeUnavailableReason()
    if (why) {
      process.stdout.write(`      (skipped: ${why})\n`)
      this.skip()
    }
    const noFirefox = firefoxUnavailableReason()
    if (noFirefox) {
      process.stdout.write(`      (Firefox left out: ${noFirefox})\n`)
      browsers = ['chromium']
    }
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'h2bench-runner-rest-'))
    result = await runNode(RUN, ['rest', '--smoke', '--network', 'link', '--browser', browsers.length > 1 ? 'both' : 'chromium', '--repeats', '2', '--out', dir])
    json = JSON.parse(fs.readFileSync(path.join(dir, 'results.json'), 'utf8'))
    report = fs.readFileSync(path.join(dir, 'report.md'), 'utf8')
  })
  after(() => { if (dir) fs.rmSync(dir, { recursive: true, force: true }) })

  const inBrowser = b => json.results.filter(r => r.browser === b)

  it('exits 0 with a results.json that matches its schema; every row through the link, every visit answered and timed', () => {
    assert.equal(result.code, 0, result.stderr)
    assert.deepEqual(validateResults(json), [])
    assert.deepEqual(json.environment.browsers, browsers)
    for (const r of json.results) {
      assert.equal(r.network, 'link')
      assert.equal(r.failures, 0, `${r.browser} ${r.lane} ${r.mode}: ${r.note}`)
      assert.equal(r.repeatsGot, 2, `${r.browser} ${r.lane} ${r.mode}: ${r.note}`)
      assert.doesNotMatch(r.note || '', /WARNING|not proven/, `${r.browser} ${r.lane} ${r.mode}`)
    }
  })

  it('every browser ran every scenario on every lane, on the lane\'s own protocol (Firefox learnt h3 from Alt-Svc), and says which browser it was', () => {
    for (const b of browsers) {
      const rows = inBrowser(b)
      const lanes = ['h1', 'h2', 'h2n', 'h3', 'h2e']
      for (const lane of lanes) {
        const modes = rows.filter(r => r.lane === lane).map(r => r.mode).sort()
        const expected = ['cache', 'cache-stale', 'compound', 'separate', ...(['h2', 'h2n'].includes(lane) ? ['push'] : [])].sort()
        assert.deepEqual(modes, expected, `${b} ${lane}`)
        for (const r of rows.filter(x => x.lane === lane)) assert.equal(r.protocol, lane === 'h1' ? 'http/1.1' : lane === 'h3' ? 'h3' : 'h2', `${b} ${lane} ${r.mode}`)
      }
      assert.match(rows[0].browserVersion, b === 'firefox' ? /^Firefox \d+/ : /Chromium|Chrome/)
    }
    if (browsers.includes('firefox')) assert.match(json.environment.firefox, /^Firefox \d+/)
  })

  it('each visit went to the network, the cache and the server as its scenario says (Resource Timing and the server agree)', () => {
    for (const b of browsers) {
      for (const r of inBrowser(b)) {
        const c = r.rest
        const what = `${b} ${r.lane} ${r.mode}`
        assert.equal(c.items, ITEMS, what)
        assert.equal(c.untimed, 0, what)
        assert.equal(c.serverRequests, c.network, `${what}: requests the server saw = requests Resource Timing saw go out`)
        if (r.mode === 'compound') assert.deepEqual([c.requests, c.network, c.cache, c.revalidated], [1, 1, 0, 0], what)
        else assert.equal(c.requests, ITEMS + 1, what)
        if (r.mode === 'separate' || r.mode === 'push') assert.deepEqual([c.network, c.cache, c.revalidated], [ITEMS + 1, 0, 0], what)
        if (r.mode === 'cache') assert.deepEqual([c.network, c.cache, c.revalidated, c.cacheExpected], [ITEMS + 1 - CACHED, CACHED, 0, CACHED], what)
        if (r.mode === 'cache-stale') assert.deepEqual([c.network, c.cache, c.revalidated], [ITEMS + 1, 0, CACHED], what)
        // How the browser spread them over connections, as the server's ledger saw it: HTTP/2 and HTTP/3 one,
        // HTTP/1.1 up to six (the page's warm-up opened them; compound is a single request).
        if (r.lane === 'h1') assert.ok(c.connections >= 1 && c.connections <= 6, `${what}: ${c.connections} connections`)
        else assert.equal(c.connections, 1, `${what}: ${c.connections} connections`)
        if (r.lane === 'h1' && r.mode === 'separate') assert.ok(c.connections >= 2, `${what}: 11 requests on ${c.connections} connection(s)`)
      }
    }
  })

  it('push: refused by every browser; Node\'s http2 client got every item pushed on both pushing lanes, once per cell', () => {
    for (const b of browsers) {
      for (const r of inBrowser(b).filter(x => x.mode === 'push')) assert.equal(r.pushOutcome, 'refused-by-client', `${b} ${r.lane}`)
    }
    const proto = json.results.filter(r => r.browser === 'node:http2')
    assert.deepEqual(proto.map(r => `${r.lane} ${r.mode}`).sort(), ['h2 push-protocol', 'h2 separate-protocol', 'h2n push-protocol', 'h2n separate-protocol'])
    for (const r of proto.filter(x => x.mode === 'push-protocol')) assert.equal(r.pushed, ITEMS, r.lane)
    for (const r of proto.filter(x => x.mode === 'separate-protocol')) assert.equal(r.rest.requests, ITEMS + 1, r.lane)
  })

  it("each visit's costs measured outside its time: one record per timed visit, the link's bytes at least the collection's; Firefox's without CDP's main-thread time", () => {
    for (const r of inBrowser('chromium')) {
      assert.ok(r.costs, `${r.lane} ${r.mode}: no costs`)
      assert.equal(r.costs.runs, r.samples.length, `${r.lane} ${r.mode}`)
      // /proc counts CPU in 10 ms ticks: a few short visits may show none; CDP's task time is finer.
      assert.ok(r.costs.browserCpuMs >= 0 && r.costs.pageTaskMs > 0 && r.costs.wallMs >= r.samples.reduce((a, b) => a + b, 0) * 0.9, `${r.lane} ${r.mode}: ${JSON.stringify(r.costs)}`)
      if (!['cache', 'cache-stale'].includes(r.mode)) assert.ok(r.costs.link.down.bytes > 10 * 512, `${r.lane} ${r.mode}: ${JSON.stringify(r.costs.link)}`)
    }
    // Firefox: its processes' CPU by its own tree; no CDP, so no main-thread time.
    for (const r of inBrowser('firefox').filter(q => q.samples.length)) {
      assert.ok(r.costs && r.costs.runs === r.samples.length && r.costs.browserCpuMs >= 0 && r.costs.pageTaskMs === null, `${r.lane} ${r.mode}: ${JSON.stringify(r.costs)}`)
    }
  })

  it('physics: no visit beats its round trips on the 20 ms link (compound and pushed: one; a collection and then items: two)', () => {
    for (const r of json.results) {
      const trips = r.mode === 'compound' || r.mode === 'push-protocol' ? 1 : r.mode === 'cache' && r.rest.network === 1 ? 1 : 2
      assert.ok(r.min >= trips * RTT * 0.95, `${r.browser} ${r.lane} ${r.mode}: ${r.min} ms < ${trips} × ${RTT} ms`)
    }
  })

  it('the report has both browsers\' tables beside the source\'s Chrome medians, the order of the scenarios and the verdicts', () => {
    assert.match(report, /## rest: REST/)
    assert.match(report, /10 items of 512 B, Chromium/)
    if (browsers.includes('firefox')) assert.match(report, /10 items of 512 B, Firefox \(Firefox \d+/)
    assert.match(report, /10 items of 512 B, Node http2/)
    assert.match(report, /\| 25 items \| source \(Chrome\) \| the compound documents fastest; /, 'the source\'s order, in its words')
    // Two repeats are below the verdict engine's 5 good runs a side: not measured, each cell with its medians and why.
    assert.match(report, /\*\*Push helps a little[^\n]*\*\*: not measured, [^\n]*10 \(node:http2\), h2: not measured \(2 and 2 runs, at least 5 needed; medians only: [\d.]+×\)[^\n]*push was refused in every row/)
    assert.match(report, /\*\*A warm cache[^\n]*cache hits proven per visit/)
    assert.match(fs.readFileSync(path.join(dir, 'report.html'), 'utf8'), /<svg[^>]*aria-label="rest: time against items in the collection"/)
  })
})

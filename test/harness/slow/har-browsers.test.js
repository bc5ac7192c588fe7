'use strict'

// HAR of real page loads (harness/har/): Chromium through CDP, Firefox
// through the raw WebDriver BiDi events of launchFirefox's onBidiMessage,
// each loading the lanes' site page (a document, its stylesheets, scripts
// and images) on the h2 and h1 lanes, and the h3 lane where Caddy is. The
// server is the independent observer: the requests it answered and the TLS
// connections it accepted; server/routes/site.js composition() the bytes.
const assert = require('node:assert/strict')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const crypto = require('node:crypto')
const { useServers } = require('../../support/servers')
const { launchBrowser } = require('../../support/browser')
const { laneByName } = require('../../../server/lanes')
const { composition, subresourcePath } = require('../../../server/routes/site')
const { edgeUnavailableReason } = require('../../../server/edge/caddy')
const { launchFirefox, firefoxUnavailableReason } = require('../../../harness/firefox')
const { recordCdp } = require('../../../harness/har/cdp-har')
const { recordBidi } = require('../../../harness/har/bidi-har')
const { buildHar, summarizeHar, httpVersionOf, originOf } = require('../../../harness/har/har')

const SIZE = 200 * 1024 // a "large page": 21 resources
const LANE_NAMES = ['h2', 'h1', ...(edgeUnavailableReason() ? [] : ['h3'])]
const MAX_H1_CONNECTIONS = 6 // both browsers' limit per origin for HTTP/1.1

function skipUnless (ctx, why) {
  if (!why) return
  process.stdout.write(`      (skipped: ${why})\n`)
  ctx.skip()
}

// What each lane's server saw: the requests of a tag, and the TLS
// connections it accepted (the Node lanes; Caddy's are out of sight).
function watchServers (lanes) {
  const fresh = () => ({ urls: [], connections: 0, tcp: 0 })
  const seen = new Map(lanes.map(l => [l.name, fresh()]))
  for (const lane of lanes) {
    // before the app's own listener: Express rewrites req.url as it routes
    lane.server.prependListener('request', req => seen.get(lane.name).urls.push(req.url))
    lane.server.on('secureConnection', () => seen.get(lane.name).connections++)
    lane.server.on('connection', () => seen.get(lane.name).tcp++)
  }
  return {
    reset (name) { seen.set(name, fresh()) },
    get (name) { return seen.get(name) }
  }
}

// Waits until the page's entries are all complete and as many as the page
// has resources, and its load event is in (page.goto may resolve before the
// recorder has the last response's events or the load event).
async function settle (recorder, pageref, count) {
  for (let i = 0; i < 100; i++) {
    const { pages, entries } = recorder.snapshot()
    const mine = entries.filter(e => e.pageref === pageref)
    const page = pages.find(p => p.id === pageref)
    if (mine.length >= count && mine.every(e => !e._incomplete) && page && page.pageTimings.onLoad > -1) return
    await new Promise(resolve => setTimeout(resolve, 100))
  }
}

// Checks one page load's HAR against the server's view and the page's composition.
function checkLoad ({ har, lane, tag, server, browser }) {
  const pageref = `${lane.name}-${tag}`
  const page = har.log.pages.find(p => p.id === pageref)
  assert.ok(page, `${browser} ${lane.name}: its page`)
  const entries = har.log.entries.filter(e => e.pageref === pageref)
  const parts = composition(SIZE)
  const paths = parts.map(p => p.kind === 'html' ? `/site?size=${SIZE}&tag=${tag}` : subresourcePath(p, { tag }))
  const pathOf = url => { const u = new URL(url); return u.pathname + u.search }
  const what = `${browser} ${lane.name}`
  // one entry per request the server answered, and per resource of the page
  assert.deepEqual(entries.map(e => pathOf(e.request.url)).sort(), server.urls.filter(u => u.includes(`tag=${tag}`)).sort(), `${what}: the server's requests`)
  assert.deepEqual(entries.map(e => pathOf(e.request.url)).sort(), [...paths].sort(), `${what}: the page's resources`)
  for (const e of entries) {
    const part = parts[paths.indexOf(pathOf(e.request.url))]
    const name = `${what} ${pathOf(e.request.url)}`
    assert.equal(e.response.status, 200, name)
    assert.equal(e._error, undefined, name)
    assert.equal(e._protocol, lane.protocol, name)
    assert.equal(e.response.httpVersion, httpVersionOf(lane.protocol), name)
    assert.equal(e.request.httpVersion, httpVersionOf(lane.protocol), name)
    assert.equal(e.response.content.size, part.bytes, `${name}: content.size`)
    assert.equal(e.response.bodySize, part.bytes, `${name}: bodySize`)
    assert.ok(e.response._transferSize > part.bytes, `${name}: _transferSize ${e.response._transferSize} has the headers too`)
    assert.ok(e.time > 0, `${name}: time ${e.time}`)
    for (const k of ['send', 'wait', 'receive']) assert.ok(e.timings[k] >= 0, `${name}: ${k} ${e.timings[k]}`)
    const sum = ['blocked', 'dns', 'connect', 'send', 'wait', 'receive'].reduce((a, k) => a + Math.max(0, e.timings[k]), 0)
    assert.ok(Math.abs(sum - e.time) < 0.01, `${name}: time ${e.time} is its timings' sum ${sum}`)
  }
  assert.ok(page.pageTimings.onLoad > 0, `${what}: onLoad ${page.pageTimings.onLoad}`)
  assert.ok(page.pageTimings.onContentLoad > 0 && page.pageTimings.onContentLoad <= page.pageTimings.onLoad, `${what}: onContentLoad ${page.pageTimings.onContentLoad}`)
  const summary = summarizeHar({ log: { entries } })
  const origin = summary.origins[originOf(lane.url)]
  assert.equal(summary.requests, parts.length)
  assert.equal(summary.failed, 0)
  assert.equal(summary.bodyBytes, SIZE, `${what}: the page's bytes`)
  assert.deepEqual(summary.protocols, { [lane.protocol]: parts.length })
  assert.equal(origin.requests, parts.length)
  // Connections: the requests whose timings show one being set up (./har.js
  // summarizeHar). Chromium reports no set-up on a request that got a socket
  // it had preconnected (it opens one beside the navigation's): there
  // _connectionIds, the distinct connections used, is the count to hold to
  // the limits, and the set-ups are at most that.
  const used = origin._connectionIds !== undefined ? origin._connectionIds : origin.connections
  const say = `${what}: ${origin.connections} connection(s) set up, ${origin._connectionIds === undefined ? '' : `${origin._connectionIds} used, `}the server accepted ${server.connections === null ? '?' : `${server.connections} (TCP ${server.tcp})`}`
  assert.ok(origin.connections <= used, say)
  if (lane.protocol === 'h2') assert.equal(used, 1, say)
  if (lane.protocol === 'http/1.1') assert.ok(used >= 1 && used <= MAX_H1_CONNECTIONS, say)
  // h3: Firefox learnt HTTP/3 from the lane before the load and may still hold that connection
  if (lane.protocol === 'h3') assert.ok(used <= 1, say)
  if (server.connections !== null) assert.ok(used <= server.connections, say)
  process.stdout.write(`      · ${say}; ${summary.requests} requests, ${summary.bytes} bytes on the wire; ` +
    `onContentLoad ${Math.round(page.pageTimings.onContentLoad)} ms, onLoad ${Math.round(page.pageTimings.onLoad)} ms\n`)
}

// A failed check keeps the HAR and the browser's events for a look (the
// message says where).
function checkKeeping (har, events, check) {
  try {
    check()
  } catch (err) {
    const file = path.join(os.tmpdir(), `h2bench-har-${har.log.browser.name}-${Date.now()}.har`)
    fs.writeFileSync(file, JSON.stringify(har, null, 1))
    fs.writeFileSync(`${file}.events.json`, JSON.stringify(events))
    err.message += ` (the HAR: ${file}; the events beside it)`
    throw err
  }
}

// Loads the site page on each lane, one page each, recording HAR; checks each.
async function loadEach ({ lanes, watch, recorder, goto, browser }) {
  const checked = []
  for (const lane of lanes) {
    const tag = `${browser}${lane.name}${Date.now()}`
    watch.reset(lane.name)
    recorder.startPage(`${lane.name}-${tag}`, `site ${SIZE} bytes on ${lane.name}`)
    await goto(`${lane.url}/site?size=${SIZE}&tag=${tag}`)
    await settle(recorder, `${lane.name}-${tag}`, composition(SIZE).length)
    const seen = watch.get(lane.name)
    checked.push({ lane, tag, server: { urls: seen.urls, connections: lane.name === 'h3' ? null : seen.connections, tcp: seen.tcp } })
  }
  return checked
}

describe('HAR of real page loads (harness/har/)', function () {
  this.timeout(180000)
  const servers = useServers({ lanes: LANE_NAMES.map(laneByName) })
  let watch = null
  let lanes = null
  before(() => {
    lanes = LANE_NAMES.map(name => servers.lane(name)).filter(Boolean)
    watch = watchServers(lanes)
  })

  it('Chromium (CDP): one entry per request, its protocol, exact body sizes, connections per origin', async () => {
    const t0 = Date.now()
    const chromium = await launchBrowser({ spki: servers.tls.spki, lanes: servers.running.lanes })
    try {
      const page = await chromium.context.newPage()
      const cdp = await page.createCDPSession()
      const recorder = await recordCdp(cdp)
      const { product } = await cdp.send('Browser.getVersion')
      const checked = await loadEach({ lanes, watch, recorder, goto: url => page.goto(url), browser: 'chromium' })
      const har = buildHar({ browser: { name: 'Chromium', version: product.split('/')[1] }, ...recorder.stop() })
      assert.equal(har.log.browser.name, 'Chromium')
      assert.match(har.log.browser.version, /^\d+\./)
      assert.equal(har.log.pages.length, lanes.length)
      for (const c of checked) checkKeeping(har, recorder.events, () => checkLoad({ har, ...c, browser: 'chromium' }))
      JSON.parse(JSON.stringify(har)) // plain data
    } finally {
      await chromium.close()
    }
    process.stdout.write(`      · ${Date.now() - t0} ms\n`)
  })

  describe('Firefox (WebDriver BiDi)', function () {
    before(function () { skipUnless(this, firefoxUnavailableReason()) })
    let caFile = null
    after(() => { if (caFile) fs.rmSync(caFile, { force: true }) })

    it('one entry per request, its protocol, exact body sizes, connections per origin', async () => {
      const t0 = Date.now()
      caFile = path.join(os.tmpdir(), `h2bench-test-ca-${process.pid}-${crypto.randomBytes(4).toString('hex')}.pem`)
      fs.writeFileSync(caFile, servers.tls.ca)
      const recorder = recordBidi()
      const firefox = await launchFirefox({ caFile, lanes: servers.running.lanes, onBidiMessage: recorder.onMessage })
      try {
        recorder.clear() // Firefox's start (learning HTTP/3 from the h3 lane's Alt-Svc)
        const checked = await loadEach({ lanes, watch, recorder, goto: url => firefox.page.goto(url), browser: 'firefox' })
        const har = buildHar({ browser: { name: 'Firefox', version: firefox.version.replace(/^Firefox /, '') }, ...recorder.stop() })
        assert.equal(har.log.pages.length, lanes.length)
        for (const c of checked) checkKeeping(har, recorder.events, () => checkLoad({ har, ...c, browser: 'firefox' }))
      } finally {
        await firefox.close()
      }
      process.stdout.write(`      · ${Date.now() - t0} ms\n`)
    })
  })
})

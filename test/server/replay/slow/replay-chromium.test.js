'use strict'

// The replay in real Chromium: the constructed three-origin site
// (test/server/replay/har-fixture.js, its page now referring to all three
// origins) replayed over h2, h2e (h3's Caddy, over TCP) and h3 at the recorded names and ports, the
// browser sent there by --host-resolver-rules and trusting the replay's
// leaves by their SPKI hashes (both through launchBrowser's protocolArgs, the
// switches a site run forces a protocol with). Every subresource must come
// from the replay (CDP: the address and port the plan gave its origin, the
// protocol forced, the status and length recorded) and the replay must
// have answered each origin; nothing else may have missed but a favicon.
// And the replay lets Chromium coalesce connections where the recording
// would have: static.a.example (added here: same site as a.example, recorded
// at its address under its certificate) must ride a.example's connection.
// b.example shares that address and leaf too, yet is another site: Chromium
// fetches a cross-site subresource in privacy mode (third-party cookies
// blocked), its session key apart from the page's, so it opens a connection of
// its own, as it would on the live site (printed, not asserted: that is
// Chromium's rule, not the replay's). A leaf trusted by its SPKI hash
// (--ignore-certificate-errors-spki-list) and names sent by
// --host-resolver-rules MAP do not stop pooling (SpdySession::CanPool).
// h2e is served by the Caddy that serves h3, which announces h3 (Alt-Svc):
// every request of it, and of a load after the announcement, must still go
// over h2 (CDP's protocol, Resource Timing's nextHopProtocol).
const assert = require('node:assert/strict')
const { openReplayInChromium, closeReplayInChromium } = require('../../../support/replay-chromium')
// The page: a script of a.example, an image of b.example (no JSON: Chromium's ORB blocks it as an image), a stylesheet of c.example:8443.
// EXPECTED: what the page loads, and the bytes each answer carries (decoded).
const { PAGE, LOADED: EXPECTED } = require('../../../support/replay-run')
const { h2benchHar, PNG } = require('../har-fixture')

// A subresource of a.example's own site, recorded at a.example's address under its certificate.
const SAME_SITE = 'https://static.a.example/s.png'
const SITE_PAGE = PAGE.replace('\n', `<img src="${SAME_SITE}">\n`)
const LOADED = { ...EXPECTED, 'https://a.example/': Buffer.byteLength(SITE_PAGE), [SAME_SITE]: PNG.length }

function siteHar () {
  const har = h2benchHar()
  const page = har.log.entries.find(e => e.request.url === 'https://a.example/')
  page.response.content = { size: Buffer.byteLength(SITE_PAGE), mimeType: 'text/html', text: SITE_PAGE }
  const logo = har.log.entries.find(e => e.request.url === 'https://b.example/logo.png')
  har.log.entries.push({ ...logo, request: { ...logo.request, url: SAME_SITE }, _h2bench: { ...logo._h2bench, origin: new URL(SAME_SITE).origin } })
  const a = har.log._h2bench.origins.find(o => o.host === 'a.example')
  har.log._h2bench.origins.push({ ...a, origin: new URL(SAME_SITE).origin, host: new URL(SAME_SITE).hostname, certNames: [...a.certNames, 'static.a.example'] })
  a.certNames = [...a.certNames, 'static.a.example']
  for (const o of har.log._h2bench.origins) if (o.certId === a.certId) o.certNames = a.certNames
  return har
}

// What CDP's and Resource Timing's protocol must say for each replay protocol.
const WIRE = { h2: 'h2', h2e: 'h2', h3: 'h3' }

for (const protocol of ['h2', 'h2e', 'h3']) {
  describe(`server/replay in Chromium over ${protocol}`, function () {
    this.timeout(120000)
    const state = {}
    before(async function () { await openReplayInChromium(this, state, siteHar(), { protocol }) })
    after(() => closeReplayInChromium(state))

    it('loads every subresource from the replay, over the protocol forced, at the planned addresses', async () => {
      const { replay, chrome } = state
      const page = await chrome.context.newPage()
      const cdp = await page.createCDPSession()
      const seen = new Map()
      const done = new Map()
      cdp.on('Network.responseReceived', e => seen.set(e.requestId, e.response))
      cdp.on('Network.loadingFinished', e => done.set(e.requestId, e.encodedDataLength))
      await cdp.send('Network.enable')
      const nav = await page.goto('https://a.example/', { waitUntil: 'load' })
      assert.equal(nav.status(), 200)
      // loadingFinished of the last subresource may come just after the load event
      for (let i = 0; i < 50 && done.size < seen.size; i++) await new Promise(resolve => setTimeout(resolve, 100))
      const responses = [...seen.values()]
      const byUrl = new Map(responses.map(r => [r.url, r]))
      for (const [url, length] of Object.entries(LOADED)) {
        const r = byUrl.get(url)
        assert.ok(r, `${url} was not loaded: ${[...byUrl.keys()].join(', ')}`)
        const planned = replay.origins.find(o => o.origin === new URL(url).origin)
        assert.equal(r.status, 200, url)
        assert.equal(r.protocol, WIRE[protocol], url)
        assert.equal(r.remoteIPAddress, planned.address, url)
        assert.equal(r.remotePort, planned.port, url)
        const requestId = [...seen].find(([, x]) => x === r)[0]
        const got = await cdp.send('Network.getResponseBody', { requestId })
        const body = Buffer.from(got.body, got.base64Encoded ? 'base64' : 'utf8')
        assert.equal(body.length, length, url)
        if (url.endsWith('/logo.png')) assert.deepEqual(body, PNG)
      }
      process.stdout.write(`      (connections: ${responses.map(r => `${new URL(r.url).host} ${r.connectionId}`).join(', ')})\n`)
      const connection = url => byUrl.get(url).connectionId
      assert.equal(connection(SAME_SITE), connection('https://a.example/'), `${SAME_SITE} did not ride a.example's connection`)
      const served = replay.app.served().byOrigin
      for (const o of replay.origins) assert.ok(served[o.origin] >= 1, `${o.origin}: ${JSON.stringify(served)}`)
      const misses = replay.app.misses().requests.filter(m => !m.url.endsWith('/favicon.ico'))
      assert.deepEqual(misses, [])
      await page.close()
    })

    if (protocol === 'h2e') {
      it('h2e: Caddy announces its h3, yet a load after the announcement goes over h2 too, every request (nextHopProtocol)', async () => {
        const page = await state.chrome.context.newPage()
        const cdp = await page.createCDPSession()
        const seen = []
        cdp.on('Network.responseReceived', e => seen.push(e.response))
        await cdp.send('Network.enable')
        await cdp.send('Network.setCacheDisabled', { cacheDisabled: true })
        await page.goto('https://a.example/', { waitUntil: 'load' })
        assert.ok(seen.some(r => /h3=":\d+"/.test(r.headers['alt-svc'] || r.headers['Alt-Svc'] || '')), `no Alt-Svc h3 from the edge: ${JSON.stringify(seen.map(r => r.headers))}`)
        const hops = await page.evaluate(() => [performance.getEntriesByType('navigation')[0], ...performance.getEntriesByType('resource')].map(e => [e.name, e.nextHopProtocol]))
        // Resource Timing gives a cross-origin resource's protocol only with Timing-Allow-Origin: the page's own at least.
        const known = hops.filter(([url, hop]) => url in LOADED && hop)
        assert.ok(known.some(([url]) => url === 'https://a.example/'), JSON.stringify(hops))
        assert.deepEqual(known.filter(([, hop]) => hop !== 'h2'), [], JSON.stringify(hops))
        // CDP's protocol of every response, the page's and every subresource's.
        assert.deepEqual(Object.keys(LOADED).filter(url => !seen.some(r => r.url === url)), [])
        assert.deepEqual(seen.filter(r => r.protocol !== 'h2').map(r => `${r.url} ${r.protocol}`), [])
        await page.close()
      })
    }
  })
}

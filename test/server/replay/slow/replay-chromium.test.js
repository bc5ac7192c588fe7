'use strict'

// The replay in real Chromium: the constructed three-origin site
// (test/server/replay/har-fixture.js, its page now referring to all three
// origins) replayed over h2 and h3 at the recorded names and ports, the
// browser sent there by --host-resolver-rules and trusting the replay's
// leaves by their SPKI hashes (both through launchBrowser's protocolArgs, the
// switches a site run forces a protocol with). Every subresource must come
// from the replay (CDP: the address and port the plan gave its origin, the
// protocol forced, the status and length recorded) and the replay must
// have answered each origin; nothing else may have missed but a favicon.
// Not asserted: that Chromium coalesces a.example and b.example onto one
// connection. The leaf allows it (the integration test shows one node:http2
// session serving both), but Chromium pools a session for another name only
// when its certificate verified without error (SpdySession::CanPool), and a
// leaf trusted through --ignore-certificate-errors-spki-list is an error
// ignored: it opens one connection per origin (the ids are printed).
const assert = require('node:assert/strict')
const { openReplayInChromium, closeReplayInChromium } = require('../../../support/replay-chromium')
// The page: a script of a.example, an image of b.example (no JSON: Chromium's ORB blocks it as an image), a stylesheet of c.example:8443.
// EXPECTED: what the page loads, and the bytes each answer carries (decoded).
const { PAGE, LOADED: EXPECTED } = require('../../../support/replay-run')
const { h2benchHar, PNG } = require('../har-fixture')

function siteHar () {
  const har = h2benchHar()
  const page = har.log.entries.find(e => e.request.url === 'https://a.example/')
  page.response.content = { size: Buffer.byteLength(PAGE), mimeType: 'text/html', text: PAGE }
  return har
}

for (const protocol of ['h2', 'h3']) {
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
      for (const [url, length] of Object.entries(EXPECTED)) {
        const r = byUrl.get(url)
        assert.ok(r, `${url} was not loaded: ${[...byUrl.keys()].join(', ')}`)
        const planned = replay.origins.find(o => o.origin === new URL(url).origin)
        assert.equal(r.status, 200, url)
        assert.equal(r.protocol, protocol, url)
        assert.equal(r.remoteIPAddress, planned.address, url)
        assert.equal(r.remotePort, planned.port, url)
        const requestId = [...seen].find(([, x]) => x === r)[0]
        const got = await cdp.send('Network.getResponseBody', { requestId })
        const body = Buffer.from(got.body, got.base64Encoded ? 'base64' : 'utf8')
        assert.equal(body.length, length, url)
        if (url.endsWith('/logo.png')) assert.deepEqual(body, PNG)
      }
      process.stdout.write(`      (connections: ${responses.map(r => `${new URL(r.url).host} ${r.connectionId}`).join(', ')})\n`)
      const served = replay.app.served().byOrigin
      for (const o of replay.origins) assert.ok(served[o.origin] >= 1, `${o.origin}: ${JSON.stringify(served)}`)
      const misses = replay.app.misses().requests.filter(m => !m.url.endsWith('/favicon.ico'))
      assert.deepEqual(misses, [])
      await page.close()
    })
  })
}

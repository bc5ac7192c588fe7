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
const { launchBrowser } = require('../../../support/browser')
const { findChrome, INSTALL_HINT } = require('../../../../harness/chromium')
const { archiveFromHar } = require('../../../../server/replay/archive')
const { startReplay } = require('../../../../server/replay/serve')
const { mayBuildHere } = require('../../../../link/namespace')
const { edgeUnavailableReason } = require('../../../../server/edge/caddy')
const { h2benchHar, PNG, BODIES } = require('../har-fixture')

const PAGE = '<!doctype html><title>replay</title><script src="/app.js?v=1"></script>' +
  '<img src="https://b.example/logo.png">' + // (no JSON: Chromium's ORB blocks it as an image)
  '<link rel="stylesheet" href="https://c.example:8443/gone">\n'
// What the page loads, and the bytes each answer carries (decoded).
const EXPECTED = {
  'https://a.example/': Buffer.byteLength(PAGE),
  'https://a.example/app.js?v=1': BODIES['https://a.example/app.js?v=1'].length,
  'https://b.example/logo.png': PNG.length,
  'https://c.example:8443/gone': 1234
}

function skipUnless (ctx, why) {
  if (!why) return
  process.stdout.write(`      (skipped: ${why})\n`)
  ctx.skip()
}

function siteHar () {
  const har = h2benchHar()
  const page = har.log.entries.find(e => e.request.url === 'https://a.example/')
  page.response.content = { size: Buffer.byteLength(PAGE), mimeType: 'text/html', text: PAGE }
  return har
}

for (const protocol of ['h2', 'h3']) {
  describe(`server/replay in Chromium over ${protocol}`, function () {
    this.timeout(120000)
    let replay = null
    let chrome = null

    before(async function () {
      skipUnless(this, !findChrome() && `no Chrome or Chromium: ${INSTALL_HINT}`)
      skipUnless(this, !mayBuildHere() && 'the replay binds the recorded ports (443, 8443): needs test/run.js\'s private namespace')
      skipUnless(this, protocol === 'h3' && edgeUnavailableReason())
      replay = await startReplay(archiveFromHar(siteHar(), { file: 'fixture.har' }), { protocol })
      const hostRules = `--host-resolver-rules=${replay.hostResolverRules}`
      const protocolArgs = protocol === 'h3'
        ? ['--enable-quic', `--origin-to-force-quic-on=${replay.origins.map(o => `${o.host}:${o.port}`).join(',')}`, hostRules]
        : ['--disable-quic', hostRules]
      chrome = await launchBrowser({ spki: replay.spki.join(','), protocolArgs, handleSignals: false })
    })
    after(async () => {
      if (chrome) await chrome.close()
      if (replay) await replay.close()
    })

    it('loads every subresource from the replay, over the protocol forced, at the planned addresses', async () => {
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

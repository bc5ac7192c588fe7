'use strict'

// Every origin of a private CA trusted by the throw-away browser (issue 42): a page on one origin loading from
// several others, each origin with a leaf of its own from one CA, on real servers on this namespace's loopback
// (test/support/ca-site.js: a Caddy per origin, and nginx), loaded through the real launchers with that CA.
// Chromium is given the CA through the NSS database of its throw-away home ($HOME/.pki/nssdb,
// harness/chromium/headless.js), Firefox through its throw-away profile's (harness/firefox/profile.js), both
// made by harness/nss-trust.js. What must hold: every request to every origin of the CA succeeds, over the
// protocol forced; an origin whose leaf another CA signed is refused (the CA is trusted, not every
// certificate); the user's own home is never written (HOME points at a folder of the test's, which must stay
// empty) and the launch's home goes with the browser. The controls show the test can fail: trusting the
// page's leaf alone (what `--ca` gave Chromium before: its SPKI hash) loses every other origin, and no CA at
// all loses the page.
const assert = require('node:assert/strict')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { execFileSync } = require('node:child_process')
const { launchBrowser } = require('../../../harness/chromium/headless')
const { findChrome } = require('../../../harness/chromium')
const { launchFirefox, firefoxUnavailableReason } = require('../../../harness/firefox')
const { firefoxProtocolPrefs } = require('../../../harness/force-protocol')
const { startCaSite } = require('../../support/ca-site')
const { makePrivateCa } = require('../../support/private-ca')

const LOAD_TIMEOUT_MS = 30000

function skipUnless (ctx, why) {
  if (!why) return
  process.stdout.write(`      (skipped: ${why})\n`)
  ctx.skip()
}

describe('every origin of a private CA trusted by the throw-away browser (harness/nss-trust.js)', function () {
  this.timeout(240000)
  let site = null
  let fakeHome = null
  const realHome = process.env.HOME

  before(async function () {
    try {
      site = await startCaSite({ caddyOrigins: 3, nginx: true, stranger: true })
    } catch (err) {
      if (!err.missing) throw err
      skipUnless(this, err.message)
    }
    // The "user's home" for these launches: a folder of the test's that nothing may write into.
    fakeHome = fs.mkdtempSync(path.join(os.tmpdir(), 'h2bench-fake-home-'))
    process.env.HOME = fakeHome
  })
  after(async () => {
    process.env.HOME = realHome
    if (site) await site.close()
    if (fakeHome) fs.rmSync(fakeHome, { recursive: true, force: true })
  })
  afterEach(() => {
    if (fakeHome) assert.deepEqual(fs.readdirSync(fakeHome), [], `the user's own home ($HOME) was written to: ${require('node:child_process').execFileSync('find', [fakeHome]).toString()}`)
  })

  const ofCa = () => site.origins.slice(1).filter(o => !o.stranger)
  const subresources = o => [`img ${o.url}/pixel.png`, `script ${o.url}/s.js`, `fetch ${o.url}/data.txt`]

  // Loads the page in `page`: → { outcomes (window.outcomes: 'kind url' → loaded), failed (requestfailed: url →
  // error), navProtocol (the page's, Navigation Timing's nextHopProtocol) }; `gotoError` when the page itself failed.
  async function loadSite (page) {
    const failed = {}
    page.on('requestfailed', r => { failed[r.url()] = r.failure() ? r.failure().errorText : 'failed' })
    try {
      await page.goto(site.pageUrl, { waitUntil: 'load', timeout: LOAD_TIMEOUT_MS })
    } catch (err) {
      return { gotoError: err.message, failed, outcomes: null }
    }
    const outcomes = await page.evaluate(() => window.settled)
    const navProtocol = await page.evaluate(() => performance.getEntriesByType('navigation')[0].nextHopProtocol)
    return { outcomes, failed, navProtocol }
  }

  // Every subresource of every origin of the CA loaded, every one of the stranger's refused.
  function assertTrustedByCa (got, what) {
    assert.equal(got.gotoError, undefined, `${what}: ${got.gotoError}`)
    for (const o of ofCa()) {
      for (const r of subresources(o)) assert.equal(got.outcomes[r], true, `${what}: ${r} (${o.server}) did not load: ${JSON.stringify(got.failed)}`)
    }
    const stranger = site.origins.find(o => o.stranger)
    for (const r of subresources(stranger)) assert.equal(got.outcomes[r], false, `${what}: ${r}, signed by another CA, loaded`)
    for (const url of Object.keys(got.failed)) assert.ok(url.startsWith(stranger.url), `${what}: ${url} failed (${got.failed[url]})`)
  }

  // Chromium through the real launcher; `cdp` protocols by URL (Network.responseReceived) beside loadSite's.
  async function inChromium (options, fn) {
    const b = await launchBrowser({ handleSignals: false, ...options })
    try {
      const page = (await b.context.pages())[0] || await b.context.newPage()
      const cdp = await page.createCDPSession()
      const protocols = {}
      cdp.on('Network.responseReceived', e => { protocols[e.response.url] = e.response.protocol })
      await cdp.send('Network.enable')
      const got = await loadSite(page)
      return await fn({ ...got, protocols }, b)
    } finally {
      await b.close()
      assert.equal(fs.existsSync(b.userDataDir), false, 'the profile and its home outlive the browser')
    }
  }

  describe('Chromium (the measuring launcher, puppeteer-core)', () => {
    before(function () {
      skipUnless(this, findChrome() ? null : 'no Chromium')
    })

    it('HTTP/1.1: the CA (a file) trusted in an NSS database of the throw-away home; every origin of the CA loads', async () => {
      await inChromium({ ca: site.caFile, protocolArgs: ['--disable-http2', '--disable-quic'] }, (got, b) => {
        assertTrustedByCa(got, 'h1')
        for (const o of ofCa()) assert.equal(got.protocols[`${o.url}/s.js`], 'http/1.1', o.url)
        // The database Chromium read, in its own home inside the profile: the CA, trusted to issue server certificates.
        assert.ok(b.home.startsWith(b.userDataDir + path.sep), b.home)
        const listed = execFileSync('certutil', ['-L', '-d', `sql:${path.join(b.home, '.pki', 'nssdb')}`], { encoding: 'utf8' })
        assert.match(listed, /h2bench trusted CA\s+C,,/, listed)
        assert.match(b.caSubject, /CN=h2bench test private CA/)
      })
    })

    it('HTTP/2: the CA given as PEM text; every origin of the CA loads over HTTP/2, the stranger\'s is refused', async () => {
      await inChromium({ ca: site.caPem, protocolArgs: ['--disable-quic'] }, got => {
        assertTrustedByCa(got, 'h2')
        for (const o of ofCa()) assert.equal(got.protocols[`${o.url}/s.js`], 'h2', o.url)
        const stranger = site.origins.find(o => o.stranger)
        assert.match(got.failed[`${stranger.url}/s.js`], /ERR_CERT_AUTHORITY_INVALID/)
      })
    })

    it('HTTP/3 for the origins forced onto QUIC: trusted by the CA alone (no SPKI hash), nginx\'s origin over TCP', async () => {
      const quic = site.origins.filter(o => o.server === 'caddy').map(o => new URL(o.url).host)
      await inChromium({ ca: site.caFile, protocolArgs: ['--enable-quic', `--origin-to-force-quic-on=${quic.join(',')}`] }, got => {
        assertTrustedByCa(got, 'h3')
        assert.equal(got.protocols[site.pageUrl], 'h3')
        for (const o of ofCa()) assert.equal(got.protocols[`${o.url}/s.js`], o.server === 'caddy' ? 'h3' : 'h2', o.url)
      })
    })

    it('QUIC allowed, not forced (record\'s switches): every origin loads, over TCP (Chromium takes QUIC after Alt-Svc only from a root of its own store)', async () => {
      await inChromium({ ca: site.caFile, protocolArgs: ['--enable-quic'] }, async (got, b) => {
        assertTrustedByCa(got, 'alt-svc')
        // A second load: Caddy's Alt-Svc is known by now, and QUIC is tried and refused (docs/site.md says so; if
        // this fails, Chromium has changed and the docs should say what it does now).
        const page = (await b.context.pages())[0]
        const cdp = await page.createCDPSession()
        const protocols = []
        cdp.on('Network.responseReceived', e => protocols.push(`${e.response.url} ${e.response.protocol}`))
        await cdp.send('Network.enable')
        await cdp.send('Network.setCacheDisabled', { cacheDisabled: true })
        const again = await loadSite(page)
        assertTrustedByCa(again, 'alt-svc, second load')
        assert.ok(protocols.length > 0 && protocols.every(p => !p.endsWith(' h3')), protocols.join('\n'))
      })
    })

    it('control: the page\'s leaf alone trusted (its SPKI hash, what --ca gave Chromium before): every other origin fails', async () => {
      await inChromium({ spki: site.origins[0].spki, protocolArgs: ['--disable-quic'] }, got => {
        assert.equal(got.gotoError, undefined, got.gotoError)
        for (const o of site.origins.slice(1)) {
          for (const r of subresources(o)) assert.equal(got.outcomes[r], false, `${r} loaded with the page's leaf alone trusted`)
          assert.match(got.failed[`${o.url}/s.js`], /ERR_CERT_AUTHORITY_INVALID/, o.url)
        }
      })
    })

    it('control: no CA at all: the page itself is refused', async () => {
      await inChromium({ protocolArgs: ['--disable-quic'] }, got => {
        assert.match(String(got.gotoError), /ERR_CERT_AUTHORITY_INVALID/)
      })
    })
  })

  describe('Firefox (its throw-away profile\'s NSS database, the same module)', () => {
    before(function () {
      skipUnless(this, firefoxUnavailableReason())
    })

    async function inFirefox (options, fn) {
      const ff = await launchFirefox(options)
      try {
        return await fn(await loadSite(ff.page))
      } finally {
        await ff.close()
      }
    }

    for (const [protocol, wire] of [['h1', 'http/1.1'], ['h2', 'h2']]) {
      it(`${protocol}: every origin of the CA loads, the stranger's is refused`, async () => {
        await inFirefox({ caFile: site.caFile, prefs: firefoxProtocolPrefs(protocol, site.pageUrl, { customCa: true }) }, got => {
          assertTrustedByCa(got, `firefox ${protocol}`)
          assert.equal(got.navProtocol, wire)
        })
      })
    }

    it('h3 for the page (forced), the CA as PEM text: the page over HTTP/3, every origin of the CA loads', async () => {
      await inFirefox({ ca: site.caPem, prefs: firefoxProtocolPrefs('h3', site.pageUrl, { customCa: true }) }, got => {
        assertTrustedByCa(got, 'firefox h3')
        assert.equal(got.navProtocol, 'h3')
      })
    })

    it('control: the stranger\'s CA trusted instead: the page itself is refused', async () => {
      const other = fs.mkdtempSync(path.join(os.tmpdir(), 'h2bench-other-ca-'))
      try {
        const unrelated = await makePrivateCa({ leaves: [['127.0.0.9']], name: 'an unrelated CA' })
        fs.writeFileSync(path.join(other, 'ca.pem'), unrelated.caPem)
        await inFirefox({ caFile: path.join(other, 'ca.pem'), prefs: firefoxProtocolPrefs('h2', site.pageUrl, { customCa: true }) }, got => {
          assert.ok(got.gotoError, 'the page loaded though its CA was not trusted')
        })
      } finally {
        fs.rmSync(other, { recursive: true, force: true })
      }
    })
  })
})

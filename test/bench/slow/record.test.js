'use strict'

// npm run bench -- record, the real command in real Chromium, against the tests' static site
// (test/support/static-site.js): two real third-party servers on this namespace's 127.0.0.1, Caddy and
// nginx, two origins by port, one page each, and the same leaf certificate (the fixture signs one
// leaf, for 127.0.0.1 and localhost, and gives it to both). What must hold: the file is HAR 1.2 with
// h2bench's fields; every entry has its body, byte for byte the site's file; each origin carries the
// address the browser connected to, the leaf's names, and an id that is the sha256 of the leaf's DER
// (one id for both: the fixture shares its leaf); every server time is a number ≥ 0.
const assert = require('node:assert/strict')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const crypto = require('node:crypto')
const { findChrome } = require('../../../harness/chromium')
const { startStaticSite, siteBody } = require('../../support/static-site')
const { runNode } = require('../../support/run-node')
const { freePort } = require('../../../server/edge/caddy')

const RUN = path.join(__dirname, '..', '..', '..', 'bin', 'h2bench-run.js')

describe('npm run bench -- record --url … --url … --ca … --out site.har (real Chromium, nginx and Caddy)', function () {
  this.timeout(240000)
  let site = null
  let dir = null
  let result = null
  let har = null
  let leafId = null

  before(async function () {
    if (!findChrome()) {
      process.stdout.write('      (skipped: no Chromium)\n')
      this.skip()
    }
    try {
      site = await startStaticSite({ servers: ['nginx', 'caddy'] })
    } catch (err) {
      if (!err.missing) throw err
      process.stdout.write(`      (skipped: ${err.message})\n`)
      this.skip()
    }
    // The leaf both servers present: the first certificate of the fixture's cert.pem.
    const leafPem = fs.readFileSync(path.join(site.dir, 'tls', 'cert.pem'), 'utf8').split(/(?<=-----END CERTIFICATE-----)/)[0]
    leafId = crypto.createHash('sha256').update(new crypto.X509Certificate(leafPem).raw).digest('hex')
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'h2bench-record-'))
    result = await runNode(RUN, ['record', '--url', site.caddy.url, '--url', site.nginx.url, '--ca', site.caFile, '--out', path.join(dir, 'site.har')])
    if (result.code === 0) har = JSON.parse(fs.readFileSync(path.join(dir, 'site.har'), 'utf8'))
  })
  after(async () => {
    if (site) await site.close()
    if (dir) fs.rmSync(dir, { recursive: true, force: true })
  })

  const origins = () => [site.caddy.url, site.nginx.url].map(u => new URL(u).origin)
  const bytesOf = c => c.encoding === 'base64' ? Buffer.from(c.text, 'base64') : Buffer.from(c.text, 'utf8')

  it('exits 0, progress on stderr, a summary on stdout naming the pages, entries and both origins', () => {
    assert.equal(result.code, 0, `${result.stdout}\n${result.stderr}`)
    assert.match(result.stderr, /page 1\/2: https:\/\/127\.0\.0\.1:\d+\//)
    assert.match(result.stdout, new RegExp(`2 pages, ${2 * site.SITE.requests} entries, ${2 * site.SITE.totalBytes} body bytes, 2 origins`), result.stdout)
    for (const o of origins()) assert.match(result.stdout, new RegExp(`${o.replace(/\./g, '\\.')}  127\\.0\\.0\\.1  h[23]  certificate `), result.stdout)
    assert.match(result.stdout, /every entry has its body/)
    assert.match(result.stdout, /one certificate for /, 'the fixture gives both servers one leaf')
  })

  it('writes valid JSON HAR 1.2: log version, creator, browser, pages, entries with the fields HAR requires', () => {
    const { log } = har
    assert.equal(log.version, '1.2')
    assert.equal(log.creator.name, 'h2bench')
    assert.match(log.browser.name, /Chrom/)
    assert.deepEqual(log.pages.map(p => [p.id, p.title]), [['page_1', site.caddy.url], ['page_2', site.nginx.url]])
    for (const p of log.pages) {
      assert.ok(!Number.isNaN(Date.parse(p.startedDateTime)), p.startedDateTime)
      assert.ok(p.pageTimings.onLoad > 0, JSON.stringify(p))
    }
    assert.equal(log.entries.length, 2 * site.SITE.requests)
    for (const e of log.entries) {
      for (const k of ['pageref', 'startedDateTime', 'time', 'request', 'response', 'cache', 'timings']) assert.ok(k in e, `${e.request.url}: ${k}`)
      for (const k of ['method', 'url', 'httpVersion', 'headers', 'queryString', 'cookies', 'headersSize', 'bodySize']) assert.ok(k in e.request, `${e.request.url}: request.${k}`)
      for (const k of ['status', 'statusText', 'httpVersion', 'headers', 'cookies', 'content', 'redirectURL', 'headersSize', 'bodySize']) assert.ok(k in e.response, `${e.request.url}: response.${k}`)
      for (const k of ['send', 'wait', 'receive']) assert.ok(e.timings[k] >= 0, `${e.request.url}: timings.${k}`)
      assert.equal(typeof e.response.content.mimeType, 'string')
      assert.equal(e.serverIPAddress, '127.0.0.1')
    }
    assert.deepEqual(Object.keys(log._h2bench), ['recorder', 'version', 'recordedAt', 'browser', 'origins'])
    assert.equal(log._h2bench.recorder, 'h2bench record')
    assert.equal(log._h2bench.version, 1)
    assert.match(log._h2bench.browser, /^Chrom\S* \d+\.\d+/)
    assert.ok(!Number.isNaN(Date.parse(log._h2bench.recordedAt)))
  })

  it('every entry has its body, byte for byte the site\'s file, and bodyComplete true', () => {
    for (const origin of origins()) {
      const entries = har.log.entries.filter(e => new URL(e.request.url).origin === origin)
      assert.deepEqual(entries.map(e => new URL(e.request.url).pathname).sort(), [...site.SITE.paths].sort(), origin)
      for (const e of entries) {
        const p = new URL(e.request.url).pathname
        assert.equal(e.response.status, 200, e.request.url)
        assert.equal(e._h2bench.origin, origin)
        assert.equal(e._h2bench.bodyComplete, true, e.request.url)
        assert.ok(bytesOf(e.response.content).equals(siteBody(p)), `${e.request.url}: not the site's bytes`)
        assert.equal(e.response.content.size, site.SITE.bytes[p], e.request.url)
        // the images are not UTF-8 text: base64; the page, style and script are text
        if (p.endsWith('.png')) assert.equal(e.response.content.encoding, 'base64', e.request.url)
        if (p === '/' || p.endsWith('.css')) assert.equal(e.response.content.encoding, undefined, e.request.url)
      }
    }
  })

  it('each origin: its address, port, the leaf\'s names, the sha256 of the leaf\'s DER (one leaf, one id), a round trip and its protocol', () => {
    const recorded = har.log._h2bench.origins
    assert.deepEqual(recorded.map(o => o.origin), origins())
    for (const o of recorded) {
      const u = new URL(o.origin)
      assert.equal(o.host, '127.0.0.1')
      assert.equal(o.port, Number(u.port))
      assert.equal(o.address, '127.0.0.1')
      assert.ok(o.certNames.includes('localhost') && o.certNames.includes('127.0.0.1'), JSON.stringify(o.certNames))
      assert.equal(o.certId, leafId, `${o.origin}: the sha256 of the leaf's DER`)
      assert.ok(typeof o.rttMs === 'number' && o.rttMs > 0, JSON.stringify(o))
      assert.ok(['browser', 'tcp-connect'].includes(o.rttFrom), JSON.stringify(o))
      // The protocol most of its responses came over (Chromium may move to h3 on Caddy's Alt-Svc).
      const spoke = har.log.entries.filter(e => e._h2bench.origin === o.origin).map(e => e._protocol)
      assert.ok(spoke.filter(p => p === o.protocol).length * 2 >= spoke.length, `${o.origin}: ${o.protocol} of ${spoke}`)
    }
    const [caddy, nginx] = recorded
    assert.ok(['h2', 'h3'].includes(caddy.protocol), caddy.protocol)
    assert.equal(nginx.protocol, 'h2')
  })

  it('a page that does not load: its failed request recorded and named, exit code 1', async () => {
    // A port of this namespace's loopback that was free a moment ago: nothing listens there.
    const port = await freePort('127.0.0.1')
    const url = `https://127.0.0.1:${port}/`
    const file = path.join(dir, 'refused.har')
    const refused = await runNode(RUN, ['record', '--url', url, '--out', file])
    assert.equal(refused.code, 1, `${refused.stdout}\n${refused.stderr}`)
    assert.ok(refused.stderr.includes(`failed: ${url}: the page did not load: net::ERR_CONNECTION_REFUSED`), refused.stderr)
    assert.ok(refused.stdout.includes(`1 entry without a (complete) body:\n  GET ${url} (net::ERR_CONNECTION_REFUSED)`), refused.stdout)
    const { log } = JSON.parse(fs.readFileSync(file, 'utf8'))
    assert.deepEqual(log.entries.map(e => [e.response.status, e._error, e._h2bench.bodyComplete, e._h2bench.serverTimeMs]), [[0, 'net::ERR_CONNECTION_REFUSED', false, null]])
    assert.deepEqual(log._h2bench.origins, [], 'an origin that never answered is no origin to replay')
  })

  it('every entry\'s server time is a number ≥ 0, and no more than its request\'s send and wait', () => {
    for (const e of har.log.entries) {
      const t = e._h2bench.serverTimeMs
      assert.ok(typeof t === 'number' && t >= 0, `${e.request.url}: ${t} (timings ${JSON.stringify(e.timings)})`)
      // from the request sent (sendEnd, or sendStart when Chromium notes the first byte before sendEnd) to its first byte
      assert.ok(t <= e.timings.send + e.timings.wait + 0.002, `${e.request.url}: ${t} > send + wait ${JSON.stringify(e.timings)}`)
    }
  })
})

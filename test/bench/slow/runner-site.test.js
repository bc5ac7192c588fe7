'use strict'

const assert = require('node:assert/strict')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { validateResults } = require('../../../bench/report/runner/results-schema')
const { findChrome } = require('../../../harness/chromium')
const { firefoxUnavailableReason } = require('../../../harness/firefox')
const { startStaticSite } = require('../../support/static-site')
const { startSiteBehindNat, outsideNamespaceEnv, throughNat } = require('../../support/site-behind-nat')
const { runNode } = require('../../support/run-node')

const RUN = path.join(__dirname, '..', '..', '..', 'bin', 'h2bench-run.js')
const REPEATS = 2
const WIRE = { h1: 'http/1.1', h2: 'h2', h3: 'h3' }

// "Any HTTPS site", the real command, against two real third-party servers
// this test starts on its own loopback (never another address): Debian's
// nginx (HTTP/1.1 and HTTP/2) and the pinned Caddy (and HTTP/3), one plain
// static site of known files (test/support/static-site.js), its CA given with
// --ca. What must hold whatever the figures: every protocol forced is the one
// every request spoke; the HAR of every load holds exactly the site's
// requests and bytes; nginx's own access log counts the requests the HARs say
// went to the network, by protocol; a protocol the server lacks fails, said
// per row; no time to first byte beats its round trips.
describe('npm run bench -- site --url … --ca … --browser both (the real command, nginx and Caddy)', function () {
  this.timeout(420000)
  let site = null
  let dir = null
  let result = null
  let json = null
  let report = null
  let browsers = ['chromium', 'firefox']

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
    const noFirefox = firefoxUnavailableReason()
    if (noFirefox) {
      process.stdout.write(`      (Firefox left out: ${noFirefox})\n`)
      browsers = ['chromium']
    }
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'h2bench-runner-site-'))
    result = await runNode(RUN, ['site', '--url', site.caddy.url, '--url', site.nginx.url, '--ca', site.caFile,
      '--browser', browsers.length > 1 ? 'both' : 'chromium', '--repeats', String(REPEATS), '--out', dir])
    json = JSON.parse(fs.readFileSync(path.join(dir, 'results.json'), 'utf8'))
    report = fs.readFileSync(path.join(dir, 'report.md'), 'utf8')
  })
  after(async () => {
    if (site) await site.close()
    if (dir) fs.rmSync(dir, { recursive: true, force: true })
  })

  const rowsAt = url => json.results.filter(r => r.site.url === url)

  it('exits 0 with a results.json that matches its schema, the pages, protocols and CA recorded, both browsers named', () => {
    assert.equal(result.code, 0, result.stderr)
    assert.deepEqual(validateResults(json), [])
    assert.deepEqual(json.environment.site, { urls: [site.caddy.url, site.nginx.url], protocols: ['h1', 'h2', 'h3'], ca: site.caFile, link: null })
    assert.match(json.environment.chromium, /Chromium|Chrome/)
    if (browsers.includes('firefox')) assert.match(json.environment.firefox, /Firefox/)
    // A row per page, browser, protocol and view.
    assert.equal(json.results.length, 2 * browsers.length * 3 * 2)
  })

  it('Caddy: every protocol forced in every browser, cold and repeat view, every load good and every request over that protocol', () => {
    for (const r of rowsAt(site.caddy.url)) {
      const what = `${r.browser} ${r.lane} ${r.mode}: ${r.note}`
      assert.equal(r.failures, 0, what)
      assert.equal(r.repeatsGot, REPEATS, what)
      assert.equal(r.protocol, WIRE[r.lane], what)
      // Every request over the protocol forced, or (a repeat view's) answered from the browser's cache.
      const tally = Object.fromEntries(r.site.protocols.split(', ').map(x => x.split(' ×')).map(([k, n]) => [k, Number(n)]))
      assert.deepEqual(Object.keys(tally).filter(k => k !== WIRE[r.lane] && !(k === 'cache' && r.mode === 'repeat')), [], what)
      assert.equal(Object.values(tally).reduce((a, n) => a + n, 0), REPEATS * site.SITE.requests, what)
      assert.doesNotMatch(r.note || '', /INSTRUMENT ERROR/, what)
    }
  })

  it('every cold load\'s HAR holds the site\'s requests, its bodies byte for byte, and the connections the protocol needs', () => {
    for (const r of json.results.filter(x => x.mode === 'cold' && x.failures === 0)) {
      for (const load of r.site.loads) {
        const what = `${r.browser} ${r.lane} ${r.site.url === site.caddy.url ? 'Caddy' : 'nginx'} repeat ${load.repeat}: ${JSON.stringify(load)}`
        assert.equal(load.requests, site.SITE.requests, what)
        assert.equal(load.failedRequests, 0, what)
        assert.equal(load.bodyBytes, site.SITE.totalBytes, what)
        assert.ok(load.bytes > site.SITE.totalBytes, `${what}: ${load.bytes} bytes on the wire, headers included`)
        assert.equal(load.fromCache, 0, what)
        // One connection for HTTP/2 and 3 (every request multiplexed), up to six for HTTP/1.1.
        if (r.lane === 'h1') assert.ok(load.newConnections >= 1 && load.newConnections <= 6, `${what}: ${load.newConnections}`)
        else assert.equal(load.newConnections, 1, `${what} (${load.connectionsBy})`)
        const har = JSON.parse(fs.readFileSync(path.join(dir, load.har), 'utf8'))
        assert.equal(har.log.version, '1.2')
        assert.equal(har.log.entries.length, site.SITE.requests, what)
        assert.deepEqual(har.log.entries.map(e => new URL(e.request.url).pathname).sort(), [...site.SITE.paths].sort(), what)
        assert.deepEqual(har.log.entries.map(e => `${e._protocol} ${e.response.status}`), har.log.entries.map(() => `${WIRE[r.lane]} 200`), what)
        assert.ok(load.ttfb <= load.onload && load.fcp > 0 && load.lcp >= load.fcp, `${what}: ${JSON.stringify(load)}`)
      }
    }
  })

  it('every load has a HAR file of its own', () => {
    const files = json.results.flatMap(r => r.site.loads.map(l => l.har))
    assert.equal(new Set(files).size, files.length)
    assert.deepEqual(fs.readdirSync(path.join(dir, 'har')).sort(), files.map(f => path.basename(f)).sort())
  })

  it('a repeat view opens no connection the cold load left open, and every time to first byte holds its bound', () => {
    for (const r of json.results.filter(x => x.failures === 0)) {
      for (const load of r.site.loads) {
        const what = `${r.browser} ${r.lane} ${r.mode} ${r.site.url}`
        if (r.mode === 'repeat' && r.lane !== 'h1') assert.equal(load.newConnections, 0, `${what} (${load.connectionsBy})`)
        if (load.documentFromCache) assert.equal(load.ttfb, null, `${what}: a document from the cache has no time to first byte`)
        else assert.ok(load.ttfb >= load.ttfbRounds * r.site.rttMs, `${what}: ${load.ttfb} ms < ${load.ttfbRounds} × ${r.site.rttMs} ms`)
      }
      assert.equal(r.site.ttfbBelowBound, false)
    }
  })

  it('nginx counted in its own log the requests the HARs say went to the network, by protocol', () => {
    const logged = { 'HTTP/1.1': 0, 'HTTP/2.0': 0 }
    for (const line of fs.readFileSync(site.nginx.accessLog, 'utf8').split('\n')) {
      const m = /^(HTTP\/[\d.]+) GET /.exec(line) // test/support/nginx.js log_format site
      if (m && m[1] in logged) logged[m[1]]++
    }
    const fromHars = { 'HTTP/1.1': 0, 'HTTP/2.0': 0 }
    // Every load's requests by the protocol they spoke (a load of the h3 rows that fell back to HTTP/2 included).
    for (const r of rowsAt(site.nginx.url)) {
      for (const load of r.site.loads) {
        fromHars['HTTP/1.1'] += load.protocols['http/1.1'] || 0
        fromHars['HTTP/2.0'] += load.protocols.h2 || 0
      }
    }
    assert.deepEqual(logged, fromHars)
    assert.ok(fromHars['HTTP/2.0'] >= 2 * REPEATS * browsers.length * site.SITE.requests / 2)
  })

  it('nginx has no HTTP/3: its h3 rows fail and say why; the verdicts and the report speak of the page', () => {
    for (const r of rowsAt(site.nginx.url).filter(x => x.lane === 'h3')) {
      assert.equal(r.repeatsGot, 0, `${r.browser} ${r.mode}`)
      assert.equal(r.failures, REPEATS)
      assert.match(r.note, /QUIC|not h3|cold load failed/, `${r.browser} ${r.mode}: ${r.note}`)
    }
    assert.match(report, new RegExp(`^# h2bench: ${site.caddy.url.replace(/[.]/g, '\\.')}, ${site.nginx.url.replace(/[.]/g, '\\.')} per protocol`, 'm'))
    assert.match(report, /HTTP\/2 loads the page \(onload\) faster than HTTP\/1\.1, cold and as a repeat view\*\*: not measured/)
    assert.match(report, /\| browser \| forced \| view \| good loads \| TTFB \| TTFB bound \|/)
  })
})

// The same command behind the packet-level link (--link), the origin reached by NAT: the runner starts
// itself again in a namespace of its own (as it does from a shell: the test's namespace mark is left out
// of its environment), slirp4netns gives that namespace a way out to this one, where the servers listen
// on loopback: seen from there, this namespace's loopback is slirp4netns's 10.0.2.2, so the page's URL
// is https://10.0.2.2:port/ (the fixture's leaf names that address too). What must hold: every load
// went through the link (no time to first byte below the link's round trips), over the protocol forced,
// and nginx saw the HARs' requests.
describe('npm run bench -- site --url … --link rtt=40ms (through the link, the origin reached by NAT)', function () {
  this.timeout(300000)
  const RTT = 40
  let site = null
  let dir = null
  let result = null
  let json = null

  before(async function () {
    site = await startSiteBehindNat(this, { servers: ['nginx', 'caddy'] })
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'h2bench-runner-site-nat-'))
    const env = outsideNamespaceEnv()
    result = await runNode(RUN, ['site', '--url', throughNat(site.caddy.url), '--url', throughNat(site.nginx.url), '--protocols', 'h2,h3', '--ca', site.caFile,
      '--link', `rtt=${RTT}ms`, '--repeats', '1', '--out', dir], { env })
    json = JSON.parse(fs.readFileSync(path.join(dir, 'results.json'), 'utf8'))
  })
  after(async () => {
    if (site) await site.close()
    if (dir) fs.rmSync(dir, { recursive: true, force: true })
  })

  it('exits 0; every row behind the link, every Caddy load over its protocol and no faster than the link\'s round trips', () => {
    assert.equal(result.code, 0, result.stderr)
    assert.deepEqual(validateResults(json), [])
    assert.equal(json.environment.site.link, `rtt=${RTT}ms`)
    assert.match(result.stderr, /reached by NAT from the link's namespace \(slirp4netns/)
    for (const r of json.results) {
      assert.equal(r.network, 'link')
      assert.equal(r.linkSpec, `rtt=${RTT}ms`)
      assert.ok(r.site.rttMs >= RTT, `${r.site.rttMs}`)
    }
    for (const r of json.results.filter(x => x.site.url.includes(`:${site.caddy.port}/`))) {
      const what = `${r.lane} ${r.mode}: ${r.note}`
      assert.equal(r.failures, 0, `${what}: ${JSON.stringify(r.site.loads.map(l => l.problem))}`)
      for (const load of r.site.loads) {
        assert.equal(load.protocol, WIRE[r.lane], what)
        // Each load's first byte: its round trips through the link at least (a cold load's handshakes and request: 3 over
        // TCP, 2 over QUIC; a repeat view's request on a kept connection: 1; a document from the cache: none).
        if (r.mode === 'cold') assert.equal(load.ttfbRounds, r.lane === 'h3' ? 2 : 3, what)
        if (!load.documentFromCache) assert.ok(load.ttfb >= load.ttfbRounds * RTT, `${what}: ${JSON.stringify(load)}`)
      }
    }
  })

  it('nginx, reached through the NAT, served over HTTP/2 what the HARs say went to the network; it has no HTTP/3', () => {
    let logged = 0
    for (const line of fs.readFileSync(site.nginx.accessLog, 'utf8').split('\n')) if (/^HTTP\/2\.0 GET /.test(line)) logged++
    const rows = json.results.filter(x => x.site.url.includes(`:${site.nginx.port}/`))
    const fromHars = rows.reduce((n, r) => n + r.site.loads.reduce((m, l) => m + (l.protocols.h2 || 0), 0), 0)
    assert.equal(logged, fromHars)
    assert.ok(fromHars >= site.SITE.requests)
    for (const r of rows.filter(x => x.lane === 'h3')) assert.equal(r.repeatsGot, 0, r.note)
  })
})

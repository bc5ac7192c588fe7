'use strict'

// A good load is a whole load (issue 42), in both browsers through the real command: a page on Debian's nginx with
// its own image and one from an origin where nothing listens (127.0.0.1 port 9, refused at once). Each load loses
// that request below HTTP, so each is a failed load, named in its row with the error, the repeat view not loaded,
// and the report's table names the origin; with --allow-failed for that origin the same loads are good, the failure
// counted as expected. No verdict or median rests on the loads that lost part of the page.
const assert = require('node:assert/strict')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const net = require('node:net')
const { validateResults } = require('../../../bench/report/runner/results-schema')
const { findChrome } = require('../../../harness/chromium')
const { firefoxUnavailableReason } = require('../../../harness/firefox')
const { startStaticSite } = require('../../support/static-site')
const { runNode } = require('../../support/run-node')

const RUN = path.join(__dirname, '..', '..', '..', 'bin', 'h2bench-run.js')
// An origin where nothing listens: a port of this namespace's loopback taken and given back (not a port the browsers
// refuse to ask at all, such as 9, which they block before any connection: Chromium's net::ERR_UNSAFE_PORT, and
// Firefox without a network event).
let DEAD = null
const freePort = () => new Promise((resolve, reject) => {
  const server = net.createServer().listen(0, '127.0.0.1', () => { const { port } = server.address(); server.close(() => resolve(port)) }).once('error', reject)
})

describe('npm run bench -- site: a request that failed below HTTP fails its load, unless --allow-failed expects it (nginx, both browsers)', function () {
  this.timeout(420000)
  let site = null
  let dir = null
  let browsers = ['chromium', 'firefox']
  let page = null
  const runs = {}

  before(async function () {
    if (!findChrome()) {
      process.stdout.write('      (skipped: no Chromium)\n')
      this.skip()
    }
    try {
      site = await startStaticSite({ servers: ['nginx'] })
    } catch (err) {
      if (!err.missing) throw err
      process.stdout.write(`      (skipped: ${err.message})\n`)
      this.skip()
    }
    if (firefoxUnavailableReason()) browsers = ['chromium']
    DEAD = `https://127.0.0.1:${await freePort()}`
    site.writePage('lossy.html', `<!doctype html><html><head><meta charset="utf-8"><title>lossy</title><link rel="icon" href="data:,"></head>
<body><img src="/photo.png" width="40" height="30" alt=""><img src="${DEAD}/gone.png" width="40" height="30" alt=""></body></html>
`)
    page = `${site.nginx.url}lossy.html`
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'h2bench-site-failed-'))
    const base = ['site', '--url', page, '--ca', site.caFile, '--protocols', 'h1', '--repeats', '1', '--browser', browsers.length > 1 ? 'both' : 'chromium']
    for (const [name, extra] of [['strict', []], ['allowed', ['--allow-failed', `${DEAD}/*`]]]) {
      const out = path.join(dir, name)
      const result = await runNode(RUN, [...base, ...extra, '--out', out])
      runs[name] = { result, json: JSON.parse(fs.readFileSync(path.join(out, 'results.json'), 'utf8')), report: fs.readFileSync(path.join(out, 'report.md'), 'utf8') }
    }
  })
  after(async () => {
    if (site) await site.close()
    if (dir) fs.rmSync(dir, { recursive: true, force: true })
  })

  it('without --allow-failed: every cold load failed, named with the refused request; no repeat view, no sample; the report names the origin', () => {
    const { result, json, report } = runs.strict
    assert.equal(result.code, 0, result.stderr)
    assert.deepEqual(validateResults(json), [])
    for (const browser of browsers) {
      const cold = json.results.find(r => r.browser === browser && r.mode === 'cold')
      const repeat = json.results.find(r => r.browser === browser && r.mode === 'repeat')
      assert.deepEqual([cold.samples.length, cold.failures], [0, 1], `${browser}: ${cold.note}`)
      assert.match(cold.note, new RegExp(`1 of \\d+ requests failed below HTTP \\(${DEAD.replace(/[.]/g, '\\.')}/gone\\.png: (net::ERR_CONNECTION_REFUSED|NS_ERROR_\\w+)`), browser)
      assert.deepEqual(cold.site.failed.origins.map(o => [o.origin, o.failed]), [[DEAD, 1]], browser)
      assert.equal(cold.site.loads[0].failures.failed, 1)
      assert.deepEqual([repeat.samples.length, repeat.failures], [0, 1], `${browser}: ${repeat.note}`)
      assert.match(repeat.note, /no repeat view: the cold load failed/)
    }
    assert.match(report, /requests that failed below HTTP/)
    assert.ok(report.includes(`${DEAD} (1: `), report)
  })

  it('with --allow-failed for that origin: the same loads are good, the failure counted as expected', () => {
    const { result, json } = runs.allowed
    assert.equal(result.code, 0, result.stderr)
    assert.deepEqual(validateResults(json), [])
    assert.deepEqual(json.environment.site.allowFailed, [`${DEAD}/*`])
    for (const r of json.results) {
      assert.deepEqual([r.samples.length, r.failures], [1, 0], `${r.browser} ${r.mode}: ${r.note}`)
    }
    for (const browser of browsers) {
      const cold = json.results.find(r => r.browser === browser && r.mode === 'cold')
      assert.deepEqual([cold.site.failed.requests, cold.site.failed.allowed], [0, 1], browser)
    }
  })
})

'use strict'

const assert = require('node:assert/strict')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { validateResults } = require('../../../bench/report/runner/results-schema')
const { findChrome } = require('../../../harness/chromium')
const { startStaticSite } = require('../../support/static-site')
const { runNode } = require('../../support/run-node')

const RUN = path.join(__dirname, '..', '..', '..', 'bin', 'h2bench-run.js')

// --visual, the real command: the tests' static site (Caddy, on this test's own loopback) loaded with h1 and h2
// forced, each load traced with screenshots. What must hold whatever the figures: every load has its visual
// figures, in the order physics gives them (the first visual change before the last, Speed Index between them, none
// before the document's first byte), each row's median load has a filmstrip on disk, and the report shows them.
describe('npm run bench -- site --url … --visual (the real command, Caddy)', function () {
  this.timeout(300000)
  let site = null
  let dir = null
  let result = null
  let json = null
  let report = null

  before(async function () {
    if (!findChrome()) {
      process.stdout.write('      (skipped: no Chromium)\n')
      this.skip()
    }
    try {
      site = await startStaticSite({ servers: ['caddy'] })
    } catch (err) {
      if (!err.missing) throw err
      process.stdout.write(`      (skipped: ${err.message})\n`)
      this.skip()
    }
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'h2bench-runner-visual-'))
    result = await runNode(RUN, ['site', '--url', site.caddy.url, '--ca', site.caFile, '--protocols', 'h1,h2', '--repeats', '2', '--visual', '--out', dir])
    json = JSON.parse(fs.readFileSync(path.join(dir, 'results.json'), 'utf8'))
    report = fs.readFileSync(path.join(dir, 'report.md'), 'utf8')
  })
  after(async () => {
    if (site) await site.close()
    if (dir) fs.rmSync(dir, { recursive: true, force: true })
  })

  it('exits 0 with a results.json that matches its schema', () => {
    assert.equal(result.code, 0, result.stderr)
    assert.deepEqual(validateResults(json), [])
  })

  it('every good load: Speed Index between its first and last visual change, none before its first byte', () => {
    let loads = 0
    for (const r of json.results) {
      for (const l of r.site.loads.filter(x => !x.problem)) {
        const v = l.visual
        const what = `${r.lane} ${r.mode} repeat ${l.repeat}: ${JSON.stringify(v)}`
        assert.equal(v.error, null, what)
        assert.ok(v.firstVisualChangeMs <= v.lastVisualChangeMs, what)
        assert.ok(v.speedIndexMs >= v.firstVisualChangeMs && v.speedIndexMs <= v.lastVisualChangeMs, what)
        // Nothing of the page can be painted before its document's first byte (a repeat view may have it cached).
        if (l.ttfb !== null) assert.ok(v.firstVisualChangeMs >= l.ttfb - 1, `${what}; ttfb ${l.ttfb}`)
        assert.ok(fs.existsSync(path.join(dir, v.filmstrip, 'filmstrip.html')), what)
        loads++
      }
    }
    assert.ok(loads >= 6, `${loads} good loads`)
  })

  it('each row: the medians and its median load\'s filmstrip, and the report\'s visual table', () => {
    for (const r of json.results) {
      assert.ok(r.site.speedIndexMedian > 0, JSON.stringify(r.site))
      assert.ok(fs.readdirSync(path.join(dir, r.site.filmstrip)).some(f => f.endsWith('.jpg')), r.site.filmstrip)
    }
    assert.match(report, /visual progress \(--visual; Chromium/)
    assert.match(report, /filmstrips\/page1-chromium-h2-r\d-cold\/filmstrip\.html/)
  })

  it('the report\'s filmstrip row per protocol: each frame an image of the median load, on disk beside the report, in both formats', () => {
    for (const view of ['cold', 'repeat']) assert.match(report, new RegExp(`filmstrips, ${view} view: the median load \\(by onload\\) of each protocol`))
    const images = [...report.matchAll(/!\[(h[12]) ([\d.]+) s[^\]]*\]\(([^)]+\.jpg)\)/g)]
    for (const lane of ['h1', 'h2']) assert.ok(images.some(m => m[1] === lane), `no ${lane} frame in the report`)
    for (const m of images) assert.ok(fs.existsSync(path.join(dir, m[3])), m[3])
    const html = fs.readFileSync(path.join(dir, 'report.html'), 'utf8')
    assert.ok(images.every(m => html.includes(`<img src="${m[3]}"`)), 'report.html shows the same frames')
  })
})

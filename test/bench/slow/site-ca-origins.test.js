'use strict'

// The real commands (bin/h2bench-run.js) on a site of several origins under one private CA, each origin with a
// leaf of its own (issue 42: `--ca` used to give Chromium the page origin's leaf alone, and every other origin
// failed with ERR_CERT_AUTHORITY_INVALID in every live, recorded and replayed load): three Caddy origins
// (127.0.0.2–4) and nginx (127.0.0.1), this namespace's loopback only (test/support/ca-site.js), the page on the
// first loading an image, a script and a fetch() from each of the others. What must hold: `record --ca` records
// every request with its response, four origins with four leaves; `site --ca` in both browsers over every
// protocol has no failed request in any load or HAR; and `replay` of that recording (its own CA, one leaf per
// recorded certificate) has none either.
const assert = require('node:assert/strict')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { findChrome } = require('../../../harness/chromium')
const { firefoxUnavailableReason } = require('../../../harness/firefox')
const { mayBuildHere } = require('../../../link/namespace')
const { startCaSite, RESOURCES } = require('../../support/ca-site')
const { runNode } = require('../../support/run-node')

const RUN = path.join(__dirname, '..', '..', '..', 'bin', 'h2bench-run.js')

// A HAR's entries that failed below HTTP (no status, or the browser's error).
const failedEntries = har => har.log.entries.filter(e => !e.response.status || e._error).map(e => `${e.request.url} ${e._error || 'status 0'}`)
const originsOf = har => [...new Set(har.log.entries.map(e => new URL(e.request.url).origin))].sort()

describe('npm run bench -- record / site / replay --ca … on a site of four origins, each with a leaf of its own from one CA', function () {
  this.timeout(600000)
  let site = null
  let dir = null
  let browsers = ['chromium', 'firefox']
  let requests = 0

  before(async function () {
    if (!findChrome()) {
      process.stdout.write('      (skipped: no Chromium)\n')
      this.skip()
    }
    try {
      site = await startCaSite({ caddyOrigins: 3, nginx: true })
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
    requests = 1 + (site.origins.length - 1) * RESOURCES.length
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'h2bench-ca-origins-'))
  })
  after(async () => {
    if (site) await site.close()
    if (dir) fs.rmSync(dir, { recursive: true, force: true })
  })

  const trusting = () => new RegExp(`trusting the CA CN=h2bench test private CA from ${site.caFile.replace(/[.]/g, '\\.')} for every origin`)
  const allOrigins = () => site.origins.map(o => o.url).sort()
  const expectedUrls = () => [site.pageUrl, ...site.origins.slice(1).flatMap(o => RESOURCES.map(r => `${o.url}/${r}`))].sort()

  describe('record --ca', () => {
    let result = null
    let har = null
    before(async () => {
      result = await runNode(RUN, ['record', '--url', site.pageUrl, '--ca', site.caFile, '--out', path.join(dir, 'site.har')])
      if (result.code === 0) har = JSON.parse(fs.readFileSync(path.join(dir, 'site.har'), 'utf8'))
    })

    it('exits 0, saying the CA is trusted for every origin (not one leaf)', () => {
      assert.equal(result.code, 0, `${result.stdout}\n${result.stderr}`)
      assert.match(result.stderr, trusting())
      assert.doesNotMatch(result.stdout + result.stderr, /failed|without a \(complete\) body/)
    })

    it('every request of every origin recorded with its response and body; four origins, four leaves', () => {
      assert.deepEqual(failedEntries(har), [])
      assert.equal(har.log.entries.length, requests, har.log.entries.map(e => e.request.url).join('\n'))
      assert.deepEqual(har.log.entries.map(e => e.request.url).sort(), expectedUrls())
      for (const e of har.log.entries) {
        assert.equal(e.response.status, 200, e.request.url)
        assert.equal(e._h2bench.bodyComplete, true, e.request.url)
      }
      assert.deepEqual(originsOf(har), allOrigins())
      const recorded = har.log._h2bench.origins
      assert.deepEqual(recorded.map(o => o.origin).sort(), allOrigins())
      assert.equal(new Set(recorded.map(o => o.certId)).size, site.origins.length, 'each origin its own leaf')
    })
  })

  describe('site --ca', () => {
    let result = null
    let json = null
    const out = () => path.join(dir, 'site')
    before(async () => {
      result = await runNode(RUN, ['site', '--url', site.pageUrl, '--ca', site.caFile, '--protocols', 'h1,h2,h3',
        '--browser', browsers.length > 1 ? 'both' : 'chromium', '--repeats', '1', '--out', out()])
      const file = path.join(out(), 'results.json')
      if (fs.existsSync(file)) json = JSON.parse(fs.readFileSync(file, 'utf8'))
    })

    it('exits 0 saying the CA is trusted for every origin; every row of every browser and protocol good', () => {
      assert.equal(result.code, 0, result.stderr)
      assert.match(result.stderr, trusting())
      assert.equal(json.results.length, browsers.length * 3 * 2)
      for (const r of json.results) {
        const what = `${r.browser} ${r.lane} ${r.mode}: ${r.note}`
        assert.equal(r.failures, 0, what)
        assert.equal(r.repeatsGot, 1, what)
        assert.equal(r.protocol, { h1: 'http/1.1', h2: 'h2', h3: 'h3' }[r.lane], what)
      }
    })

    it('no load lost a request: every cold load\'s HAR has every origin\'s requests and no failed one', () => {
      for (const r of json.results) {
        for (const load of r.site.loads) {
          const what = `${r.browser} ${r.lane} ${r.mode}`
          assert.equal(load.failedRequests, 0, `${what}: ${JSON.stringify(load)}`)
          const har = JSON.parse(fs.readFileSync(path.join(out(), load.har), 'utf8'))
          assert.deepEqual(failedEntries(har), [], what)
          if (r.mode !== 'cold') continue
          // Every resource of every origin asked for (Firefox asked once for one image twice, answered both times).
          assert.deepEqual([...new Set(har.log.entries.map(e => e.request.url))].sort(), expectedUrls(), what)
          assert.ok(load.requests >= requests, `${what}: ${load.requests}`)
          for (const e of har.log.entries) assert.equal(e.response.status, 200, `${what}: ${e.request.url}`)
        }
      }
    })
  })

  // In Chromium: the recording's origins are addresses (127.0.0.x), and Firefox is sent to the replay's by a hosts
  // file, which cannot take an address (the replay says so); Firefox's replay trusted the replay's CA before.
  describe('replay of that recording in Chromium (the replay\'s own CA, one leaf per recorded certificate)', () => {
    let result = null
    let json = null
    const out = () => path.join(dir, 'replay')
    before(function () {
      if (!mayBuildHere()) {
        process.stdout.write('      (skipped: the replay binds 127.0.1.x:443: needs test/run.js\'s private namespace)\n')
        this.skip()
      }
      if (!fs.existsSync(path.join(dir, 'site.har'))) assert.fail('no recording (record --ca failed above)')
    })
    before(async () => {
      result = await runNode(RUN, ['replay', '--har', path.join(dir, 'site.har'), '--protocols', 'h1,h2,h3', '--repeats', '1', '--out', out()])
      const file = path.join(out(), 'results.json')
      if (fs.existsSync(file)) json = JSON.parse(fs.readFileSync(file, 'utf8'))
    })

    it('exits 0; every replayed load of every protocol has every origin\'s requests and no failed one', () => {
      assert.equal(result.code, 0, result.stderr)
      assert.equal(json.results.length, 3 * 2)
      for (const r of json.results) {
        const what = `${r.browser} ${r.lane} ${r.mode}: ${r.note}`
        assert.equal(r.failures, 0, what)
        for (const load of r.site.loads) {
          const har = JSON.parse(fs.readFileSync(path.join(out(), load.har), 'utf8'))
          assert.deepEqual(failedEntries(har), [], what)
          if (r.mode === 'cold') assert.deepEqual([...new Set(har.log.entries.map(e => e.request.url))].sort(), expectedUrls(), what)
        }
      }
    })
  })
})

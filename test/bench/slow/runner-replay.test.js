'use strict'

// `npm run bench -- replay --har …`, the real command (bin/h2bench-run.js), on a
// HAR of three origins built here (test/server/replay/har-fixture.js's
// recorder HAR, its page now loading one resource of each origin, nothing
// else in it): a.example and b.example on one address and certificate,
// c.example:8443 on its own. Replayed over h1, h2, h2e and h3 (h2e and h3
// one Caddy), twice, alternating. What must hold whatever the figures: every load good, every
// request over the protocol forced (or a repeat view's from the cache), each
// cold load's requests and body bytes those of the HAR, the replay missing
// nothing (a favicon at most), the report naming the HAR replayed, and h3
// set against h2e from the one Caddy, node:http2 a reference. Then
// the same HAR less one entry (the script): that request is a miss, counted and named.
const assert = require('node:assert/strict')
const fs = require('node:fs')
const path = require('node:path')
const { validateResults } = require('../../../bench/report/runner/results-schema')
const { edgeUnavailableReason } = require('../../../server/edge/caddy')
const { STATUS_WORDS } = require('../../../bench/report/claims/judge')
const { runNode } = require('../../support/run-node')
const { replayRun, skipUnlessReplayRuns, assertLoadsGood, siteHar, favicon, LOADED, BODY_BYTES, ORIGINS, RUN } = require('../../support/replay-run')

const REPEATS = 2

describe('npm run bench -- replay --har … (the real command, three origins over h1, h2, h2e and h3)', function () {
  this.timeout(600000)
  let run = null
  let dir = null
  let harFile = null
  let result = null
  let json = null
  let report = null
  let protocols = ['h1', 'h2', 'h2e', 'h3']

  before(async function () {
    skipUnlessReplayRuns(this)
    if (edgeUnavailableReason()) {
      process.stdout.write(`      (h3 and h2e left out: ${edgeUnavailableReason()})\n`)
      protocols = ['h1', 'h2']
    }
    run = replayRun('h2bench-runner-replay-');
    ({ dir, harFile } = run);
    ({ result, json } = await run.run(['--protocols', protocols.join(','), '--repeats', String(REPEATS)]))
    report = fs.readFileSync(path.join(dir, 'out', 'report.md'), 'utf8')
  })
  after(() => run && run.cleanup())

  it('exits 0 with a results.json that matches its schema: a row per protocol and view, each naming the HAR replayed', () => {
    assert.equal(result.code, 0, result.stderr)
    assert.deepEqual(validateResults(json), [])
    assert.deepEqual(json.results.map(r => `${r.lane} ${r.mode}`), protocols.flatMap(p => [`${p} cold`, `${p} repeat`]))
    assert.deepEqual(json.environment.replay, { har: harFile, protocols, pages: ['https://a.example/'], recordedAt: '2026-11-27T10:00:00.000Z' })
    for (const r of json.results) {
      assert.equal(r.replay.har, harFile)
      assert.equal(r.replay.recordedAt, '2026-11-27T10:00:00.000Z')
      assert.deepEqual(r.replay.pages, ['https://a.example/'])
      assert.equal(r.replay.source, 'h2bench')
      assert.deepEqual(r.replay.assumed, [])
    }
  })

  it('every load good, over the protocol forced, from the replay', () => {
    // Only the favicon may have missed; nothing else the page asked lacks a recording.
    assertLoadsGood(json, REPEATS)
  })

  it('each cold load: the HAR\'s requests and body bytes, every origin answered by the replay', () => {
    for (const r of json.results.filter(x => x.mode === 'cold')) {
      for (const load of r.site.loads) {
        const what = `${r.lane} repeat ${load.repeat}: ${JSON.stringify(load)}`
        const har = JSON.parse(fs.readFileSync(path.join(dir, 'out', load.har), 'utf8'))
        const urls = har.log.entries.map(e => e.request.url).filter(u => !favicon(u))
        assert.deepEqual(urls.sort(), Object.keys(LOADED).sort(), what)
        assert.equal(load.requests - (har.log.entries.length - urls.length), Object.keys(LOADED).length, what)
        const bodies = har.log.entries.filter(e => !favicon(e.request.url)).reduce((a, e) => a + e.response.bodySize, 0)
        assert.equal(bodies, BODY_BYTES, what)
        assert.equal(load.replay.served, Object.keys(LOADED).length, what)
        assert.deepEqual(Object.keys(load.origins).sort(), ORIGINS, what)
        assert.ok(load.newConnections >= 2, what) // c.example:8443 has an address and certificate of its own
      }
      // The row's fidelity to the recording: every recorded request, per origin too; beyond them only the favicon
      // the browser asked for itself (a miss: this HAR was written by hand, without one).
      const f = r.replay.fidelity
      const extra = r.site.loads.map(l => JSON.parse(fs.readFileSync(path.join(dir, 'out', l.har), 'utf8')).log.entries.filter(e => favicon(e.request.url)).length)
      assert.equal(f.recordedRequests, Object.keys(LOADED).length, JSON.stringify(f))
      assert.ok(extra.includes(f.requests - f.recordedRequests), JSON.stringify({ f, extra }))
      assert.deepEqual(f.origins.filter(o => o.recorded !== o.replayed).map(o => o.origin).filter(o => o !== 'https://a.example' || f.requests === f.recordedRequests), [], JSON.stringify(f))
    }
  })

  it('the report says it replayed that HAR: file, when recorded, pages', () => {
    assert.match(report, new RegExp(`Replay of ${harFile.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}: recorded 2026-11-27T10:00:00.000Z`))
    assert.match(report, /1 page, 4 entries for the replay to serve from loopback as recorded/)
  })

  it('h3 against h2e from one Caddy (the same version on both sides\' rows), node:http2 a reference: the table and the claims, each with the engine\'s status', function () {
    if (!protocols.includes('h3')) this.skip()
    const caddys = json.results.filter(r => ['h2e', 'h3'].includes(r.lane)).map(r => r.replay.caddy)
    assert.equal(caddys.length, 4)
    assert.ok(caddys.every(c => c && c === caddys[0]), JSON.stringify(caddys))
    assert.ok(json.results.filter(r => !['h2e', 'h3'].includes(r.lane)).every(r => r.replay.caddy === undefined))
    assert.match(report, /HTTP\/3 against HTTP\/2: h3's onload median \(ms\) against h2e, the same Caddy over TCP/)
    assert.match(report, /\| https:\/\/a\.example\/ \| cold \| h2e \| protocol only/)
    assert.match(report, /\| https:\/\/a\.example\/ \| cold \| h2 \(reference\) \| protocol and server/)
    for (const text of [/Replayed from one server, HTTP\/3 loads the page/, /Reference: replayed, HTTP\/3 from Caddy loads the page \(onload\) faster than HTTP\/2 from node:http2/]) {
      const line = report.split('\n').find(l => text.test(l))
      assert.ok(line, `no claim matching ${text}`)
      assert.ok(STATUS_WORDS.some(w => line.includes(w)), `no status on: ${line}`)
    }
  })

  it('--from rebuilds the same report from results.json alone (the replay\'s cells from its environment)', async () => {
    const rebuilt = path.join(dir, 'rebuilt')
    const r = await runNode(RUN, ['--from', path.join(dir, 'out', 'results.json'), '--out', rebuilt])
    assert.equal(r.code, 0, r.stderr)
    const again = fs.readFileSync(path.join(rebuilt, 'report.md'), 'utf8')
    const tableOf = md => md.split('\n').filter(l => l.startsWith('| https://a.example/ |'))
    assert.ok(tableOf(report).length > 0)
    assert.deepEqual(tableOf(again), tableOf(report))
  })

  it('a HAR without the script: that request a miss, counted and named, the load still good', async () => {
    const lacking = path.join(dir, 'lacking.har')
    fs.writeFileSync(lacking, JSON.stringify(siteHar({ without: 'https://a.example/app.js?v=1' })))
    const { result: r, json: got } = await run.run(['--protocols', 'h2', '--repeats', '1'], { har: lacking, out: path.join(dir, 'lacking') })
    assert.equal(r.code, 0, r.stderr)
    const rows = got.results
    const cold = rows.find(x => x.mode === 'cold')
    assert.equal(cold.failures, 0, cold.note)
    assert.ok(cold.replay.misses >= 1, JSON.stringify(cold.replay))
    assert.ok(cold.replay.missed.includes('GET https://a.example/app.js?v=1'), JSON.stringify(cold.replay))
    assert.deepEqual(cold.replay.missed.filter(m => !favicon(m) && m !== 'GET https://a.example/app.js?v=1'), [])
    assert.match(cold.note, /the recording lacked \(404\): .*GET https:\/\/a\.example\/app\.js\?v=1/)
    assert.equal(cold.replay.entries, 3)
  })
})

'use strict'

// `npm run bench -- corpus --smoke`, the real command (bin/h2bench-run.js): the corpus's smoke cells, one
// generated page at p10 of the Web Almanac's requests and bytes (bench/corpus/) behind the clean and the lossy
// link, replayed over h1, h2, h2e (h3's Caddy over TCP) and h3 (Caddy), each load in Chromium cold and as a repeat
// view. What must hold:
// exit 0 and a results.json of its schema; a row per link, protocol and view, over the protocol forced; every
// cold load's every request answered by the replay (entries served = the HAR's entries, 0 misses; a repeat view
// may take some from its cache, still none missed); the claims present, each with a status of the engine's.
const assert = require('node:assert/strict')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { validateResults } = require('../../../bench/report/runner/results-schema')
const { findChrome } = require('../../../harness/chromium')
const { mayBuildHere, unavailableReason } = require('../../../link/namespace')
const { edgeUnavailableReason } = require('../../../server/edge/caddy')
const { STATUS_WORDS } = require('../../../bench/report/claims/judge')
const { runNode } = require('../../support/run-node')
const claims = require('../../../bench/report/claims/corpus')

const RUN = path.join(__dirname, '..', '..', '..', 'bin', 'h2bench-run.js')
const { WIRE } = require('../../support/replay-run')
const { PROTOCOLS } = require('../../../bench/experiments/corpus')

describe('npm run bench -- corpus --smoke (the real command: a generated page behind two links over h1, h2, h2e and h3)', function () {
  this.timeout(600000)
  let dir = null
  let result = null
  let json = null

  before(async function () {
    const why = !findChrome() ? 'no Chromium' : unavailableReason() || (!mayBuildHere() ? 'needs test/run.js\'s private namespace' : null) || edgeUnavailableReason()
    if (why) {
      process.stdout.write(`      (skipped: ${why})\n`)
      this.skip()
    }
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'h2bench-runner-corpus-'))
    const started = Date.now()
    result = await runNode(RUN, ['corpus', '--smoke', '--out', dir])
    result.seconds = (Date.now() - started) / 1000
    const file = path.join(dir, 'results.json')
    json = fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : null
  })
  after(() => { if (dir) fs.rmSync(dir, { recursive: true, force: true }) })

  it('exits 0 with a results.json of its schema: a row per link, protocol and view, each behind its link', () => {
    process.stdout.write(`      (the corpus smoke run took ${result.seconds.toFixed(1)} s)\n`)
    assert.equal(result.code, 0, result.stderr)
    assert.deepEqual(validateResults(json), [])
    const keys = json.results.map(r => `${claims.labelOf(r)} ${r.lane} ${r.mode}`)
    assert.deepEqual(PROTOCOLS, ['h1', 'h2', 'h2e', 'h3'])
    assert.deepEqual(keys, ['clean', 'lossy'].flatMap(l => PROTOCOLS.flatMap(p => [`${l} ${p} cold`, `${l} ${p} repeat`])))
    for (const r of json.results) {
      assert.equal(r.experiment, 'corpus')
      assert.equal(r.network, 'link', r.preset)
      assert.ok(r.linkSpec, r.preset)
      assert.equal(r.replay.assumed.length, 0, r.replay.assumed.join('; '))
      // The page's HAR written when its cell ran, beside the results.
      assert.equal(path.dirname(r.replay.har), path.join(dir, 'corpus'), r.replay.har)
      assert.ok(fs.existsSync(r.replay.har), r.replay.har)
    }
  })

  it('every load good and over its protocol; every request of a cold load served by the replay, none missed', () => {
    for (const r of json.results) {
      const what = `${r.preset} ${r.lane} ${r.mode}: ${r.note}`
      assert.equal(r.failures, 0, what)
      assert.equal(r.repeatsGot, 1, what)
      assert.equal(r.protocol, WIRE[r.lane], what)
      assert.equal(r.replay.misses, 0, `${what}: ${r.replay.missed.join(', ')}`)
      for (const load of r.site.loads) {
        assert.equal(load.replay.misses, 0, `${what}: ${load.replay.missed.join(', ')}`)
        if (r.mode === 'cold') assert.equal(load.replay.served, r.replay.entries, `${what}: ${load.replay.served} of ${r.replay.entries} entries served`)
      }
      if (r.mode === 'cold') assert.equal(r.replay.fidelity.requestsEqual, true, `${what}: ${JSON.stringify(r.replay.fidelity)}`)
    }
  })

  it('report.md holds the claims (h3 against h2e, then against node:http2 as references), each with a status of the engine\'s, and the table of h3 against each HTTP/2', () => {
    const md = fs.readFileSync(path.join(dir, 'report.md'), 'utf8')
    assert.match(md, /## corpus: /)
    for (const c of claims) {
      const line = md.split('\n').find(l => l.includes(c.text))
      assert.ok(line, `report.md names the claim "${c.text}"`)
      assert.ok(STATUS_WORDS.some(w => line.includes(w)), `no status on: ${line}`)
    }
    assert.match(md, /HTTP\/3 against HTTP\/2: h3's onload median \(ms\) against h2e, the same Caddy over TCP/)
    // h3 and h2e from one Caddy: the rows name the same one.
    assert.deepEqual([...new Set(json.results.filter(r => ['h2e', 'h3'].includes(r.lane)).map(r => r.replay.caddy))].length, 1)
  })
})

'use strict'

// `npm run bench -- replay --har … --variants early-hints,rfc9218`, the real command (bin/h2bench-run.js), on the
// three-origin HAR of test/support/replay-run.js, its page now answered with a Link header that preloads its
// script: replayed over h2 and h3 (Caddy), each plain, with 103 Early Hints and scheduled by RFC 9218, twice,
// behind a 10 ms link (over HTTP/2 Chromium drops a 103 that comes before it waits for the response, as on
// loopback: test/server/replay/slow/variants-chromium.test.js).
// What must hold whatever the figures: a row per protocol, variant and view, every load good and over its protocol;
// the early-hints rows sent a 103 a cold load (the page's) and the plain rows none; the browser fetched a 103's
// preload in an early-hints row's loads only, and in at least one of each cold one's; the rfc9218 rows' bodies went
// through the scheduler and the plain rows' did not; the report has the variants' table and their claims, each
// with a status from the engine; --from rebuilds the same rows' table.
const assert = require('node:assert/strict')
const fs = require('node:fs')
const path = require('node:path')
const { unavailableReason } = require('../../../link/namespace')
const { validateResults } = require('../../../bench/report/runner/results-schema')
const { edgeUnavailableReason } = require('../../../server/edge/caddy')
const { replayRun, skipUnlessReplayRuns, assertLoadsGood, siteHar, RUN } = require('../../support/replay-run')
const { runNode } = require('../../support/run-node')

const REPEATS = 2
const VARIANTS = ['plain', 'rfc9218', 'early-hints']

describe('npm run bench -- replay --har … --variants early-hints,rfc9218 --link rtt=10ms (the real command, over h2 and h3)', function () {
  this.timeout(900000)
  let run = null
  let result = null
  let json = null
  let out = null
  let protocols = ['h2', 'h3']

  before(async function () {
    skipUnlessReplayRuns(this, { more: [unavailableReason()] })
    if (edgeUnavailableReason()) {
      process.stdout.write(`      (h3 left out: ${edgeUnavailableReason()})\n`)
      protocols = ['h2']
    }
    run = replayRun('h2bench-runner-replay-variants-')
    const har = siteHar()
    har.log.entries.find(e => e.request.url === 'https://a.example/').response.headers.push({ name: 'Link', value: '</app.js?v=1>; rel=preload; as=script' })
    const file = path.join(run.dir, 'hinted.har')
    fs.writeFileSync(file, JSON.stringify(har));
    ({ result, json, out } = await run.run(['--variants', 'early-hints,rfc9218', '--link', 'rtt=10ms', '--protocols', protocols.join(','), '--repeats', String(REPEATS)], { har: file }))
  })
  after(() => run && run.cleanup())

  it('exits 0 with a valid results.json: a row per protocol, variant and view, every load good', () => {
    assert.equal(result.code, 0, result.stderr)
    assert.deepEqual(validateResults(json), [])
    const modes = v => v === 'plain' ? ['cold', 'repeat'] : [`cold ${v}`, `repeat ${v}`]
    assert.deepEqual(json.results.map(r => `${r.lane} ${r.mode}`), protocols.flatMap(p => VARIANTS.flatMap(v => modes(v).map(m => `${p} ${m}`))))
    assert.deepEqual(json.environment.replay.variants, VARIANTS)
    for (const r of json.results) assert.equal(r.replay.variant.name, r.mode.split(' ')[1] || 'plain')
    // A hinted script is fetched by its preload, then taken from the preload's cache by the script tag: from the cache.
    assertLoadsGood(json, REPEATS, { cached: r => r.replay.variant.name === 'early-hints' })
  })

  it('early-hints sent the page\'s 103 on every cold load, plain and rfc9218 none, the browser used it; rfc9218\'s bodies went through its scheduler', () => {
    for (const r of json.results) {
      const v = r.replay.variant
      const what = `${r.lane} ${r.mode}: ${JSON.stringify(v)}`
      if (v.name === 'early-hints' && r.site.view === 'cold') {
        assert.equal(v.hints, REPEATS, what)
        assert.equal(v.hintedLoads, REPEATS, what)
        // Behind 10 ms Chromium acted on every 103 in 30 loads of 30 (variants-chromium.test.js); one load of the two
        // leaves room for a stall of its network thread.
        assert.ok(v.hintsUsed >= 1 && v.hintsUsed <= REPEATS, what)
      }
      if (v.name !== 'early-hints') assert.equal(v.hints, 0, what)
      // No 103, nothing preloaded by one: Resource Timing's initiatorType early-hints counted in every load.
      for (const load of r.site.loads) {
        assert.ok(Number.isInteger(load.earlyHintsPreloads), what)
        if (load.replay.hints === 0) assert.equal(load.earlyHintsPreloads, 0, what)
      }
      if (v.name === 'rfc9218' && r.site.view === 'cold') assert.ok(v.scheduled >= REPEATS * 4, what)
      if (v.name !== 'rfc9218') assert.equal(v.scheduled, 0, what)
    }
  })

  it('the report: the variants\' table and their claims, each with the engine\'s status; --from rebuilds it', async () => {
    const report = fs.readFileSync(path.join(out, 'report.md'), 'utf8')
    assert.match(report, /The server's behaviours \(--variants\)/)
    for (const text of [/103 Early Hints for the recorded preloads/, /RFC 9218 urgency, then incremental/, /first in, first out/]) {
      const line = report.split('\n').find(l => text.test(l))
      assert.ok(line, `no claim matching ${text}`)
    }
    assert.match(report, /first in, first out[^\n]*not measured/)
    const again = path.join(run.dir, 'again')
    const r = await runNode(RUN, ['--from', path.join(out, 'results.json'), '--out', again])
    assert.equal(r.code, 0, r.stderr)
    const table = md => md.split('\n').filter(l => /^\| https:\/\/a\.example\/ \| h[23] \| (cold|repeat) \| (rfc9218|early-hints) \|/.test(l))
    assert.ok(table(report).length > 0)
    assert.deepEqual(table(fs.readFileSync(path.join(again, 'report.md'), 'utf8')), table(report))
  })
})

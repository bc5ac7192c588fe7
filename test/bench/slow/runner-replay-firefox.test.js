'use strict'

// `npm run bench -- replay --har … --browser firefox`, the real command (bin/h2bench-run.js), on runner-replay's
// HAR of three origins (test/server/replay/har-fixture.js's recorder HAR, its page loading one resource of each
// origin): a.example and b.example on one address and certificate, c.example:8443 on its own. Firefox has no
// per-name resolver switch: it reaches the replay by a hosts file of the recorded names over /etc/hosts in a mount
// namespace of its own (harness/firefox/hosts.js). Replayed over h1, h2 and h3 (Caddy), twice, alternating. What
// must hold whatever the figures: every row Firefox's, every load good, every request over the protocol forced (or
// a repeat view's from the cache) and answered by the replay (each cold load's requests and bodies those of the HAR,
// every origin; only the favicon may miss), no visual metrics; and the machine's /etc/hosts the same after as before.
const assert = require('node:assert/strict')
const fs = require('node:fs')
const { validateResults } = require('../../../bench/report/runner/results-schema')
const { firefoxUnavailableReason, mountNamespaceUnavailableReason } = require('../../../harness/firefox')
const { edgeUnavailableReason } = require('../../../server/edge/caddy')
const { replayRun, skipUnlessReplayRuns, assertLoadsGood, favicon, WIRE, LOADED, ORIGINS } = require('../../support/replay-run')

const REPEATS = 2

describe('npm run bench -- replay --har … --browser firefox (the real command, three origins over h1, h2 and h3)', function () {
  this.timeout(900000)
  let run = null
  let out = null
  let result = null
  let json = null
  let hostsBefore = null
  let protocols = ['h1', 'h2', 'h3']

  before(async function () {
    skipUnlessReplayRuns(this, { browser: firefoxUnavailableReason(), more: [mountNamespaceUnavailableReason()] })
    if (edgeUnavailableReason()) {
      process.stdout.write(`      (h3 left out: ${edgeUnavailableReason()})\n`)
      protocols = ['h1', 'h2']
    }
    run = replayRun('h2bench-runner-replay-firefox-')
    hostsBefore = fs.readFileSync('/etc/hosts');
    ({ result, json, out } = await run.run(['--browser', 'firefox', '--protocols', protocols.join(','), '--repeats', String(REPEATS)]))
  })
  after(() => run && run.cleanup())

  it('exits 0 with a results.json that matches its schema: a row per protocol and view, every one Firefox\'s', () => {
    assert.equal(result.code, 0, result.stderr)
    assert.deepEqual(validateResults(json), [])
    assert.deepEqual(json.results.map(r => `${r.lane} ${r.mode}`), protocols.flatMap(p => [`${p} cold`, `${p} repeat`]))
    for (const r of json.results) {
      assert.equal(r.browser, 'firefox')
      assert.match(r.browserVersion, /^Firefox \d/)
    }
    assert.match(json.environment.firefox, /^Firefox \d/)
  })

  it('every load good, over the protocol forced, from the replay (only the favicon missing)', () => {
    assertLoadsGood(json, REPEATS)
    for (const r of json.results) {
      for (const load of r.site.loads) {
        assert.equal(load.protocol, WIRE[r.lane], `${r.lane} ${r.mode}`)
        // Firefox has no DevTools trace: no visual metrics, and nothing asked them here.
        assert.ok(!load.visual, `${r.lane} ${r.mode}`)
      }
    }
  })

  it('each cold load: the HAR\'s requests, each over the forced protocol, every origin answered by the replay', () => {
    for (const r of json.results.filter(x => x.mode === 'cold')) {
      for (const load of r.site.loads) {
        const what = `${r.lane} repeat ${load.repeat}: ${JSON.stringify(load)}`
        const har = run.harOf(out, load)
        const entries = har.log.entries.filter(e => !favicon(e.request.url))
        // Firefox asks for the stylesheet twice (its speculative parser's preload, then the parser's own load: seen in
        // every cold load, the response having no cache headers), so the HAR's requests, each at least once.
        assert.deepEqual([...new Set(entries.map(e => e.request.url))].sort(), Object.keys(LOADED).sort(), what)
        for (const e of entries) assert.equal(e.response.status, 200, `${e.request.url}: ${what}`)
        for (const e of entries) assert.equal(e.response.bodySize, LOADED[e.request.url], `${e.request.url}: ${what}`)
        assert.equal(load.replay.served, entries.length, what) // every one of them answered by the replay
        assert.deepEqual(Object.keys(load.origins).sort(), ORIGINS, what)
        for (const [origin, o] of Object.entries(load.origins)) assert.deepEqual(Object.keys(o.protocols), [WIRE[r.lane]], `${origin}: ${what}`)
      }
    }
  })

  it('the machine\'s /etc/hosts is the same after the run as before it (the replay\'s names were Firefox\'s alone)', () => {
    assert.deepEqual(fs.readFileSync('/etc/hosts'), hostsBefore)
    assert.doesNotMatch(fs.readFileSync('/etc/hosts', 'utf8'), /a\.example|127\.0\.1\./)
  })
})

'use strict'

// `npm run bench -- replay --har … --link rtt=100ms`, the real command
// (bin/h2bench-run.js): the three-origin HAR of runner-replay.test.js (the
// fixture's recorder HAR, its page loading one resource of each origin)
// replayed over h2 and h3 behind a packet-level link of 100 ms round trip,
// twice. The replay listens on the link's own addresses (link/namespace.js
// addServerAddresses: 100.64.0.0/10) and Chromium sits in the link's client
// namespace. What must hold: every load good and over its protocol; every
// request through the link (each entry's server address one of the link's,
// the forwarder's downlink bytes of a row's cold loads at least their body
// bytes); and physics: each cold load's time to first byte at least its
// round trips × 100 ms, its onload at least 2 × 100 ms.
const assert = require('node:assert/strict')
const fs = require('node:fs')
const path = require('node:path')
const { validateResults } = require('../../../bench/report/runner/results-schema')
const { unavailableReason } = require('../../../link/namespace')
const { edgeUnavailableReason } = require('../../../server/edge/caddy')
const { replayRun, skipUnlessReplayRuns, assertLoadsGood, favicon, LOADED, BODY_BYTES } = require('../../support/replay-run')

const REPEATS = 2
const RTT_MS = 100

// 100.64.0.0/10: the link's extra server addresses.
const linkAddress = a => /^100\.(\d+)\./.test(a || '') && Number(/^100\.(\d+)\./.exec(a)[1]) >= 64 && Number(/^100\.(\d+)\./.exec(a)[1]) < 128

describe(`npm run bench -- replay --har … --link rtt=${RTT_MS}ms (the real command, three origins over h2 and h3 behind the link)`, function () {
  this.timeout(900000)
  let run = null
  let dir = null
  let harFile = null
  let result = null
  let json = null
  let protocols = ['h2', 'h3']

  before(async function () {
    skipUnlessReplayRuns(this, { more: [unavailableReason()] })
    if (edgeUnavailableReason()) {
      process.stdout.write(`      (h3 left out: ${edgeUnavailableReason()})\n`)
      protocols = ['h2']
    }
    run = replayRun('h2bench-runner-replay-link-');
    ({ dir, harFile } = run);
    ({ result, json } = await run.run(['--link', `rtt=${RTT_MS}ms`, '--protocols', protocols.join(','), '--repeats', String(REPEATS)]))
  })
  after(() => run && run.cleanup())

  it('exits 0 with a results.json that matches its schema: a row per protocol and view, each behind the link', () => {
    assert.equal(result.code, 0, result.stderr)
    assert.deepEqual(validateResults(json), [])
    assert.deepEqual(json.results.map(r => `${r.lane} ${r.mode}`), protocols.flatMap(p => [`${p} cold`, `${p} repeat`]))
    assert.match(fs.readFileSync(path.join(dir, 'out', 'report.md'), 'utf8'), /4 entries for the replay to serve behind the link as recorded/)
    assert.match(result.stderr, /the replay on the link's addresses 100\.\d+\.\d+\.\d+, 100\.\d+\.\d+\.\d+, the browser in its client namespace/)
    for (const r of json.results) {
      assert.equal(r.network, 'link', r.lane)
      assert.equal(r.linkSpec, `rtt=${RTT_MS}ms`)
      assert.ok(r.link, r.lane)
      assert.equal(r.replay.har, harFile)
      assert.equal(r.site.rttMs >= RTT_MS, true, `the bound's round trip ${r.site.rttMs} ms: not the link's ${RTT_MS} ms and more`)
      assert.equal(r.site.nat, null)
    }
  })

  it('every load good, over the protocol forced, nothing missed (a favicon at most)', () => {
    assertLoadsGood(json, REPEATS)
  })

  it('every request through the link: each answered from a link address, the forwarder\'s downlink carrying at least the bodies', () => {
    for (const r of json.results) {
      for (const load of r.site.loads) {
        const har = JSON.parse(fs.readFileSync(path.join(dir, 'out', load.har), 'utf8'))
        const fromNetwork = har.log.entries.filter(e => e.serverIPAddress) // a repeat view's cached entries have none
        if (r.mode === 'cold') assert.deepEqual(har.log.entries.map(e => e.request.url).filter(u => !favicon(u)).sort(), Object.keys(LOADED).sort())
        const elsewhere = fromNetwork.filter(e => !linkAddress(e.serverIPAddress.replace(/^\[|\]$/g, '')))
        assert.deepEqual(elsewhere.map(e => `${e.request.url} from ${e.serverIPAddress}`), [], `${r.lane} ${r.mode} repeat ${load.repeat}`)
      }
      if (r.mode !== 'cold') continue
      const counted = r.costs.link.down.bytes
      assert.ok(counted >= REPEATS * BODY_BYTES, `${r.lane} cold: the forwarder counted ${counted} bytes down over ${REPEATS} loads of ${BODY_BYTES} body bytes each`)
      assert.ok(r.costs.link.up.bytes > 0)
    }
  })

  it('physics: each cold load\'s first byte after its round trips × 100 ms, its onload after 2 × 100 ms', () => {
    for (const r of json.results.filter(x => x.mode === 'cold')) {
      for (const load of r.site.loads) {
        const what = `${r.lane} cold repeat ${load.repeat}: ttfb ${load.ttfb} ms, ${load.ttfbRounds} rounds, onload ${load.onload} ms`
        assert.ok(load.ttfbRounds >= 2, what)
        assert.ok(load.ttfb >= load.ttfbRounds * RTT_MS, what)
        assert.ok(load.onload >= 2 * RTT_MS, what)
      }
      assert.equal(r.site.ttfbBelowBound, false, r.note)
    }
  })
})

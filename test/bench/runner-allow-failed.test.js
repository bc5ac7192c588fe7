'use strict'

// A good load is a whole load (issue 42): --allow-failed on the site and replay experiments' command line, a
// recording with failed requests refused by replay unless each is expected, what record prints of one, and a load's
// problem when a request failed below HTTP (bench/cells/site-url.js problemOf), each said in one line.
const assert = require('node:assert/strict')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { parseRunArgs } = require('../../bench/runner/run-args')
const { select } = require('../../bench/experiments')
const { UsageError } = require('../../common/errors')
const { problemOf } = require('../../bench/cells/site-url')
const { summaryLines } = require('../../bench/record/summary')
const siteTables = require('../../bench/report/tables/site')
const { h2benchHar } = require('../server/replay/har-fixture')

// The fixture's recording with two of b.example's requests failed as a leaf of another CA fails them.
function failedHar () {
  const har = h2benchHar()
  for (const e of har.log.entries.filter(x => x.request.url.startsWith('https://b.example/api'))) {
    e.response.status = 0
    e._error = 'net::ERR_CERT_AUTHORITY_INVALID'
  }
  return har
}

describe('runner: --allow-failed, and a recording with failed requests', () => {
  let dir, har
  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'h2bench-allow-failed-'))
    har = path.join(dir, 'failed.har')
    fs.writeFileSync(har, JSON.stringify(failedHar()))
  })
  after(() => fs.rmSync(dir, { recursive: true, force: true }))

  it('replay refuses a recording whose requests failed below HTTP, naming how many, the origin, the error and what to do', () => {
    assert.throws(() => parseRunArgs(['replay', '--har', har]), err => err instanceof UsageError &&
      /3 recorded requests failed below HTTP/.test(err.message) && /https:\/\/b\.example 3 \(net::ERR_CERT_AUTHORITY_INVALID\)/.test(err.message) &&
      /record --ca ca\.pem/.test(err.message) && /--allow-failed <url pattern>/.test(err.message))
    // One pattern that covers only some of them: still refused, for the rest.
    assert.throws(() => parseRunArgs(['replay', '--har', har, '--allow-failed', 'https://b.example/api?x=9*']), /2 recorded requests failed/)
  })

  it('replay takes it when --allow-failed expects every failure; the cells and the environment carry the patterns', () => {
    const o = parseRunArgs(['replay', '--har', har, '--allow-failed', 'https://b.example/api?*'])
    assert.deepEqual(o.replay.allowFailed, ['https://b.example/api?*'])
    const [experiment] = select(['replay'], { replay: o.replay })
    const cells = experiment.cellsFrom(null, o.replay)
    assert.ok(cells.length > 0)
    for (const c of cells) assert.deepEqual(c.allowFailed, ['https://b.example/api?*'])
  })

  it('site takes --allow-failed (repeatable) into its cells; elsewhere, or empty, it is a usage error', () => {
    const o = parseRunArgs(['site', '--url', 'https://a.test/', '--allow-failed', 'https://ads.test/*', '--allow-failed', '*/beacon'])
    assert.deepEqual(o.site.allowFailed, ['https://ads.test/*', '*/beacon'])
    const [experiment] = select(['site'], { site: o.site })
    assert.deepEqual(experiment.cellsFrom(o.site)[0].allowFailed, ['https://ads.test/*', '*/beacon'])
    assert.equal(parseRunArgs(['site', '--url', 'https://a.test/']).site.allowFailed, undefined)
    assert.throws(() => parseRunArgs(['delay', '--allow-failed', 'x']), /--allow-failed is the site and replay experiments'/)
    assert.throws(() => parseRunArgs(['site', '--url', 'https://a.test/', '--allow-failed', ' ']), /--allow-failed: a pattern is a URL/)
  })

  it('record says so: how many failed, per origin with its errors, and that replay refuses it', () => {
    const lines = summaryLines(failedHar(), 'failed.har').join('\n')
    assert.match(lines, /3 requests failed below HTTP \(a network, TLS or protocol error\), so this recording lacks their responses; replay refuses it unless --allow-failed <url pattern> expects each:\n {2}https:\/\/b\.example: 3 \(net::ERR_CERT_AUTHORITY_INVALID\)/)
    assert.doesNotMatch(summaryLines(h2benchHar(), 'site.har').join('\n'), /failed below HTTP/)
  })

  it('a load with a failure no pattern expected is a failed load, its first errors named; an expected one, or none, leaves it good', () => {
    const load = { status: 200, protocol: 'h2', onload: 300 }
    const first = [{ url: 'https://b.test/1.png', origin: 'https://b.test', error: 'net::ERR_CERT_AUTHORITY_INVALID' }]
    const record = (failed, allowed = 0) => ({ requests: 40, failures: { failed, allowed, aborted: 0, first: failed ? first : [], origins: [] } })
    assert.equal(problemOf(load, 'h2', record(26)), '26 of 40 requests failed below HTTP (https://b.test/1.png: net::ERR_CERT_AUTHORITY_INVALID; …); give --allow-failed <url pattern> for failures you expect')
    assert.equal(problemOf(load, 'h2', record(0, 3)), null)
    assert.equal(problemOf(load, 'h2', record(0)), null)
    assert.equal(problemOf(load, 'h2'), null) // a caller without a record: the document alone
    assert.match(problemOf({ ...load, protocol: 'http/1.1' }, 'h2', record(26)), /came over http\/1\.1/) // the document's problem first
  })

  it('the site report names every origin that failed, and how many loads it failed', () => {
    const row = (mode, failed) => ({ cell: 'c', preset: 'https://a.test/', browser: 'chromium', lane: 'h2', mode, samples: [300], failures: failed.loads, note: null, median: 300, site: { loads: [{}, {}, {}], failed } })
    const none = { loads: 0, requests: 0, allowed: 0, aborted: 0, origins: [] }
    const some = { loads: 2, requests: 52, allowed: 1, aborted: 0, origins: [{ origin: 'https://b.test', failed: 40, errors: ['net::ERR_CERT_AUTHORITY_INVALID'] }, { origin: 'https://ads.test', failed: 13, errors: ['net::ERR_NAME_NOT_RESOLVED'] }] }
    const table = siteTables([row('cold', some), row('repeat', none)]).find(t => /requests that failed below HTTP/.test(t.title))
    assert.deepEqual(table.body, [['Chromium', 'h2', 'cold', '2 of 3', 52, 1, 'https://b.test (40: net::ERR_CERT_AUTHORITY_INVALID); https://ads.test (13: net::ERR_NAME_NOT_RESOLVED)']])
    assert.equal(siteTables([row('repeat', none)]).find(t => /requests that failed below HTTP/.test(t.title)), undefined)
  })
})

describe('the time-to-first-byte bound holds its own resolution (bench/cells/site-url.js ttfbBound)', () => {
  const { ttfbBound, TIMER_MARGIN_MS } = require('../../bench/cells/site-url')

  it('behind rtt=100ms the issue\'s live cold load of 300.9 ms is within it: the connect\'s own cost and the timer\'s step come off', () => {
    const rtt = { minMs: 100.688, pathMinMs: 0.688, linkMs: 100, overheadMs: 0.52 }
    const b = ttfbBound(3, rtt, 'chromium')
    assert.deepEqual(b, { boundMs: 300.404, perRoundMs: 100.168, marginMs: 1.66 })
    assert.ok(b.boundMs <= 300.9)
    // Without a link (a real path): the path's connect less its cost, never below nothing.
    assert.deepEqual(ttfbBound(1, { minMs: 20.4, pathMinMs: 20.4, linkMs: 0, overheadMs: 0.4 }, 'firefox'), { boundMs: 18, perRoundMs: 20, marginMs: 2.4 })
    assert.equal(ttfbBound(2, { minMs: 0.3, pathMinMs: 0.3, linkMs: 0, overheadMs: 0.5 }, 'chromium').boundMs, 0)
    // A document from the cache: no round trip, no bound above 0; no round trip measured: no bound.
    assert.equal(ttfbBound(0, rtt, 'chromium').boundMs, 0)
    assert.equal(ttfbBound(3, null, 'chromium'), null)
    assert.deepEqual(TIMER_MARGIN_MS, { chromium: 0.1, firefox: 2 })
  })
})

'use strict'

// The replay experiment's plain logic (bench/cells/replay-plan.js): the pages of a HAR, when it was recorded,
// what its archive assumed, Chromium's switches per protocol, and the misses of one load.
const assert = require('node:assert/strict')
const { pagesOf, recordedAtOf, assumptionsOf, replayOfText, replayChromiumArgs, loadFacts, rowFacts, recordedLoadsOf, fidelityOf, modeOf, FORCED, SERVERS } = require('../../bench/cells/replay-plan')
const { replayFirefoxPrefs } = require('../../bench/cells/replay-firefox')
const tables = require('../../bench/report/tables/replay')
const { HarError } = require('../../server/replay/har-check')
const { h2benchHar, devtoolsHar } = require('../server/replay/har-fixture')

const at = t => new Date(Date.UTC(2026, 0, 1, 0, 0, t)).toISOString()
const entry = (url, t, pageref) => ({ startedDateTime: at(t), request: { url }, ...(pageref ? { pageref } : {}) })

describe('replay: the plan of a replayed HAR', () => {
  it('pages: each page\'s first https entry by start time, else its title when the HAR has it, each once; else the first entry', () => {
    const har = {
      log: {
        pages: [{ id: 'p1', title: 'whatever' }, { id: 'p2', title: 'https://b.example/two' }, { id: 'p3', title: 'https://a.example/' }, { id: 'p4', title: 'not a url' }],
        entries: [
          entry('https://a.example/app.js', 3, 'p1'),
          entry('http://a.example/', 1, 'p1'), // not https: never a page
          entry('https://a.example/', 2, 'p1'),
          entry('https://b.example/two', 5),
          entry('https://a.example/again', 9, 'p3')
        ]
      }
    }
    assert.deepEqual(pagesOf(har), ['https://a.example/', 'https://b.example/two', 'https://a.example/again'])
    assert.deepEqual(pagesOf({ log: { entries: [entry('https://x.example/b', 2), entry('https://x.example/a', 1)] } }), ['https://x.example/a'])
    assert.deepEqual(pagesOf({ log: { pages: [{ id: 'p', title: 'https://gone.example/' }], entries: [entry('https://x.example/', 1)] } }), ['https://x.example/'])
    assert.deepEqual(pagesOf(h2benchHar()), ['https://a.example/'])
  })

  it('recordedAt: the recorder\'s, else the first page\'s or entry\'s start', () => {
    const har = h2benchHar()
    har.log._h2bench.recordedAt = '2026-01-02T03:04:05.000Z'
    assert.equal(recordedAtOf(har), '2026-01-02T03:04:05.000Z')
    assert.equal(recordedAtOf(devtoolsHar()), '2026-11-27T10:00:00.000Z')
    assert.equal(recordedAtOf({ log: { entries: [entry('https://x.example/', 7)] } }), '2026-01-01T00:00:07.000Z')
  })

  it('facts of the recorder\'s HAR: nothing assumed but the entries not replayed; of a DevTools HAR, every assumption named per origin', () => {
    const own = replayOfText(JSON.stringify(h2benchHar()), 'site.har')
    assert.deepEqual({ ...own.facts, assumed: undefined }, {
      file: 'site.har', recordedAt: '2026-11-27T10:00:00.000Z', pages: ['https://a.example/'], source: 'h2bench', browser: 'Chromium 140.0.0.0',
      entries: 10, origins: ['https://a.example', 'https://b.example', 'https://c.example:8443'], assumed: undefined, failed: []
    })
    assert.deepEqual(own.facts.assumed, ['1 entries not replayed (http://plain.example/: http: is not replayed (https only))'])
    assert.equal(own.archive.entries.length, 10)
    const dev = replayOfText(JSON.stringify(devtoolsHar()), 'devtools.har').facts
    assert.equal(dev.source, 'devtools')
    assert.match(dev.assumed[0], /^no log\._h2bench: origins, addresses, certificates and server times derived/)
    assert.ok(dev.assumed.includes('https://b.example: its certificate assumed to name only b.example, and not shared with any other origin'), dev.assumed.join('\n'))
    assert.ok(dev.assumed.some(a => /^https:\/\/c\.example:8443: server time taken as timings\.wait less its smallest TCP connect time, 20 ms$/.test(a)), dev.assumed.join('\n'))
    assert.deepEqual(assumptionsOf({ assumed: [], origins: [{ origin: 'https://x', assumed: ['y'] }], summary: { skipped: [] } }), ['https://x: y'])
  })

  it('a file that is no HAR: the archive\'s own error, naming the file', () => {
    assert.throws(() => replayOfText('{"log":{"version":"1.2"}}', 'x.har'), err => err instanceof HarError && /^x\.har: log\.entries is missing/.test(err.message))
    assert.throws(() => replayOfText('nope', 'x.har'), err => err instanceof HarError && /^x\.har is not JSON/.test(err.message))
  })

  it('Chromium\'s switches: the resolver rules always; h1 without h2 and QUIC, h2, h2-spdy and h2e without QUIC, h3 forced on every origin', () => {
    const replay = { hostResolverRules: 'MAP a.example 127.0.1.1,MAP c.example 127.0.1.2', origins: [{ host: 'a.example', port: 443 }, { host: 'c.example', port: 8443 }] }
    const rules = '--host-resolver-rules=MAP a.example 127.0.1.1,MAP c.example 127.0.1.2'
    assert.deepEqual(replayChromiumArgs('h1', replay), ['--disable-http2', '--disable-quic', rules])
    assert.deepEqual(replayChromiumArgs('h2', replay), ['--disable-quic', rules])
    assert.deepEqual(replayChromiumArgs('h2-spdy', replay), ['--disable-quic', rules])
    // h2e: h3's own Caddy, which offers h3 too (Alt-Svc): QUIC off keeps every request on HTTP/2 over TCP.
    assert.deepEqual(replayChromiumArgs('h2e', replay), ['--disable-quic', rules])
    assert.deepEqual(replayChromiumArgs('h3', replay), ['--enable-quic', '--origin-to-force-quic-on=a.example:443,c.example:8443', rules])
    assert.throws(() => replayChromiumArgs('h4', replay), /unknown replay protocol "h4"/)
    assert.deepEqual(FORCED, { h1: 'h1', h2: 'h2', 'h2-spdy': 'h2', h2e: 'h2', h3: 'h3' })
    // Each protocol names its server; h2e's is h3's (the same Caddy, over TCP).
    assert.deepEqual(Object.keys(SERVERS), Object.keys(FORCED))
    assert.match(SERVERS.h2e, /^Caddy \(TCP; h3's server\)/)
    assert.deepEqual(replayFirefoxPrefs(FORCED.h2e, 'https://a.example/', replay), { 'network.http.http2.enabled': true, 'network.http.http3.enable': false })
  })

  it('a load\'s facts: the entries served, the misses (the new ones named), the 103s and scheduled bodies between two snapshots; a row\'s over its loads', () => {
    const variant = (hints, scheduled) => ({
      hints: { responses: hints, links: 2 * hints }, priorities: {}, scheduler: scheduled === null ? null : { responses: scheduled }
    })
    const snap = (served, missed, v = variant(0, null)) => ({ served: { total: served }, misses: { total: missed.length, requests: missed.map(url => ({ method: 'GET', url })) }, variant: v })
    const a = loadFacts(snap(4, ['https://a.example/favicon.ico']), snap(9, ['https://a.example/favicon.ico', 'https://a.example/x', 'https://b.example/y']))
    assert.deepEqual(a, { served: 5, misses: 2, missed: ['GET https://a.example/x', 'GET https://b.example/y'], hints: 0, scheduled: 0, notModified: 0 })
    const b = loadFacts(snap(0, [], variant(1, 3)), snap(4, ['https://a.example/x'], variant(2, 7)))
    assert.deepEqual(b, { served: 4, misses: 1, missed: ['GET https://a.example/x'], hints: 1, scheduled: 4, notModified: 0 })
    const c = { served: 6, misses: 0, missed: [], hints: 1, scheduled: 6, notModified: 3 }
    // b and c were sent a 103; the browser fetched its preload in c's load only (a's preload count cannot be a 103's).
    const loads = [[a, 1], [b, 0], [c, 2]].map(([replay, earlyHintsPreloads]) => ({ replay, earlyHintsPreloads }))
    assert.deepEqual(rowFacts(loads), { servedMedian: 5, misses: 3, missed: ['GET https://a.example/x', 'GET https://b.example/y'], hints: 2, scheduled: 10, notModified: 3, hintedLoads: 2, hintsUsed: 1 })
    assert.deepEqual(rowFacts([]), { servedMedian: null, misses: 0, missed: [], hints: 0, scheduled: 0, notModified: 0, hintedLoads: 0, hintsUsed: 0 })
    assert.deepEqual([modeOf('cold', 'plain'), modeOf('repeat', 'early-hints')], ['cold', 'repeat early-hints'])
  })

  it('fidelity: a cold load against the recording of its page, origin by origin; none for a repeat view', () => {
    const rec = (url, pageref, connection, bodySize) => ({ startedDateTime: at(1), pageref, request: { method: 'GET', url }, response: { status: 200, bodySize }, connection })
    const har = {
      log: {
        pages: [{ id: 'p1', title: 'one' }, { id: 'p2', title: 'two' }],
        entries: [rec('https://a.example/', 'p1', '1', 1000), rec('https://a.example/app.js', 'p1', '1', 500), rec('https://b.example/i.png', 'p1', '2', 300),
          rec('https://b.example/i.png', 'p1', '3', 300), rec('https://a.example/two', 'p2', '1', 50), rec('http://plain.example/', 'p1', '9', 1)]
      }
    }
    const recorded = recordedLoadsOf(har, ['https://a.example/', 'https://a.example/two'])
    const unknown = { onload: null, fcp: null, lcp: null }
    assert.deepEqual(recorded['https://a.example/'], { requests: 4, bodyBytes: 2100, failed: 0, origins: { 'https://a.example': { requests: 2, connections: 1 }, 'https://b.example': { requests: 2, connections: 2 } }, timings: unknown })
    assert.deepEqual(recorded['https://a.example/two'], { requests: 1, bodyBytes: 50, failed: 0, origins: { 'https://a.example': { requests: 1, connections: 1 } }, timings: unknown })
    const load = (bodyBytes, problem = null) => ({ bodyBytes, problem })
    const site = { view: 'cold', requests: 4, origins: { 'https://a.example': { requests: 2, newConnections: 1 }, 'https://b.example': { requests: 2, newConnections: 1 } }, loads: [load(2110), load(2100), load(2090), load(5, 'no load event')] }
    const f = fidelityOf(recorded['https://a.example/'], site)
    assert.deepEqual([f.requests, f.recordedRequests, f.requestsEqual, f.originsEqual, f.bodyBytes, f.bodyBytesRatio], [4, 4, true, true, 2100, 1])
    assert.deepEqual(f.origins[1], { origin: 'https://b.example', recorded: 2, replayed: 2, recordedConnections: 2, replayedConnections: 1 })
    // One origin short: unequal, and the table names it.
    const short = fidelityOf(recorded['https://a.example/'], { ...site, requests: 3, origins: { ...site.origins, 'https://b.example': { requests: 1, newConnections: 1 } } })
    assert.deepEqual([short.requestsEqual, short.originsEqual], [false, false])
    assert.equal(fidelityOf(recorded['https://a.example/'], { ...site, view: 'repeat' }), null)
    assert.equal(fidelityOf(undefined, site), null)
    const row = fidelity => ({ cell: 'c', preset: 'https://a.example/', browser: 'chromium', samples: [], failures: 0, lane: 'h2', mode: 'cold', replay: { har: 'site.har', recordedAt: null, pages: ['https://a.example/'], page: 'https://a.example/', source: 'h2bench', server: 'node:http2', entries: 5, served: 4, misses: 0, missed: [], assumed: [], fidelity } })
    const table = tables([row(short)]).find(t => /^Fidelity/.test(t.title))
    assert.deepEqual([f.recordedFailed, f.failed], [0, 0])
    assert.deepEqual(table.body[0].slice(0, 5), ['https://a.example/', 'h2', '3 (4)', 'differ', 'differ: https://b.example 1 of 2'])
    assert.equal(table.body[0][5], '0 (0)') // failed below HTTP: the replayed loads' (the recording's)
    assert.match(table.body[0][7], /https:\/\/b\.example: 1 \(recorded 2\)/)
    const timeTable = tables([row(short)]).find(t => /^Fidelity in time/.test(t.title))
    assert.deepEqual(timeTable.body[0], ['https://a.example/', 'h2', '– (–)', '– (–)', '– (–)'])
  })

  it('fidelity counts the requests that failed below HTTP on both sides, gives a row without a good load one too, and holds the replay\'s times to the recording\'s own load', () => {
    const rec = (url, status, error) => ({ startedDateTime: at(1), pageref: 'p1', request: { method: 'GET', url }, response: { status, bodySize: 10 }, ...(error ? { _error: error } : {}) })
    const har = {
      log: {
        pages: [{ id: 'p1', title: 'one', pageTimings: { onContentLoad: 300, onLoad: 400, _firstContentfulPaint: 120.5, _largestContentfulPaint: -1 } }],
        entries: [rec('https://a.example/', 200), rec('https://b.example/x.png', 0, 'net::ERR_CERT_AUTHORITY_INVALID'), rec('https://b.example/y.png', 0, 'net::ERR_CERT_AUTHORITY_INVALID'),
          rec('https://a.example/gone.js', 0, 'net::ERR_ABORTED')]
      }
    }
    const recorded = recordedLoadsOf(har, ['https://a.example/'])['https://a.example/']
    assert.equal(recorded.failed, 2) // the page's own abort is not a failure
    assert.deepEqual(recorded.timings, { onload: 400, fcp: 120.5, lcp: null })
    const failures = (failed, allowed = 0) => ({ failed, allowed, aborted: 0, first: [], origins: [] })
    const loads = [
      { onload: 420, bodyBytes: 10, problem: null, failures: failures(0, 1) },
      { onload: 460, bodyBytes: 10, problem: null, failures: failures(0, 1) },
      { onload: 900, bodyBytes: 10, problem: '2 of 4 requests failed below HTTP', failures: failures(2) }
    ]
    const f = fidelityOf(recorded, { view: 'cold', requests: 4, fcpMedian: 130, lcpMedian: 200, origins: { 'https://a.example': { requests: 2, newConnections: 1 }, 'https://b.example': { requests: 2, newConnections: 1 } }, loads })
    assert.deepEqual([f.recordedFailed, f.failed], [2, 4])
    assert.deepEqual(f.time, {
      onload: { replayed: 440, recorded: 400, ratio: 1.1 }, // the good loads' median
      fcp: { replayed: 130, recorded: 120.5, ratio: 1.079 },
      lcp: { replayed: 200, recorded: null, ratio: null }
    })
    const none = fidelityOf(recorded, { view: 'cold', requests: null, fcpMedian: null, lcpMedian: null, origins: null, loads: [loads[2]] })
    assert.deepEqual([none.requestsEqual, none.originsEqual, none.failed, none.time.onload.replayed], [false, false, 2, null])
    assert.deepEqual(none.origins.map(o => [o.origin, o.recorded, o.replayed]), [['https://a.example', 2, 0], ['https://b.example', 2, 0]])
  })

  it('the variants\' table: the 103s sent and the loads whose page used one, of those sent one; \u2013 where none was sent or not counted', () => {
    const row = variant => ({ cell: 'c', preset: 'https://a.example/', browser: 'chromium', samples: [], failures: 0, lane: 'h2', mode: `cold ${variant.name}`, replay: { har: 'site.har', recordedAt: null, pages: ['https://a.example/'], page: 'https://a.example/', source: 'h2bench', server: 'node:http2', entries: 5, served: 4, misses: 0, missed: [], assumed: [], fidelity: null, variant } })
    const v = { note: null, scheduled: 0 }
    const table = tables([
      row({ ...v, name: 'early-hints', hints: 5, hintedLoads: 5, hintsUsed: 3 }),
      row({ ...v, name: 'rfc9218', hints: 0, hintedLoads: 0, hintsUsed: 0 }),
      row({ ...v, name: 'early-hints', hints: 5 }) // results from before the loads using a 103 were counted
    ]).find(t => /^The server's behaviours/.test(t.title))
    const at = table.head.indexOf('loads using a 103')
    assert.deepEqual(table.body.map(b => [b[at - 1], b[at]]), [[5, '3 of 5'], [0, '\u2013'], [5, '\u2013']])
  })
})

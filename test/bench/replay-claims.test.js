'use strict'

// The replay's claims (bench/report/claims/replay.js) and its table of HTTP/3 against each HTTP/2
// (bench/report/tables/replay.js): HTTP/3 is judged against h2e, HTTP/2 over TCP from the same Caddy (the sides
// differ in protocol only); node:http2 (h2) and spdy (h2-spdy) are references, each a claim and a table row of its
// own, saying that their sides differ in server too. Every claim's text names what its sides differ in. On
// constructed rows: for, against, and not measured without the rows.
const assert = require('node:assert/strict')
const { row } = require('../../bench/cells/helpers')
const { experimentById } = require('../../bench/experiments')
const { claimsOf } = require('../../bench/report/claims')
const { verdicts } = require('../../bench/report/runner/report-verdicts')
const { withRatios } = require('../../bench/report/runner/conclusions')
const tables = require('../../bench/report/tables/replay')
const { validateResults } = require('../../bench/report/runner/results-schema')
const { HTTP3_AGAINST } = require('../../bench/report/claims/replay')

const PAGE = 'https://a.example/'
const CADDY = 'v2.11.2'
const SERVER = { h1: 'node:https', h2: 'node:http2', 'h2-spdy': 'spdy', h2e: 'Caddy (TCP; h3\'s server) in front of node:http', h3: 'Caddy (QUIC) in front of node:http' }

// Replay rows of one page as bench/cells/replay.js makes them (lane the protocol, mode the view, row.replay), onload
// medians in ms per protocol (tight: ±1 %); the edge's rows name the Caddy that served them.
function rows (medians, { caddy = { h2e: CADDY, h3: CADDY } } = {}) {
  const experiment = experimentById('replay')
  const protocols = Object.keys(medians)
  const cell = { url: PAGE, preset: PAGE, har: '/tmp/site.har', protocols }
  const out = []
  for (const lane of protocols) {
    for (const view of ['cold', 'repeat']) {
      const ms = medians[lane] * (view === 'repeat' ? 0.5 : 1)
      const samples = [0.99, 1.01, 1, 0.995, 1.005].map(f => ms * f)
      const replay = {
        har: '/tmp/site.har', recordedAt: null, pages: [PAGE], page: PAGE, source: 'h2bench', server: SERVER[lane], entries: 4, served: 4, misses: 0, missed: [], assumed: [], fidelity: null,
        variant: { name: 'plain', note: null, hints: 0, scheduled: 0, hintedLoads: 0, hintsUsed: 0 },
        ...(caddy[lane] ? { caddy: caddy[lane] } : {})
      }
      out.push(row({ entry: { experiment, index: 0, cell }, lane, mode: view, samples, failures: 0, protocol: lane === 'h1' ? 'http/1.1' : lane === 'h3' ? 'h3' : 'h2', asked: 5, note: null, extra: { browser: 'chromium', site: { view }, replay } }))
    }
  }
  return withRatios(out)
}

const e = experimentById('replay')
const claims = claimsOf('replay')
const byText = (found, pattern) => {
  const v = found.find(x => pattern.test(x.text))
  assert.ok(v, `no claim matching ${pattern}: ${found.map(x => x.text).join(' | ')}`)
  return v
}

describe('replay claims: HTTP/3 against HTTP/2 from one server, node:http2 and spdy as references', () => {
  it('h3 meets h2e (the same Caddy: protocol only); h3 meets h2 and h2-spdy in reference claims of their own (protocol and server); every claim names what its sides differ in', () => {
    const http3 = claims.filter(c => c.b.lane === 'h3')
    assert.deepEqual(http3.map(c => c.a.lane), ['h2e', 'h2', 'h2-spdy'])
    assert.match(http3[0].text, /^Replayed from one server, HTTP\/3 loads the page \(onload\) faster than HTTP\/2/)
    assert.match(http3[0].text, /the sides differ in protocol only \(h3 against h2e: the same Caddy, QUIC against TCP\)/)
    assert.doesNotMatch(http3[0].text, /^Reference/)
    for (const c of http3.slice(1)) {
      assert.match(c.text, /^Reference: /)
      assert.match(c.text, new RegExp(`the sides differ in protocol and server \\(h3 against ${c.a.lane}: Caddy over QUIC against ${c.a.lane === 'h2' ? 'node:http2' : 'spdy'}\\)`))
    }
    const h2 = claims.find(c => c.b.lane === 'h2' && c.a.lane === 'h1')
    assert.match(h2.text, /the sides differ in protocol and server \(h2 against h1: node:http2 against node:https\)/)
    // Every protocol comparison says what its sides differ in; the variants' claims compare a server's behaviour on one protocol.
    for (const c of claims) assert.match(c.text, /the sides differ in |than replayed plain|with the server's own scheduling/, c.text)
    // The table's comparisons are the claims': h2e first, then the references.
    assert.deepEqual(HTTP3_AGAINST.map(x => [x.lane, x.reference]), [['h2e', false], ['h2', true], ['h2-spdy', true]])
  })

  it('h3 faster than h2e and than h2: the same-server claim and the h2 reference hold; spdy, not replayed, is not measured', () => {
    const found = verdicts(e, rows({ h1: 2000, h2: 1500, h2e: 1200, h3: 1000 }))
    assert.equal(found.length, claims.length)
    assert.equal(byText(found, /^Replayed, HTTP\/2 loads/).status, 'holds')
    const same = byText(found, /^Replayed from one server, HTTP\/3/)
    assert.equal(same.status, 'holds', same.detail)
    assert.match(same.detail, /^h3 takes 0\.83× h2e's time/)
    assert.match(same.detail, new RegExp(`both sides served by Caddy ${CADDY.replace(/\./g, '\\.')}`))
    assert.equal(byText(found, /^Reference: replayed, HTTP\/3 from Caddy loads the page \(onload\) faster than HTTP\/2 from node:http2/).status, 'holds')
    assert.equal(byText(found, /^Reference: .* from spdy/).status, 'not measured')
  })

  it('the server, not the protocol: h3 no faster than h2e but faster than node:http2; the same-server claim does not hold, the reference does', () => {
    const found = verdicts(e, rows({ h2: 1500, 'h2-spdy': 1600, h2e: 1000, h3: 1000 }))
    assert.equal(byText(found, /^Replayed from one server/).status, 'does not hold')
    assert.equal(byText(found, /^Reference: .* from node:http2/).status, 'holds')
    assert.equal(byText(found, /^Reference: .* from spdy/).status, 'holds')
    // h2 against h1: not measured without h1.
    assert.equal(byText(found, /^Replayed, HTTP\/2 loads/).status, 'not measured')
  })

  it('without h2e the same-server claim is not measured, whatever h2 says; sides served by two Caddys are named', () => {
    const found = verdicts(e, rows({ h1: 2000, h2: 1500, h3: 1000 }))
    assert.equal(byText(found, /^Replayed from one server/).status, 'not measured')
    assert.equal(byText(found, /^Reference: .* from node:http2/).status, 'holds')
    const two = verdicts(e, rows({ h2e: 1200, h3: 1000 }, { caddy: { h2e: 'v2.6.2', h3: CADDY } }))
    assert.match(byText(two, /^Replayed from one server/).detail, /h3 served by Caddy v2\.11\.2, h2e by Caddy v2\.6\.2/)
  })

  it('the report\'s table: per page and view, h3 against h2e (protocol only), then the references in rows of their own, each with its servers and ratio of medians; results.json names the Caddy', () => {
    const table = tables(rows({ h1: 2000, h2: 1500, h2e: 1200, h3: 1000 })).find(t => /^HTTP\/3 against HTTP\/2/.test(t.title))
    assert.ok(table, 'no HTTP/3 against HTTP/2 table')
    assert.match(table.title, /h2e, the same Caddy over TCP: the sides differ in protocol only/)
    assert.deepEqual(table.head, ['page', 'view', 'against', 'sides differ in', 'h3 (ms)', 'the other (ms)', 'h3 ÷ the other'])
    assert.deepEqual(table.body.map(b => b.slice(0, 3)), [[PAGE, 'cold', 'h2e'], [PAGE, 'cold', 'h2 (reference)'], [PAGE, 'repeat', 'h2e'], [PAGE, 'repeat', 'h2 (reference)']])
    assert.match(table.body[0][3], /^protocol only/)
    assert.match(table.body[1][3], /^protocol and server/)
    assert.deepEqual(table.body[0].slice(4), ['1000', '1200', '0.83×'])
    // Each edge row names its Caddy in results.json (its schema: a version, or null).
    const problems = list => validateResults({ environment: {}, results: list }).filter(p => /\.replay\b/.test(p))
    assert.deepEqual(problems(rows({ h2e: 1200, h3: 1000 })), [])
    assert.deepEqual(problems([{ replay: { ...rows({ h3: 1000 })[0].replay, caddy: 2 } }]), ['results[0].replay.caddy: expected string|null, got 2'])
    // No h3 row, or no HTTP/2 beside it: no table.
    assert.equal(tables(rows({ h1: 2000, h2: 1500 })).find(t => /^HTTP\/3 against HTTP\/2/.test(t.title)), undefined)
  })
})

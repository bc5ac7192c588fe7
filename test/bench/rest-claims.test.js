'use strict'

// The claims of the rest experiment (bench/report/claims/rest.js, seed 001), each on
// constructed rows: a case for it, one against it, one not measured.
const assert = require('node:assert/strict')
const { judge } = require('../../bench/report/claims/judge')
const { claimsOf } = require('../../bench/report/claims')
const stats = require('../../shared/stats')

const CLAIMS = claimsOf('rest')
const claim = text => {
  const found = CLAIMS.filter(c => c.text.startsWith(text))
  assert.equal(found.length, 1, text)
  return found[0]
}
const COMPOUND = claim('One compound document')
const H2_H1 = claim('Separate requests take less time over HTTP/2')
const CACHE = claim('A warm cache')
const LITTLE = claim('The cache helps little')
const STALE = claim('Revalidating the cached items')
const PUSH = claim('Push helps a little')

// Five visits around `ms` (±1 %), in no order that drifts.
const runs = ms => [1, -1, 0.5, -0.5, 0].map(d => ms * (1 + d / 100))
// A row as bench/cells/rest.js makes it, with what the claims read.
function row ({ lane, mode, ms, items = 25, browser = 'chromium', rest = {}, ...extra }) {
  const samples = ms === null ? [] : runs(ms)
  return {
    experiment: 'rest',
    cell: items === 25 ? 0 : 1,
    network: 'link',
    linkSpec: 'rtt=100ms,down=20mbit,up=5mbit,queue=170',
    browser,
    lane,
    mode,
    params: { requests: items },
    samples,
    failures: 0,
    median: samples.length ? stats.median(samples) : null,
    rest: { scenario: `${lane}-${mode}`, items, visits: 5, network: items + 1, cache: 0, revalidated: 0, connections: lane === 'h1' ? 6 : 1, unproven: 0, ...rest },
    ...extra
  }
}
// One browser's visits of one collection: { 'lane mode': ms }.
const visits = (times, options = {}) => Object.entries(times).map(([key, ms]) => {
  const [lane, mode] = key.split(' ')
  return row({ lane, mode, ms, ...options, ...(mode === 'push' ? { pushOutcome: 'refused-by-client' } : {}) })
})
const status = (c, rows) => judge(c, rows).status
// The source's ordering at 25 items: compound first, then the cache, revalidation, separate over h2, separate over h1.
const TYPICAL = { 'h1 separate': 640, 'h1 compound': 140, 'h1 cache': 240, 'h1 cache-stale': 640, 'h2 separate': 300, 'h2 compound': 130, 'h2 cache': 240, 'h2 cache-stale': 270, 'h2 push': 300 }

describe('rest claims (seed 001), each on constructed rows', () => {
  it('every claim quotes the seed and none is h2bench\'s own', () => {
    assert.equal(CLAIMS.length, 6)
    for (const c of CLAIMS) {
      assert.equal(c.hypothesis, false, c.text)
      assert.match(c.source.where, /^seed 001 \(001_62d514182801338f\.txt\), section "/, c.text)
    }
    // The 25-item Chrome medians are not in the seed's text: no claim quotes them.
    assert.ok(!CLAIMS.some(c => /0\.(490|147|276|221|243|215)/.test(`${c.text} ${c.source.figure}`)))
  })

  it('compound fastest: faster than separate, cache and cache-stale on its own lane, browser and size', () => {
    const rows = [...visits(TYPICAL), ...visits(TYPICAL, { browser: 'firefox' }), ...visits(TYPICAL, { items: 500 })]
    const j = judge(COMPOUND, rows)
    assert.equal(j.status, 'reproduced')
    assert.deepEqual(j.cells.map(c => c.part), [0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2])
    // Browser push rows are no cell of it (refused: separate requests with a header).
    assert.ok(!j.cells.some(c => c.rows.some(r => r.mode === 'push')))
    assert.match(j.detail, /h2 separate requests ÷ compound: Chromium 25 items 2\.31×, Firefox 25 items 2\.31×, Chromium 500 items 2\.31× \(source 3\.26×\)/)
    // Compound slower than every other scenario: against it in every cell.
    assert.equal(status(COMPOUND, visits({ ...TYPICAL, 'h1 compound': 900, 'h2 compound': 900 })), 'not reproduced')
    // One part without a measured cell (no cache-stale visits): not measured.
    assert.equal(status(COMPOUND, visits(TYPICAL).filter(r => r.mode !== 'cache-stale')), 'not measured')
    assert.equal(status(COMPOUND, visits(TYPICAL).filter(r => r.mode !== 'compound')), 'not measured')
  })

  it('h2 separate requests faster than h1 separate requests', () => {
    const j = judge(H2_H1, visits(TYPICAL))
    assert.equal(j.status, 'reproduced')
    assert.match(j.detail, /connections the server saw per separate visit \(medians\): Chromium 25 items h1 6, h2 1/)
    assert.equal(status(H2_H1, visits({ ...TYPICAL, 'h2 separate': 900 })), 'not reproduced')
    assert.equal(status(H2_H1, visits({ ...TYPICAL, 'h2 separate': 640 })), 'not reproduced') // no difference is against it
    assert.equal(status(H2_H1, visits(TYPICAL).filter(r => r.lane !== 'h1')), 'not measured')
  })

  it('the cache makes the visit faster; unproven cache hits leave it not measured', () => {
    const cached = { rest: { cache: 23, network: 3 } }
    assert.equal(status(CACHE, visits(TYPICAL)), 'reproduced')
    assert.match(judge(CACHE, [...visits({ 'h2 separate': 300 }), row({ lane: 'h2', mode: 'cache', ms: 240, ...cached })]).detail, /Chromium 25 items: 23 from the cache, 3 to the network/)
    assert.equal(status(CACHE, visits({ ...TYPICAL, 'h2 cache': 330 })), 'not reproduced')
    const unproven = [...visits({ 'h2 separate': 300 }), row({ lane: 'h2', mode: 'cache', ms: null, rest: { unproven: 5 } })]
    const j = judge(CACHE, unproven)
    assert.equal(j.status, 'not measured')
    assert.match(j.detail, /visits whose cache hits were not proven, so not timed: Chromium 25 items: 5 visits/)
  })

  it('the cache helps little: at 500 items, near the source\'s 2.3× (Chrome) and 1.2× (Firefox), within ×1.38', () => {
    const at500 = (browser, separate, cache) => visits({ 'h2 separate': separate, 'h2 cache': cache }, { browser, items: 500 })
    // Chromium 2.3×, Firefox 1.2×, as the source: for in both.
    const j = judge(LITTLE, [...at500('chromium', 2300, 1000), ...at500('firefox', 1200, 1000)])
    assert.equal(j.status, 'reproduced')
    assert.equal(j.cells.length, 2)
    assert.match(j.detail, /within 0\.31×–0\.60×\), by the verdict engine: cell 1: 0\.43×, 95 % interval/)
    // Chromium's cache saving 5×, Firefox's costing 1.5×: against in both.
    assert.equal(status(LITTLE, [...at500('chromium', 5000, 1000), ...at500('firefox', 1000, 1500)]), 'not reproduced')
    // Chromium 1.83× (cache ÷ separate 0.55×, within 0.31–0.60): for; Firefox 4× (0.25×): against.
    assert.equal(status(LITTLE, [...at500('chromium', 1830, 1000), ...at500('firefox', 4000, 1000)]), 'not reproduced')
    // 25-item rows are no cell of it; without Firefox's 500 items one part has no cell.
    assert.equal(status(LITTLE, [...visits(TYPICAL), ...visits(TYPICAL, { browser: 'firefox' })]), 'not measured')
    assert.equal(status(LITTLE, at500('chromium', 2300, 1000)), 'not measured')
  })

  it('revalidation helps, less than a fresh cache', () => {
    const j = judge(STALE, visits(TYPICAL, { rest: { revalidated: 23 } }))
    assert.equal(j.status, 'reproduced')
    assert.match(j.detail, /304s counted by the server: Chromium 25 items: 23 × 304/)
    // Revalidating slower than separate requests (against), the fresh cache still faster than it (for): a tie.
    assert.equal(status(STALE, visits({ ...TYPICAL, 'h2 cache-stale': 350 })), 'not reproduced')
    // Revalidation as fast as the fresh cache: one part for, the other against (no difference).
    assert.equal(status(STALE, visits({ ...TYPICAL, 'h2 cache-stale': 240 })), 'not reproduced')
    assert.equal(status(STALE, visits(TYPICAL).filter(r => r.mode !== 'cache-stale')), 'not measured')
  })

  it('push: judged on Node\'s http2 rows only; the browsers\' refused push rows are not its cells', () => {
    const node = (push, separate, pushed = 25) => [
      row({ lane: 'h2', mode: 'push-protocol', ms: push, browser: 'node:http2', pushed, pushOutcome: `${pushed} of 25 items pushed (median)` }),
      row({ lane: 'h2', mode: 'separate-protocol', ms: separate, browser: 'node:http2', pushOutcome: 'every item requested after the collection' })
    ]
    const j = judge(PUSH, [...visits(TYPICAL), ...node(150, 260)])
    assert.equal(j.status, 'reproduced')
    assert.deepEqual(j.cells.map(c => c.rows.map(r => r.browser)), [['node:http2', 'node:http2']])
    assert.match(j.detail, /in the browsers push was refused in every row \(Chromium: refused-by-client\), so h2-push there is separate requests with one more header/)
    assert.equal(status(PUSH, [...visits(TYPICAL), ...node(300, 260)]), 'not reproduced')
    // The browsers alone: no cell, however their push rows compare.
    assert.equal(status(PUSH, visits({ ...TYPICAL, 'h2 push': 100 })), 'not measured')
    // Nothing pushed to Node's client: that row measured requests, not push.
    const none = judge(PUSH, node(150, 260, 0))
    assert.equal(none.status, 'not measured')
    assert.match(none.detail, /nothing was pushed to h2's client/)
  })
})

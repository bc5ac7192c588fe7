'use strict'

const assert = require('node:assert/strict')
const { experimentById } = require('../../bench/experiments')
const { verdicts } = require('../../bench/report/runner/report-verdicts')
const { tablesOf } = require('../../bench/report/tables')

// Rows as bench/cells/rest.js makes them, reduced to what the verdicts read.
// One time stands for five visits around it (the verdict engine needs 5 good runs a side); its median stays.
function row ({ lane, mode, ms = [], cell = 0, items = 25, browser = 'chromium', rest = {}, pushOutcome, pushed }) {
  if (ms.length === 1) ms = [0.99, 0.995, 1, 1.005, 1.01].map(f => ms[0] * f)
  const sorted = [...ms].sort((a, b) => a - b)
  return {
    experiment: 'rest',
    cell,
    lane,
    mode,
    browser,
    samples: ms,
    failures: 0,
    median: sorted.length ? sorted[Math.floor(sorted.length / 2)] : null,
    q1: sorted[0] ?? null,
    q3: sorted[sorted.length - 1] ?? null,
    params: { requests: items },
    note: null,
    ...(pushOutcome ? { pushOutcome } : {}),
    ...(pushed !== undefined ? { pushed } : {}),
    rest: { scenario: `${lane}-${mode}`, items, visits: ms.length, requests: 26, network: 26, cache: 0, revalidated: 0, serverRequests: 26, pushed: 0, cacheExpected: 0, unproven: 0, untimed: 0, ...rest }
  }
}
// The verdict of the claim whose text starts with `text`, as the report gives it (bench/report/claims/rest.js, judged by bench/report/claims/judge.js).
const check = (text, rows) => verdicts(experimentById('rest'), rows).find(v => v.text.startsWith(text))

describe('runner: verdicts of the rest experiment (seed 001)', () => {
  const base = (browser = 'chromium') => [
    row({ lane: 'h1', mode: 'separate', ms: [700], browser }),
    row({ lane: 'h1', mode: 'compound', ms: [150], browser }),
    row({ lane: 'h2', mode: 'separate', ms: [300], browser }),
    row({ lane: 'h2', mode: 'compound', ms: [150], browser }),
    row({ lane: 'h2', mode: 'cache', ms: [240], browser, rest: { network: 3, cache: 23, cacheExpected: 23 } }),
    row({ lane: 'h2', mode: 'cache-stale', ms: [270], browser, rest: { revalidated: 23, cacheExpected: 23 } }),
    row({ lane: 'h2', mode: 'push', ms: [300], browser, pushOutcome: 'refused-by-client' })
  ]

  it('the experiment keeps its cells and tables, no conclusions of its own, and no source figure the seed lacks', () => {
    const e = experimentById('rest')
    assert.equal(e.conclusions, undefined)
    assert.equal(e.source, null) // its 25-item Chrome medians are in charts the seed's text does not carry
    assert.equal(e.extraTables, undefined)
    assert.equal(typeof tablesOf('rest'), 'function') // its tables: bench/report/tables/rest.js
  })

  it('compound fastest: the ratio per browser and size; a scenario faster than compound is named by its cell', () => {
    const v = check('One compound document', [...base(), ...base('firefox')])
    assert.equal(v.status, 'reproduced')
    assert.match(v.detail, /^compound takes 0\.36× separate's time \(median over 4 cells; 0\.21×–0\.50×\); compound takes 0\.63× cache's time \(median over 2 cells; 0\.63×–0\.63×\); compound takes 0\.56× cache-stale's time/)
    assert.match(v.detail, /compound faster than separate \(for: compound faster than separate\), by the verdict engine, per items in the collection: 25 \(Chromium\), h1: faster \(0\.21×, 95 % interval [^)]*\) → for; 25 \(Chromium\), h2: faster/)
    assert.match(v.detail, /h2 separate requests ÷ compound: Chromium 25 items 2\.00×, Firefox 25 items 2\.00×/)
    // Push is no part of it: the browsers refused it, and the sentence says so.
    assert.doesNotMatch(v.detail, /compound faster than push/)
    assert.match(v.detail, /push was refused in every row \(Chromium: refused-by-client; Firefox: refused-by-client\)/)
    const faster = [...base().filter(r => r.mode !== 'cache'), row({ lane: 'h2', mode: 'cache', ms: [100], rest: { cache: 23, cacheExpected: 23 } })]
    const w = check('One compound document', faster)
    assert.equal(w.status, 'partly reproduced')
    assert.match(w.detail, /compound faster than cache \(for: compound faster than cache\), by the verdict engine, per items in the collection: 25, h2: slower \(1\.50×, [^)]*\) → against/)
    // Two good visits on a side are too few for the engine: every comparison 'not measured', and so the claim.
    const thin = base().map(r => ({ ...r, samples: r.samples.slice(0, 2) }))
    assert.equal(check('One compound document', thin).status, 'not measured')
  })

  it('the cache: a cache row whose hits were not proven has no samples and the claim says it was not measured, not timed', () => {
    const rows = base().map(r => r.mode === 'cache' ? { ...r, samples: [], median: null, rest: { ...r.rest, unproven: 5 } } : r)
    const v = check('A warm cache', rows)
    assert.equal(v.status, 'not measured')
    assert.match(v.detail, /25: not measured \(h2 cache has no good run\) → missing/)
    assert.match(v.detail, /visits whose cache hits were not proven, so not timed: Chromium 25 items: 5 visits/)
    const ok = check('A warm cache', base())
    assert.equal(ok.status, 'reproduced')
    assert.match(ok.detail, /^h2 cache takes 0\.80× h2 separate's time \(median over 1 cell\).*25 items: 23 from the cache, 3 to the network/)
  })

  it('the cache helps little: only the 500-item cells, each against the source\'s figure for its browser', () => {
    const big = (browser, separate, cache) => [row({ lane: 'h2', mode: 'separate', ms: [separate], cell: 1, items: 500, browser }), row({ lane: 'h2', mode: 'cache', ms: [cache], cell: 1, items: 500, browser, rest: { network: 51, cache: 450, cacheExpected: 450 } })]
    // 25 items alone: no cell of this claim.
    assert.equal(check('The cache helps little', base()).status, 'not measured')
    // 1.25× at 500 items in Chromium (the source 2.3×): against; in Firefox near its 1.2×: for.
    const v = check('The cache helps little', [...base(), ...base('firefox'), ...big('chromium', 300, 240), ...big('firefox', 300, 250)])
    assert.equal(v.status, 'not reproduced')
    assert.match(v.detail, /\(for: the interval of h2 cache ÷ h2 separate within 0\.31×–0\.60×\), by the verdict engine, per items in the collection: 500 \(Chromium\): 0\.80×, 95 % interval [^→]* → against/)
    assert.match(v.detail, /\(for: the interval of h2 cache ÷ h2 separate within 0\.60×–1\.15×\), by the verdict engine, per items in the collection: 500 \(Firefox\): 0\.83×, 95 % interval [^→]* → for/)
    assert.match(v.detail, /source: 500 items: 501 requests ÷ the 51 of a warm cache 2\.3× in Chrome, 1\.2× in Firefox/)
    const near = check('The cache helps little', [...big('chromium', 2300, 1000), ...big('firefox', 1200, 1000)])
    assert.equal(near.status, 'reproduced')
  })

  it('push: not a cell in the browsers, which refused it; reproduced or not at the protocol level by Node\'s http2 rows', () => {
    const none = check('Push helps a little', base())
    assert.equal(none.status, 'not measured')
    assert.doesNotMatch(none.detail, / → (for|against|unsure|missing)/) // no browser row is a cell
    assert.match(none.detail, /push was refused in every row \(Chromium: refused-by-client\), so h2-push there is separate requests with one more header/)
    const proto = [...base(),
      row({ lane: 'h2', mode: 'push-protocol', ms: [120], browser: 'node:http2', pushed: 25, pushOutcome: '25 of 25 items pushed (median)' }),
      row({ lane: 'h2', mode: 'separate-protocol', ms: [240], browser: 'node:http2' })]
    const v = check('Push helps a little', proto)
    assert.equal(v.status, 'reproduced')
    assert.match(v.detail, /^pushed takes 0\.50× requested's time \(median over 1 cell\); for: pushed faster than requested; by the verdict engine, per items in the collection: 25 \(node:http2\), h2: faster/)
    assert.match(v.detail, /with Node's http2 client, which accepts push, through the same link: h2 25 items: 25 of 25 items pushed \(median\)/)
  })

  it('h2 against h1 and revalidation against a fresh cache', () => {
    assert.equal(check('Separate requests take less time over HTTP/2', base()).status, 'reproduced')
    const slower = base().map(r => r.lane === 'h2' && r.mode === 'separate' ? { ...r, samples: r.samples.map(v => v * 800 / 300), median: 800 } : r)
    assert.equal(check('Separate requests take less time over HTTP/2', slower).status, 'not reproduced')
    const stale = check('Revalidating the cached items', base())
    assert.equal(stale.status, 'reproduced')
    assert.match(stale.detail, /304s counted by the server: Chromium 25 items: 23 × 304/)
  })
})

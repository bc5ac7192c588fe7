'use strict'

const assert = require('node:assert/strict')
const { experimentById } = require('../../bench/experiments')

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
const check = (text, rows) => experimentById('rest').conclusions.find(c => c.text.startsWith(text)).check(rows)

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

  it('compound fastest: the ratio per browser and size; a scenario faster than compound is named', () => {
    const v = check('One compound document', [...base(), ...base('firefox')])
    assert.equal(v.status, 'reproduced')
    assert.match(v.detail, /Chromium: 25 items 2\.00×; Firefox: 25 items 2\.00×; by the verdict engine compound is faster in 10 of 10 comparisons with another scenario; compound was the fastest scenario on every lane/)
    const faster = [...base(), row({ lane: 'h2', mode: 'cache', ms: [100], cell: 0, rest: { cache: 23, cacheExpected: 23 } })].filter((r, i, all) => !(r.mode === 'cache' && r.median === 240))
    const w = check('One compound document', faster)
    assert.equal(w.status, 'partly reproduced')
    assert.match(w.detail, /compound was slower in: Chromium 25 items h2 cache 0\.100 s, compound 0\.150 s/)
    // Two good visits on a side are too few for the engine: every comparison 'not measured', and so the conclusion.
    const thin = base().map(r => ({ ...r, samples: r.samples.slice(0, 2) }))
    assert.equal(check('One compound document', thin).status, 'not measured')
  })

  it('the cache: a cache row whose hits were not proven has no samples and the verdict says it was not measured, not timed', () => {
    const rows = base().map(r => r.mode === 'cache' ? { ...r, samples: [], median: null, rest: { ...r.rest, unproven: 5 } } : r)
    const v = check('The cache helps little', rows)
    assert.equal(v.status, 'not measured')
    assert.match(v.detail, /cache hits were not proven \(h2 chromium: 5 visits\), so no cache visit was timed/)
    const ok = check('The cache helps little', base())
    assert.equal(ok.status, 'reproduced')
    assert.match(ok.detail, /h2 separate ÷ h2 cache: Chromium: 25 items 1\.25×.*25 items: 23 from the cache, 3 to the network/)
  })

  it('the 500-item ratios are set beside the source\'s for each browser', () => {
    const big = base().map(r => ({ ...r, cell: 1, params: { requests: 500 } }))
    const v = check('The cache helps little', [...base(), ...big])
    assert.match(v.detail, /500 items 1\.25× \(source 2\.3×\)/)
  })

  it('push: refused in the browser; reproduced or not at the protocol level by Node\'s http2 rows', () => {
    const none = check('Push helps a little', base())
    assert.equal(none.status, 'cannot be reproduced in this browser')
    assert.match(none.detail, /push was refused every time \(Chromium: refused-by-client\)/)
    const proto = [...base(),
      row({ lane: 'h2', mode: 'push-protocol', ms: [120], browser: 'node:http2', pushed: 25 }),
      row({ lane: 'h2', mode: 'separate-protocol', ms: [240], browser: 'node:http2' })]
    const v = check('Push helps a little', proto)
    assert.equal(v.status, 'reproduced at the protocol level')
    assert.match(v.detail, /pushed ÷ requested h2 25 items 0\.50×/)
  })

  it('h2 against h1 and revalidation against a fresh cache', () => {
    assert.equal(check('Over HTTP/2 separate requests', base()).status, 'reproduced')
    const slower = base().map(r => r.lane === 'h2' && r.mode === 'separate' ? { ...r, samples: r.samples.map(v => v * 800 / 300), median: 800 } : r)
    assert.equal(check('Over HTTP/2 separate requests', slower).status, 'not reproduced')
    const stale = check('Revalidating the cached items', base())
    assert.equal(stale.status, 'reproduced')
    assert.match(stale.detail, /304s counted by the server: Chromium 25 items: 23 × 304/)
  })
})

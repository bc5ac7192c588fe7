'use strict'

// npm run bench:page's arguments and figures (bench/page-cost/page-cost.js, bench/report/page-cost/report.js) on
// constructed batches; the real command: test/bench/slow/page-cost.test.js.
const assert = require('node:assert/strict')
const { parsePageCostArgs } = require('../../bench/page-cost/page-cost')
const { summarise, formatPageCost } = require('../../bench/report/page-cost/report')

describe('npm run bench:page: arguments and figures', () => {
  it('defaults, --smoke, and one line naming what is wrong and what is allowed', () => {
    const d = parsePageCostArgs([])
    assert.deepEqual([d.requests, d.size, d.sizeBytes, d.pairs], [100, '100kb', 102400, 5])
    assert.deepEqual(d.lanes, ['h1', 'h2', 'h2n', 'h3', 'h2e'])
    const s = parsePageCostArgs(['--smoke', '--lanes', 'h1,h3'])
    assert.deepEqual([s.requests, s.pairs, s.lanes], [20, 1, ['h1', 'h3']])
    assert.throws(() => parsePageCostArgs(['--requests', '0']), /--requests must be a whole number 1…1000; got "0"/)
    assert.throws(() => parsePageCostArgs(['--pairs', 'x']), /--pairs must be a whole number 1…50; got "x"/)
    assert.throws(() => parsePageCostArgs(['--size', 'huge']), /--size: /)
    assert.throws(() => parsePageCostArgs(['--smoke', '--pairs', '3']), /--smoke sets the workload/)
    assert.throws(() => parsePageCostArgs(['--lanes', 'h9']), /h9/)
    assert.throws(() => parsePageCostArgs(['--bogus']), /bogus/)
  })

  it('per lane: the medians of each side, page ÷ bare as the median of the pairs\' ratios with their range', () => {
    const b = (lane, side, pair, cpu) => ({ lane, protocol: 'h2', side, pair, ok: 10, bytes: 1000, ms: 50 + pair, wallMs: 60, browserCpuMs: cpu, serverCpuMs: 20, pageTaskMs: 5 })
    const record = {
      environment: { node: 'v20', cpu: 'X', cpus: 2, os: 'Linux', h2bench: '0.1.0 abc' },
      settings: { lanes: ['h1', 'h2'], requests: 10, size: '100b', pairs: 3 },
      batches: [b('h2', 'page', 0, 120), b('h2', 'bare', 0, 100), b('h2', 'bare', 1, 100), b('h2', 'page', 1, 150), b('h2', 'page', 2, 110), b('h2', 'bare', 2, 100)]
    }
    const [h2] = summarise(record)
    assert.equal(h2.lane, 'h2') // h1 has no batches: no row
    assert.equal(h2.pairs, 3)
    assert.deepEqual([h2.page.cpuMs, h2.bare.cpuMs], [120, 100])
    assert.deepEqual(h2.ratio, { median: 1.2, min: 1.1, max: 1.5 })
    assert.deepEqual([h2.page.ok, h2.page.asked], [30, 30])
    assert.equal(h2.jquery, null) // a record without the jQuery side
    assert.equal(h2.jqueryRatio, null)
    const withJq = { ...record, batches: [...record.batches, b('h2', 'jquery', 0, 105), b('h2', 'jquery', 1, 100), b('h2', 'jquery', 2, 110)] }
    const [j] = summarise(withJq)
    assert.equal(j.jquery.cpuMs, 105)
    assert.deepEqual(j.jqueryRatio, { median: 1.05, min: 1, max: 1.1 })
    assert.match(formatPageCost(withJq), /\nh2 +120 +100 +1\.20× \(1\.10–1\.50\) +105 +1\.05× \(1\.00–1\.10\)/)
    const text = formatPageCost(record)
    assert.match(text, /^h2bench page cost: 10 × 100b a batch, 3 pairs a lane/)
    assert.match(text, /\nh2 +120 +100 +1\.20× \(1\.10–1\.50\)/)
  })
})

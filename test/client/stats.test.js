'use strict'

const assert = require('node:assert/strict')
const stats = require('../../shared/stats')

describe('stats', () => {
  it('quantiles interpolate between ranks like numpy and QUANTILE.INC', () => {
    const v = [15, 20, 35, 40, 50]
    assert.equal(stats.quantile(v, 0), 15)
    assert.equal(stats.quantile(v, 0.25), 20)
    assert.equal(stats.quantile(v, 0.4), 29)
    assert.equal(stats.quantile(v, 1), 50)
    assert.equal(stats.median([4, 1, 3, 2]), 2.5)
    assert.equal(stats.quantile([7], 0.9), 7)
  })

  it('does not reorder its input', () => {
    const v = [3, 1, 2]
    stats.median(v)
    assert.deepEqual(v, [3, 1, 2])
  })

  it('summarises samples', () => {
    const s = stats.summary([10, 12, 11, 13, 100])
    assert.deepEqual(
      { n: s.n, min: s.min, q1: s.q1, median: s.median, q3: s.q3, max: s.max, mean: s.mean },
      { n: 5, min: 10, q1: 11, median: 12, q3: 13, max: 100, mean: 29.2 })
    assert.ok(Math.abs(s.stdev - 39.5942) < 1e-3)
    assert.ok(Math.abs(s.spread - 2 / 12) < 1e-12)
  })

  it('gives NaN, not a made-up number, for no samples', () => {
    const s = stats.summary([])
    assert.equal(s.n, 0)
    assert.ok(Number.isNaN(s.median) && Number.isNaN(s.min) && Number.isNaN(s.mean))
    assert.ok(Number.isNaN(stats.ratio([], [1]).ratio))
  })

  it('ratio of medians with a quartile range', () => {
    const r = stats.ratio([200, 240, 220], [100, 110, 90])
    assert.equal(r.ratio, 2.2)
    assert.ok(r.low < r.ratio && r.ratio < r.high)
    assert.equal(r.low, 210 / 105)
    assert.equal(r.high, 230 / 95)
  })

  it('rejects what is not a list of finite numbers', () => {
    assert.throws(() => stats.median([1, 'x']), /not a finite number: x/)
    assert.throws(() => stats.median([1, NaN]), /not a finite number/)
    assert.throws(() => stats.median(null), /array of numbers/)
    assert.throws(() => stats.quantile([1], 1.5), /within 0..1/)
  })
})

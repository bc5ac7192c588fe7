// Statistics shared by the page, the headless runner and bench:server: one
// implementation, so a median means the same thing everywhere.
// UMD: `require('shared/stats')` in Node, `window.h2benchStats` in the page.
(function (root, factory) {
  if (typeof module === 'object' && module.exports) module.exports = factory()
  else root.h2benchStats = factory()
}(typeof self !== 'undefined' ? self : this, function () {
  'use strict'

  function numbers (values) {
    if (!Array.isArray(values)) throw new TypeError('expected an array of numbers')
    values.forEach(function (v) {
      if (typeof v !== 'number' || !isFinite(v)) throw new TypeError('not a finite number: ' + v)
    })
    return values.slice().sort(function (a, b) { return a - b })
  }

  // Linear interpolation between closest ranks (R type 7, numpy's default,
  // Excel's QUANTILE.INC). NaN for an empty list.
  function quantileSorted (sorted, p) {
    if (!(p >= 0 && p <= 1)) throw new RangeError('quantile must be within 0..1, got ' + p)
    if (sorted.length === 0) return NaN
    const h = (sorted.length - 1) * p
    const lo = Math.floor(h)
    const hi = Math.ceil(h)
    return sorted[lo] + (h - lo) * (sorted[hi] - sorted[lo])
  }

  function quantile (values, p) { return quantileSorted(numbers(values), p) }
  function median (values) { return quantile(values, 0.5) }

  function mean (values) {
    const v = numbers(values)
    if (v.length === 0) return NaN
    return v.reduce(function (s, x) { return s + x }, 0) / v.length
  }

  // Sample standard deviation (n - 1); 0 for a single value.
  function stdev (values) {
    const v = numbers(values)
    if (v.length === 0) return NaN
    if (v.length === 1) return 0
    const m = mean(v)
    return Math.sqrt(v.reduce(function (s, x) { return s + (x - m) * (x - m) }, 0) / (v.length - 1))
  }

  // Everything a result row reports about its samples. `spread` is the
  // interquartile range relative to the median (0.1 = the middle half of the
  // repeats lies within 10% of the median's size).
  function summary (values) {
    const s = numbers(values)
    const med = quantileSorted(s, 0.5)
    const q1 = quantileSorted(s, 0.25)
    const q3 = quantileSorted(s, 0.75)
    return {
      n: s.length,
      min: s.length ? s[0] : NaN,
      q1: q1,
      median: med,
      q3: q3,
      max: s.length ? s[s.length - 1] : NaN,
      mean: mean(s),
      stdev: stdev(s),
      spread: med > 0 ? (q3 - q1) / med : NaN
    }
  }

  // How many times faster lane B is than lane A ("HTTP/2 is 2.4x faster"):
  // median(A) / median(B), with a range from the quartiles (the ratio when A
  // is at its best and B at its worst, and the other way round).
  function ratio (slowerCandidate, fasterCandidate) {
    const a = summary(slowerCandidate)
    const b = summary(fasterCandidate)
    if (!(b.median > 0) || !(b.q1 > 0)) return { ratio: NaN, low: NaN, high: NaN }
    return { ratio: a.median / b.median, low: a.q1 / b.q3, high: a.q3 / b.q1 }
  }

  return { quantile: quantile, quantileSorted: quantileSorted, median: median, mean: mean, stdev: stdev, summary: summary, ratio: ratio }
}))

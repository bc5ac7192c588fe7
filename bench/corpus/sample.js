'use strict'

// Drawing from the corpus's distributions (./distributions.js): a seeded PRNG (the same seed, the same draws, on
// every Node: integer arithmetic only), normal deviates, the normal CDF, and a distribution given by its
// percentiles sampled piecewise log-linearly between them (the tails at the nearest segment's slope, clipped).

// sfc32, seeded through splitmix32 from any number of integers: → () => a float in [0, 1).
function prng (...seeds) {
  let h = 0x9e3779b9
  const mix = x => {
    h = (h + (x | 0) + 0x9e3779b9) | 0
    let z = h
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b)
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35)
    return (z ^ (z >>> 16)) >>> 0
  }
  let [a, b, c, d] = [0, 1, 2, 3].map(i => mix(seeds.reduce((acc, s) => Math.imul(acc ^ mix(s), 0x01000193) >>> 0, i + 1)))
  const next = () => {
    const t = (((a + b) | 0) + d) | 0
    d = (d + 1) | 0
    a = b ^ (b >>> 9)
    b = (c + (c << 3)) | 0
    c = (c << 21) | (c >>> 11)
    c = (c + t) | 0
    return (t >>> 0) / 4294967296
  }
  for (let i = 0; i < 12; i++) next()
  return next
}

// A standard normal deviate (Box–Muller) from `random`.
function normal (random) {
  const u = 1 - random() // (0, 1]
  const v = random()
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v)
}

// The standard normal CDF (Abramowitz & Stegun 7.1.26, error below 1.5e-7).
function normalCdf (z) {
  const x = Math.abs(z) / Math.SQRT2
  const t = 1 / (1 + 0.3275911 * x)
  const erf = 1 - (((((1.061405429 * t - 1.453152027) * t) + 1.421413741) * t - 0.284496736) * t + 0.254829592) * t * Math.exp(-x * x)
  return z >= 0 ? (1 + erf) / 2 : (1 - erf) / 2
}

// The value at quantile u (0…1) of the distribution whose percentiles are `percentiles` ({ 10: v, 25: v, … }):
// log-linear between them, beyond the first and last at the slope of the nearest segment; u clipped to
// [low, high] first.
function quantile (percentiles, u, { low = 0.02, high = 0.98 } = {}) {
  const points = Object.entries(percentiles).map(([p, v]) => [Number(p) / 100, Math.log(v)]).sort((x, y) => x[0] - y[0])
  const q = Math.min(high, Math.max(low, u))
  let i = points.findIndex(([p]) => p >= q)
  if (i <= 0) i = i === 0 ? 1 : points.length - 1 // below the first: the first segment; above the last: the last
  const [p0, l0] = points[i - 1]
  const [p1, l1] = points[i]
  return Math.exp(l0 + (q - p0) * (l1 - l0) / (p1 - p0))
}

// Integers summing to `total`, in proportion to `weights` (largest remainder; ties to the first).
function apportion (total, weights) {
  const sum = weights.reduce((a, w) => a + w, 0)
  if (!(sum > 0)) return weights.map((_, i) => i === 0 ? total : 0)
  const exact = weights.map(w => total * w / sum)
  const out = exact.map(Math.floor)
  let left = total - out.reduce((a, n) => a + n, 0)
  const order = exact.map((x, i) => [x - Math.floor(x), i]).sort((a, b) => (b[0] - a[0]) || (a[1] - b[1]))
  for (let k = 0; left > 0; k++, left--) out[order[k % order.length][1]]++
  return out
}

// `list` shuffled by `random` (Fisher–Yates), a new array.
function shuffle (list, random) {
  const out = list.slice()
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1))
    ;[out[i], out[j]] = [out[j], out[i]]
  }
  return out
}

module.exports = { prng, normal, normalCdf, quantile, apportion, shuffle }

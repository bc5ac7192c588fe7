'use strict'

// The soak benchmark's verdict (bench/soak/soak.js): is the server's RSS flat, and
// are its open file descriptors, once warmed up? Pure functions over samples
// { t (seconds since the load started), rssMiB, fds }, so they can be tested
// on made-up series.

// RSS is flat when its least-squares growth over the measured span (slope ×
// span) is below the larger of these two: 5 % of the mean RSS, or 16 MiB.
// A GC sawtooth of tens of MiB averages out in the fit; a leak of a few KiB
// per request does not.
const RSS_TOLERANCE = { fraction: 0.05, floorMiB: 16 }
// Open fds are flat when their max − min after the warm-up is at most this:
// room for Chromium's six HTTP/1.1 connections to a lane closing and
// reopening, not for one fd per batch.
const FD_RANGE = 8
// Warm-up: the first 20 % of the run, at least one minute for runs of 5 min
// or more (the heap, the TLS session caches and the browser's connections
// settle there).
const WARMUP_FRACTION = 0.2
const WARMUP_MIN_SECONDS = 60
const WARMUP_MIN_FROM_SECONDS = 300
// Fewer samples than this after the warm-up: no verdict on a trend.
const MIN_SAMPLES = 3

function warmupSeconds (durationSeconds) {
  const w = durationSeconds * WARMUP_FRACTION
  return durationSeconds >= WARMUP_MIN_FROM_SECONDS ? Math.max(w, WARMUP_MIN_SECONDS) : w
}

// Ordinary least squares of v over t → { slope, intercept } (slope in units
// of v per unit of t). One point or all at one t: slope 0 through the mean.
function linearFit (ts, vs) {
  const n = ts.length
  if (n === 0) return { slope: 0, intercept: NaN }
  const mt = ts.reduce((a, b) => a + b, 0) / n
  const mv = vs.reduce((a, b) => a + b, 0) / n
  let sxy = 0
  let sxx = 0
  for (let i = 0; i < n; i++) {
    sxy += (ts[i] - mt) * (vs[i] - mv)
    sxx += (ts[i] - mt) ** 2
  }
  const slope = sxx > 0 ? sxy / sxx : 0
  return { slope, intercept: mv - slope * mt }
}

// One series after the warm-up: its fit, and the growth the fit implies over
// the span it covers (the quantity the verdict judges), plus the same over the
// last half alone (does growth go on, or did it stop?).
function seriesTrend (ts, vs) {
  const n = ts.length
  const span = n ? ts[n - 1] - ts[0] : 0
  const { slope, intercept } = linearFit(ts, vs)
  const half = ts.findIndex(t => t >= ts[0] + span / 2)
  const late = half >= 0 ? linearFit(ts.slice(half), vs.slice(half)) : { slope: 0 }
  const lateSpan = half >= 0 ? ts[n - 1] - ts[half] : 0
  return {
    n,
    spanSeconds: span,
    mean: n ? vs.reduce((a, b) => a + b, 0) / n : null,
    min: n ? Math.min(...vs) : null,
    max: n ? Math.max(...vs) : null,
    first: n ? vs[0] : null,
    last: n ? vs[n - 1] : null,
    slopePerMinute: slope * 60,
    intercept,
    growth: slope * span,
    lateGrowth: late.slope * lateSpan
  }
}

// samples: [{ t, rssMiB, fds }] in time order; durationSeconds: the planned
// (or, if interrupted, the actual) length of the load.
function analyze (samples, { durationSeconds, rssTolerance = RSS_TOLERANCE, fdRange = FD_RANGE, minSamples = MIN_SAMPLES } = {}) {
  const warmup = warmupSeconds(durationSeconds)
  const after = samples.filter(s => s.t >= warmup)
  const ts = after.map(s => s.t)
  const rss = seriesTrend(ts, after.map(s => s.rssMiB))
  const fds = seriesTrend(ts, after.map(s => s.fds))
  const enough = after.length >= minSamples
  const rssToleranceMiB = enough ? Math.max(rssTolerance.fraction * rss.mean, rssTolerance.floorMiB) : null
  const fdsSpread = enough ? fds.max - fds.min : null
  const rssFlat = enough && rss.growth < rssToleranceMiB
  const fdsFlat = enough && fdsSpread <= fdRange
  return {
    warmupSeconds: warmup,
    samples: after.length,
    enough,
    rss: { ...rss, toleranceMiB: rssToleranceMiB, flat: rssFlat },
    fds: { ...fds, spread: fdsSpread, tolerance: fdRange, flat: fdsFlat }
  }
}

// The whole verdict: flat RSS, flat fds, no failed request, the server alive.
function verdict (trend, { failed, browserFailed, serverExit = null }) {
  const reasons = []
  if (!trend.enough) reasons.push(`only ${trend.samples} samples after the warm-up (${trend.warmupSeconds.toFixed(0)} s): run longer`)
  else {
    if (!trend.rss.flat) reasons.push(`RSS grew ${trend.rss.growth.toFixed(1)} MiB over ${(trend.rss.spanSeconds / 60).toFixed(1)} min (tolerance ${trend.rss.toleranceMiB.toFixed(1)} MiB)`)
    if (!trend.fds.flat) reasons.push(`open fds ranged ${trend.fds.min}…${trend.fds.max} after the warm-up (tolerance: a range of ${trend.fds.tolerance})`)
  }
  if (failed > 0) reasons.push(`${failed} failed request${failed === 1 ? '' : 's'} (page)`)
  if (browserFailed > 0) reasons.push(`${browserFailed} failed request${browserFailed === 1 ? '' : 's'} (Chromium requestfailed)`)
  if (serverExit) reasons.push(`the server process exited (${serverExit})`)
  return {
    pass: reasons.length === 0,
    rssFlat: trend.rss.flat,
    fdsFlat: trend.fds.flat,
    zeroFailures: failed === 0 && browserFailed === 0,
    serverAlive: !serverExit,
    reasons
  }
}

module.exports = { analyze, verdict, linearFit, warmupSeconds, RSS_TOLERANCE, FD_RANGE, MIN_SAMPLES }

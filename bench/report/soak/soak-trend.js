'use strict'

// The soak benchmark's verdict (bench/commands/soak.js): is the server's RSS flat, and
// are its open file descriptors, once warmed up? Pure functions over samples
// { t (seconds since the load started), rssMiB, fds, sockets? }, so they can be
// tested on made-up series, and a committed results.json rebuilt by today's
// rules (npm run soak -- --from).
const { laneByName } = require('../../../server/lanes')
const { EDGE_UPSTREAM_CONNS } = require('../../../server/edge/caddy')

// The numbers it judges by: bench/soak/soak-criteria.js (the run prints them too).
const { RSS_TOLERANCE, FD_RANGE, POOL_GROWTH, MIN_SAMPLES, warmupSeconds } = require('../../soak/soak-criteria')

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

// The most connections Caddy may pool to the apps of `lanes` (names).
function poolBoundOf (lanes) {
  return EDGE_UPSTREAM_CONNS * lanes.filter(n => laneByName(n).edge).length
}

const range = xs => ({ min: Math.min(...xs), max: Math.max(...xs) })

// samples: [{ t, rssMiB, fds, fdKinds?, sockets? }] in time order;
// durationSeconds: the planned (or, if interrupted, the actual) length of the
// load; poolBound: poolBoundOf(the lanes). Samples without `sockets` (soaks
// before the sockets were counted by owner) are judged on all their fds.
function analyze (samples, { durationSeconds, poolBound = 0, rssTolerance = RSS_TOLERANCE, fdRange = FD_RANGE, minSamples = MIN_SAMPLES } = {}) {
  const warmup = warmupSeconds(durationSeconds)
  const after = samples.filter(s => s.t >= warmup)
  const ts = after.map(s => s.t)
  const byOwner = after.length > 0 && after.every(s => s.sockets)
  const rss = seriesTrend(ts, after.map(s => s.rssMiB))
  const fds = seriesTrend(ts, after.map(s => byOwner ? s.fds - s.sockets.pool : s.fds))
  const enough = after.length >= minSamples
  const rssToleranceMiB = enough ? Math.max(rssTolerance.fraction * rss.mean, rssTolerance.floorMiB) : null
  const fdsSpread = enough ? fds.max - fds.min : null
  const rssFlat = enough && rss.growth < rssToleranceMiB
  const fdsFlat = enough && fdsSpread <= fdRange
  const out = {
    warmupSeconds: warmup,
    samples: after.length,
    enough,
    rss: { ...rss, toleranceMiB: rssToleranceMiB, flat: rssFlat },
    fds: { ...fds, spread: fdsSpread, tolerance: fdRange, flat: fdsFlat, lessPool: byOwner }
  }
  // Which fds moved: sockets (connections come and go) or the rest?
  const kinds = after.filter(s => s.fdKinds)
  if (kinds.length) {
    out.fds.sockets = range(kinds.map(s => s.fdKinds.socket))
    out.fds.others = range(kinds.map(s => s.fds - s.fdKinds.socket))
  }
  if (byOwner) {
    const pool = seriesTrend(ts, after.map(s => s.sockets.pool))
    const poolTolerance = Math.max(fdRange, POOL_GROWTH * poolBound)
    const withinBound = enough && pool.max <= poolBound
    const notGrowing = enough && pool.growth <= poolTolerance
    out.pool = { ...pool, bound: poolBound, growthTolerance: poolTolerance, withinBound, notGrowing, flat: withinBound && notGrowing }
    const closeWait = seriesTrend(ts, after.map(s => s.sockets.closeWait))
    out.closeWait = { ...closeWait, growthTolerance: fdRange, flat: enough && closeWait.growth <= fdRange }
    out.clients = range(after.map(s => s.sockets.clients))
  }
  return out
}

// The whole verdict: flat RSS, flat fds, no failed request, the server alive.
function verdict (trend, { failed, browserFailed, serverExit = null }) {
  const reasons = []
  if (!trend.enough) reasons.push(`only ${trend.samples} samples after the warm-up (${trend.warmupSeconds.toFixed(0)} s): run longer`)
  else {
    if (!trend.rss.flat) reasons.push(`RSS grew ${trend.rss.growth.toFixed(1)} MiB over ${(trend.rss.spanSeconds / 60).toFixed(1)} min (tolerance ${trend.rss.toleranceMiB.toFixed(1)} MiB)`)
    if (!trend.fds.flat) reasons.push(`open fds${trend.fds.lessPool ? ' (less the edge pool)' : ''} ranged ${trend.fds.min}…${trend.fds.max} after the warm-up (tolerance: a range of ${trend.fds.tolerance})`)
    if (trend.pool && !trend.pool.withinBound) reasons.push(`the edge apps held ${trend.pool.max} pooled upstream connections at once (Caddy's bound: ${trend.pool.bound})`)
    if (trend.pool && !trend.pool.notGrowing) reasons.push(`the edge pool grew by ${trend.pool.growth.toFixed(1)} connections over ${(trend.pool.spanSeconds / 60).toFixed(1)} min (tolerance ${trend.pool.growthTolerance.toFixed(0)})`)
    if (trend.closeWait && !trend.closeWait.flat) reasons.push(`sockets in CLOSE_WAIT grew by ${trend.closeWait.growth.toFixed(1)} (tolerance ${trend.closeWait.growthTolerance})`)
  }
  if (failed > 0) reasons.push(`${failed} failed request${failed === 1 ? '' : 's'} (page)`)
  if (browserFailed > 0) reasons.push(`${browserFailed} failed request${browserFailed === 1 ? '' : 's'} (Chromium requestfailed)`)
  if (serverExit) reasons.push(`the server process exited (${serverExit})`)
  return {
    pass: reasons.length === 0,
    rssFlat: trend.rss.flat,
    fdsFlat: trend.fds.flat,
    poolFlat: trend.pool ? trend.pool.flat : null,
    closeWaitFlat: trend.closeWait ? trend.closeWait.flat : null,
    zeroFailures: failed === 0 && browserFailed === 0,
    serverAlive: !serverExit,
    reasons
  }
}

// What the verdict judged by, in words (results.json's settings.tolerances).
function tolerances () {
  return {
    rss: `least-squares growth over the measured span below the larger of ${RSS_TOLERANCE.fraction * 100} % of the mean RSS and ${RSS_TOLERANCE.floorMiB} MiB`,
    rssFraction: RSS_TOLERANCE.fraction,
    rssFloorMiB: RSS_TOLERANCE.floorMiB,
    fds: `max − min after the warm-up at most ${FD_RANGE}, the edge apps' pooled upstream connections left out (when counted)`,
    fdRange: FD_RANGE,
    pool: `the edge apps' pooled upstream connections at most ${EDGE_UPSTREAM_CONNS} per edge lane, least-squares growth at most the larger of ${FD_RANGE} and ${POOL_GROWTH * 100} % of that bound`,
    poolGrowth: POOL_GROWTH,
    closeWait: `sockets in CLOSE_WAIT: least-squares growth at most ${FD_RANGE}`,
    warmup: '20 % of the run, at least 60 s for runs of 5 min or more'
  }
}

// The trend and the verdict of a soak from what it recorded: at its end
// (soak-result.js) and when a results.json is rebuilt (soak-rebuild.js).
// plannedSeconds: --minutes × 60; loadSeconds: how long the load ran;
// stopping: why the load stopped early (null, a signal, 'server exit', …).
function judgeSoak ({ samples, lanes, plannedSeconds, loadSeconds, stopping, interrupted, failed, browserFailed, serverExit }) {
  // An interrupted run is judged on what it ran (its warm-up too).
  const judgedSeconds = stopping ? Math.min(plannedSeconds, loadSeconds) : plannedSeconds
  const trend = analyze(samples, { durationSeconds: judgedSeconds, poolBound: poolBoundOf(lanes) })
  const v = verdict(trend, { failed, browserFailed, serverExit })
  if (stopping && !interrupted && stopping !== 'server exit') {
    v.reasons.push(`the load stopped early: ${stopping}`)
    v.pass = false
  }
  return { trend, verdict: v }
}

module.exports = { analyze, verdict, judgeSoak, tolerances, poolBoundOf, linearFit, warmupSeconds, RSS_TOLERANCE, FD_RANGE, POOL_GROWTH, MIN_SAMPLES }

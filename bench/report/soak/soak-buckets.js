'use strict'

// The soak's samples and runs per time bucket (results.json's buckets, the
// report's table).
const { quantile } = require('../../../shared/stats')

// Samples and finished runs grouped into buckets of `seconds` from t = 0.
// Per bucket: RSS mean (the server's own figure and the observer's), fds
// min…max, event-loop delay p50 (median of the intervals' p50), p99 (the
// worst interval's p99) and max; batches, requests and failed requests of the
// runs that finished in it.
function buckets ({ samples, runs, seconds }) {
  const end = Math.max(0, ...samples.map(s => s.t), ...runs.map(r => r.t))
  const out = []
  for (let from = 0; from <= end || out.length === 0; from += seconds) {
    const to = from + seconds
    const last = to > end
    const inside = t => t >= from && (t < to || (last && t <= to))
    const ss = samples.filter(s => inside(s.t))
    const rs = runs.filter(r => inside(r.t))
    const p50s = ss.map(s => s.loop.p50).filter(v => v !== null)
    const p99s = ss.map(s => s.loop.p99).filter(v => v !== null)
    const maxs = ss.map(s => s.loop.max).filter(v => v !== null)
    const mean = xs => xs.length ? +(xs.reduce((a, b) => a + b, 0) / xs.length).toFixed(2) : null
    out.push({
      from,
      to: Math.min(to, end),
      samples: ss.length,
      rssMiB: mean(ss.map(s => s.rssMiB)),
      rssObserverMiB: mean(ss.map(s => s.observer.rssMiB)),
      fdsMin: ss.length ? Math.min(...ss.map(s => s.fds)) : null,
      fdsMax: ss.length ? Math.max(...ss.map(s => s.fds)) : null,
      loopP50: p50s.length ? +quantile(p50s, 0.5).toFixed(2) : null,
      loopP99: p99s.length ? Math.max(...p99s) : null,
      loopMax: maxs.length ? Math.max(...maxs) : null,
      runs: rs.length,
      batches: rs.reduce((n, r) => n + r.batches, 0),
      requests: rs.reduce((n, r) => n + r.requests, 0),
      failed: rs.reduce((n, r) => n + r.failed, 0)
    })
    if (last) break
  }
  return out
}

module.exports = { buckets }

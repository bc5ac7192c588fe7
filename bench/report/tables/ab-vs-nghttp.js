'use strict'

// ab-vs-nghttp's table (bench/experiments/ab-vs-nghttp.js): per lane and link, the tool's figures beside the source's.
const { rttMsOfSpec } = require('../../../link/spec')
const { sourceFigures: SOURCE } = require('../../experiments/ab-vs-nghttp')
const at = (rows, lane, rtt) => rows.find(r => r.lane === lane && rttOf(r) === rtt && ok(r)) || null
const s = v => v === null || v === undefined ? '–' : (v / 1000).toFixed(2)
const x = v => v === null || !Number.isFinite(v) ? '–' : `${v.toFixed(1)}×`
const rtts = rows => [...new Set(rows.map(rttOf))].filter(Number.isFinite).sort((a, b) => a - b)
const ok = r => r && r.samples.length > 0 && r.failures === 0
const rttOf = r => rttMsOfSpec(r.linkSpec || r.preset) ?? NaN

// The ab-vs-nghttp experiment's tables under its main one (bench/report/runner/report-sections.js): [{ title, head, body }].
module.exports = function tables (rows) {
  const lanes = [...new Set(rows.map(r => r.lane))]
  const body = rtts(rows).flatMap(rtt => lanes.map(lane => {
    const r = rows.find(q => q.lane === lane && rttOf(q) === rtt)
    if (!r) return null
    const h1 = at(rows, 'h1', rtt)
    const l = r.load || {}
    const src = rtt === 500 ? (lane === 'h1' ? SOURCE.h1 : lane === 'h2' ? SOURCE.h2 : null) : null
    return [`${rtt} ms`, lane, l.tool || '–', ok(r) ? s(r.median) : `failed (${r.failures})`, l.reqPerSec === null || l.reqPerSec === undefined ? '–' : l.reqPerSec.toFixed(1), l.connections ?? '–', l.requestsPerConnection ?? '–',
      ok(r) && h1 ? x(h1.median / r.median) : '–', src === null ? '–' : String(src)]
  }).filter(Boolean))
  return [{
    title: 'Per lane and link: the tool, total time (median, s), req/s, the connections the server saw and requests per connection, h1\'s time over the lane\'s, and the source\'s time at its ~500 ms path',
    head: ['link RTT', 'lane', 'tool', 'total (s)', 'req/s', 'connections', 'req/conn', 'h1 ÷ lane', 'source (s)'],
    body
  }]
}

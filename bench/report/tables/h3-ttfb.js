'use strict'

// h3-ttfb's tables (bench/experiments/h3-ttfb.js): time to first byte and round trips per lane, beside the source, and how each connection was made.
const { sourceFigures: SOURCE } = require('../../experiments/h3-ttfb')
const ms = v => v === null || v === undefined ? '–' : `${Math.round(v)} ms`
const trips = v => v === null || v === undefined ? '–' : v.toFixed(1)
const pct = (h2, h3) => (h2 - h3) / h2 * 100
const signed = v => `${v >= 0 ? '' : '−'}${Math.abs(v).toFixed(1)} %`
const laneOrder = rows => [...new Set(rows.map(r => r.lane))]
const frac = (k, n) => `${k}/${n}`
// h3 vs h2e per cell: [{ rtt, h2, h3, lowerPct, tripsH2, tripsH3 }].
function pairs (rows, mode) {
  return cellsOf(rows).map(cell => {
    const a = find(rows, 'h2e', mode, cell)
    const b = find(rows, 'h3', mode, cell)
    if (!a || !b) return null
    return {
      rtt: a.ttfb.rttMs,
      h2: a.median,
      h3: b.median,
      lowerPct: pct(a.median, b.median),
      tripsH2: a.ttfb.roundTrips,
      tripsH3: b.ttfb.roundTrips,
      cleanH3: b.ttfb.roundTripsClean,
      a,
      b
    }
  }).filter(Boolean)
}
const find = (rows, lane, mode, cell) => rows.find(r => r.lane === lane && r.mode === mode && r.cell === cell && ok(r)) || null
const cellsOf = rows => [...new Set(rows.map(r => r.cell))].sort((a, b) => a - b)
const ok = r => r && r.samples.length > 0 && r.failures === 0 && r.ttfb

// The h3-ttfb experiment's tables under its main one (bench/report/runner/report-sections.js): [{ title, head, body }].
module.exports = function tables (rows) {
  const cells = cellsOf(rows)
  const lanes = laneOrder(rows)
  const out = []
  const perLane = cells.map(cell => {
    const any = rows.find(r => r.cell === cell)
    return [any.preset, ...lanes.flatMap(lane => ['cold', 'repeat'].map(mode => {
      const r = find(rows, lane, mode, cell)
      if (!r) return '–'
      const clean = r.protocol === 'h3' && r.ttfb.roundTripsClean !== null && r.ttfb.cleanSamples < r.samples.length ? ` (${trips(r.ttfb.roundTripsClean)} in ${r.ttfb.cleanSamples})` : ''
      return `${ms(r.median)} · ${trips(r.ttfb.roundTrips)}${clean}`
    }))]
  })
  out.push({
    title: 'Time to first byte and round trips paid before it (median; round trips = (first byte − connect start − non-network time) ÷ RTT; h3 in brackets: the samples whose QUIC handshake needed no retransmitted Initial, and how many)',
    head: ['link', ...lanes.flatMap(l => [`${l} cold`, `${l} repeat`])],
    body: perLane
  })
  const cold = pairs(rows, 'cold')
  const rep = pairs(rows, 'repeat')
  if (cold.length || rep.length) {
    const byRtt = [...new Set([...cold, ...rep].map(p => p.rtt))]
    out.push({
      title: 'Beside the source: HTTP/3 (h3) vs HTTP/2 (h2e) at the same edge',
      head: ['RTT', 'h2e cold', 'h3 cold', 'h3 lower by (cold)', 'h2e repeat', 'h3 repeat', 'h3 lower by (repeat)'],
      body: [
        ...byRtt.map(rtt => {
          const c = cold.find(p => p.rtt === rtt)
          const r = rep.find(p => p.rtt === rtt)
          return [`${rtt} ms`, c ? ms(c.h2) : '–', c ? ms(c.h3) : '–', c ? signed(c.lowerPct) : '–', r ? ms(r.h2) : '–', r ? ms(r.h3) : '–', r ? signed(r.lowerPct) : '–']
        }),
        ['source (Cloudflare 2020, real Internet, RTT not given)', `${SOURCE.h2} ms (h2)`, `${SOURCE.h3} ms`, `${SOURCE.lowerPct} %`, '–', '–', '–']
      ]
    })
  }
  out.push({
    title: "How each measured connection was made (Resource Timing; resumption and 0-RTT from Chromium's net-log)",
    head: ['link', 'series', 'new connections', 'handshakes in the net-log', 'TLS/QUIC resumed', '0-RTT attempted', '0-RTT accepted', 'request before handshake end', 'Initial retransmitted', 'before connect (ms)', 'connect (ms)', 'non-network (ms)'],
    body: rows.filter(ok).map(r => [r.preset, `${r.lane} ${r.mode}`, frac(r.ttfb.newConnections, r.samples.length), String(r.ttfb.handshakes),
      frac(r.ttfb.resumed, r.ttfb.handshakes), r.protocol === 'h3' ? frac(r.ttfb.zeroRttAttempted, r.ttfb.handshakes) : 'n/a (TCP)',
      r.protocol === 'h3' ? frac(r.ttfb.zeroRtt, r.ttfb.handshakes) : 'n/a (TCP)', frac(r.ttfb.requestBeforeConnectEnd, r.samples.length),
      r.protocol === 'h3' ? frac(r.ttfb.initialRetransmits, r.ttfb.handshakes) : 'n/a', r.ttfb.preConnectMs === null ? '–' : String(Math.round(r.ttfb.preConnectMs)), r.ttfb.connectMs === null ? '–' : String(Math.round(r.ttfb.connectMs)),
      r.ttfb.serverMs === null ? '–' : r.ttfb.serverMs.toFixed(1)])
  })
  return out
}

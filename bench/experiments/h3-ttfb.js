'use strict'

// Seed 003 (Cloudflare, "HTTP/3 vs HTTP/2"): "for HTTP/3 we saw the first
// byte after 176 ms on average, for HTTP/2 after 201 ms: 12.4 % better",
// credited to QUIC's shorter connection setup and 0-RTT. Here: time to the
// first byte of an empty response on a new connection, cold (no session
// ticket) and on a repeat visit (session cache kept, connection closed), per
// lane, over links of 20 … 300 ms RTT; and how many round trips that was.
// Runner: bench/cells/h3-ttfb.js (kind ttfb).

const { rttMsOfSpec } = require('../../link/spec')

const RTTS = [20, 50, 100, 200, 300]
const SOURCE = { h2: 201, h3: 176, lowerPct: 12.4 }

const ok = r => r && r.samples.length > 0 && r.failures === 0 && r.ttfb
const find = (rows, lane, mode, cell) => rows.find(r => r.lane === lane && r.mode === mode && r.cell === cell && ok(r)) || null
const cellsOf = rows => [...new Set(rows.map(r => r.cell))].sort((a, b) => a - b)
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

module.exports = {
  id: 'h3-ttfb',
  title: 'Time to first byte on a new connection, cold and on a repeat visit: HTTP/3 (QUIC) vs HTTP/2 (TCP + TLS 1.3) at one edge (seed 003)',
  kind: 'ttfb',
  lanes: ['h2e', 'h3', 'h2', 'h2n', 'h1'],
  networks: ['link'],
  modes: ['cold', 'repeat'],
  sweep: { param: 'preset', label: 'link' },
  cells: RTTS.map(rtt => ({ preset: `rtt=${rtt}ms`, link: `rtt=${rtt}ms` })),
  smokeCells: () => [{ preset: 'rtt=50ms', link: 'rtt=50ms' }],
  // Per repeat and lane: a context, the page, three fetches and the flush: about 10 RTT and 0.4 s of browser work.
  estimateMs: (cell, { lanes }) => lanes * (10 * rttMsOfSpec(cell.link) + 400),
  source: null,
  sourceFigures: SOURCE,
  // Tables under the main one (bench/report/runner/report.js).
  extraTables (rows) {
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
}

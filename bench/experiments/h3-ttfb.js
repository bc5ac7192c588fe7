'use strict'

// Seed 003 (Cloudflare, "HTTP/3 vs HTTP/2"): "for HTTP/3 we saw the first
// byte after 176 ms on average, for HTTP/2 after 201 ms: 12.4 % better",
// credited to QUIC's shorter connection setup and 0-RTT. Here: time to the
// first byte of an empty response on a new connection, cold (no session
// ticket) and on a repeat visit (session cache kept, connection closed), per
// lane, over links of 20 … 300 ms RTT; and how many round trips that was.
// Runner: bench/cells/h3-ttfb.js (kind ttfb).
const { verdict, engineVerdict, verdictCounts, statusOf } = require('../runner/conclusions')
const stats = require('../../client/js/stats')

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
    return { rtt: a.ttfb.rttMs, h2: a.median, h3: b.median, lowerPct: pct(a.median, b.median), tripsH2: a.ttfb.roundTrips, tripsH3: b.ttfb.roundTrips, cleanH3: b.ttfb.roundTripsClean, a, b }
  }).filter(Boolean)
}

// What the net-log says about retransmitted QUIC Initials in cold handshakes,
// from the figures: how many, per RTT, and what they cost: the round trips of
// the handshakes that had one against those without (the row's median when
// every handshake of it had one, its slowest sample otherwise). Free ones are
// called free; only costly ones name the known cause to look for.
function initialRetransmissions (h3Rows, retrans, shakes, clean) {
  if (!retrans) return `no cold QUIC handshake retransmitted an Initial packet (net-log, ${shakes} handshakes): the server took Chromium's ClientHello (two packets with its post-quantum key share) at once`
  const base = clean.length ? stats.median(clean) : 2
  const free = []
  const costly = []
  for (const r of h3Rows.filter(q => q.ttfb.initialRetransmits > 0)) {
    const every = r.ttfb.initialRetransmits === r.ttfb.handshakes
    const own = r.ttfb.roundTripsClean !== null ? r.ttfb.roundTripsClean : base
    const worst = every ? r.ttfb.roundTrips : Math.max(...r.ttfb.roundTripSamples)
    const extra = worst - own
    const what = `${r.ttfb.rttMs} ms RTT ${frac(r.ttfb.initialRetransmits, r.ttfb.handshakes)}`
    if (extra > 0.5) costly.push({ what, extra })
    else free.push(`${what} (${trips(worst)} round trips, ${trips(own)} without)`)
  }
  const all = stats.median(h3Rows.map(r => r.ttfb.roundTrips).filter(v => v !== null))
  return `${frac(retrans, shakes)} cold QUIC handshakes retransmitted an Initial packet (net-log)` +
    (free.length ? `; free at ${free.join(', ')}: the first byte came no later than without one (what a client probe timer that fires before a long RTT's answer can arrive does)` : '') +
    (costly.length ? `; costly at ${costly.map(c => `${c.what} (about ${trips(c.extra)} more round trips)`).join(', ')}: h3 ${trips(all)} round trips over all samples, ${trips(base)} without a retransmission ` +
      "(a server that drops the second packet of Chromium's two-packet post-quantum ClientHello does this, quic-go #3760, " +
      "in Caddy before 2.7; the report's environment names the Caddy measured)" : '')
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
  estimateMs: (cell, { lanes }) => lanes * (10 * Number(/rtt=(\d+)/.exec(cell.link)[1]) + 400),
  source: null,
  sourceFigures: SOURCE,
  conclusions: [{
    text: `HTTP/3's time to first byte is lower than HTTP/2's (source: ${SOURCE.h3} ms vs ${SOURCE.h2} ms, ${SOURCE.lowerPct} % lower)`,
    check (rows) {
      const cold = pairs(rows, 'cold')
      if (!cold.length) return verdict('not measured', 'needs lanes h2e and h3 with clean cold samples')
      // By the verdict engine, per RTT: h3's first byte against h2e's (cold decides; the repeat visit is told beside it).
      const verdicts = cold.map(p => engineVerdict(p.a, p.b))
      const rep = pairs(rows, 'repeat')
      const repVerdicts = rep.map(p => engineVerdict(p.a, p.b))
      return verdict(statusOf(verdicts), `cold, h3 vs h2e (same Caddy edge): ${cold.map(p => `${p.rtt} ms RTT ${ms(p.h3)} vs ${ms(p.h2)} (${signed(p.lowerPct)})`).join(', ')}` +
        `; by the verdict engine h3 is ${verdictCounts(verdicts, 'RTTs')}` +
        (rep.length ? `; repeat visit: ${rep.map(p => `${p.rtt} ms ${ms(p.h3)} vs ${ms(p.h2)} (${signed(p.lowerPct)})`).join(', ')}, h3 ${verdictCounts(repVerdicts, 'RTTs')}` : '') +
        `; positive: h3 lower, as the source's ${SOURCE.lowerPct} %`)
    }
  }, {
    text: 'HTTP/3 gets there faster thanks to its shorter handshake: one round trip fewer than TCP + TLS 1.3 before the first byte (2 instead of 3)',
    check (rows) {
      const cold = pairs(rows, 'cold').filter(p => p.tripsH2 !== null && p.tripsH3 !== null)
      if (!cold.length) return verdict('not measured', 'needs lanes h2e and h3 with clean cold samples')
      const saved = stats.median(cold.map(p => p.tripsH2 - p.tripsH3))
      const h2 = stats.median(cold.map(p => p.tripsH2))
      const h3 = stats.median(cold.map(p => p.tripsH3))
      const retrans = cold.reduce((n, p) => n + p.b.ttfb.initialRetransmits, 0)
      const shakes = cold.reduce((n, p) => n + p.b.ttfb.handshakes, 0)
      const status = saved >= 0.7 && saved <= 1.3 ? 'reproduced' : saved > 0.3 ? 'partly reproduced' : 'not reproduced'
      const clean = cold.map(p => p.cleanH3).filter(v => v !== null)
      return verdict(status, `cold, round trips before the first byte (first byte − connect start − non-network time, ÷ RTT; median over ${cold.length} RTTs): ` +
        `h2e ${trips(h2)}, h3 ${trips(h3)}, saved ${trips(saved)} (${cold.map(p => `${p.rtt} ms: ${trips(p.tripsH2)} vs ${trips(p.tripsH3)}`).join(', ')})` +
        (shakes ? '; ' + initialRetransmissions(cold.map(p => p.b), retrans, shakes, clean) : ''))
    }
  }, {
    text: 'On a repeat visit 0-RTT lets HTTP/3 send its request with the first packet (1 round trip to the first byte); TCP + TLS 1.3 resumption still pays 3',
    check (rows) {
      const rep = pairs(rows, 'repeat')
      if (!rep.length) return verdict('not measured', 'needs lanes h2e and h3 with clean repeat samples')
      const h3 = rep.map(p => p.b)
      const h2 = rep.map(p => p.a)
      const sum = (list, k) => list.reduce((n, r) => n + r.ttfb[k], 0)
      const shakes = sum(h3, 'handshakes')
      const zero = sum(h3, 'zeroRtt')
      const attempted = sum(h3, 'zeroRttAttempted')
      const early = sum(h3, 'requestBeforeConnectEnd')
      const t3 = stats.median(h3.map(r => r.ttfb.roundTrips).filter(v => v !== null))
      const clean3 = h3.map(r => r.ttfb.roundTripsClean).filter(v => v !== null)
      const retrans = sum(h3, 'initialRetransmits')
      const t2 = stats.median(h2.map(r => r.ttfb.roundTrips).filter(v => v !== null))
      const resumedTcp = sum(h2, 'resumed')
      const tcpShakes = sum(h2, 'handshakes')
      const status = !shakes ? 'not measured' : zero === shakes && t3 <= 1.5 ? 'reproduced' : zero > 0 ? 'partly reproduced' : 'not reproduced'
      return verdict(status, `h3 repeat: 0-RTT attempted in ${frac(attempted, shakes)} and accepted by the server in ${frac(zero, shakes)} handshakes (net-log), ` +
        `the request sent before the handshake completed in ${frac(early, h3.reduce((n, r) => n + r.samples.length, 0))} (Resource Timing); ` +
        `${trips(t3)} round trips to the first byte (median over the RTTs)` +
        (clean3.length ? `, ${trips(stats.median(clean3))} without a retransmitted Initial (${frac(retrans, shakes)} handshakes needed one)` : '') + `; h2e repeat: TLS resumed in ${frac(resumedTcp, tcpShakes)} handshakes, ` +
        `${trips(t2)} round trips (Chromium sends no TLS early data over TCP)`)
    }
  }],
  // Tables under the main one (bench/runner/report.js).
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

'use strict'

// Seed 004: h2load -t 10 -c 100 -n 1000 -m 100 against HTTP/1.1 and HTTP/3
// (nginx-quic, its 612-byte index page) on a LAN, with netem on the server
// adding latency, loss, duplication and corruption; its table and six
// conclusions. Here: the same workload on every lane (h2load for HTTP/1.1
// and HTTP/2, oha for HTTP/3), through the packet-level link with the same
// impairments on the server → client direction (link presets "QUIC article:
// …"), the clean row too, so every row crosses the same forwarder. Each cell
// runs a second variant (mode "oha"): oha on h1 and h2e too, so HTTP/3 is
// also compared with the same tool on both sides, as the source's h2load was
// (oha shares one queue of requests between its connections, h2load gives
// each its share: under loss that alone changes totals); on the clean link
// oha runs on every HTTP/2 lane, against h2load there: is the HTTP/3 client
// the bottleneck? Its claims: bench/report/claims/h2load-netem.js.
const { loadPreset, NETEM_ROWS } = require('../../load/presets')

// The source's workload per protocol, as its table shows it: every row's time
// × req/s is 10,000 requests (406.49 ms × 24,601 req/s; 33.64 s × 297.28),
// not the 1,000 its command line says, on 100 connections with -m 100: 100
// streams a connection on HTTP/3, 100 requests pipelined on HTTP/1.1 (h2load's
// -m with --h1). Pipelining must match for an h1 ÷ h3 verdict to mean what the
// source's did: without it HTTP/1.1 pays a round trip per request, where the
// source's paid one per connection. Other differences are named
// (bench/report/claims/h2load-netem.js reads this).
const SOURCE_WORKLOAD = {
  'http/1.1': { tool: 'h2load', connections: 100, streams: 1, pipelining: 100, requests: 10000 },
  h3: { tool: 'h2load', connections: 100, streams: 100, pipelining: 1, requests: 10000 }
}

const PRESET = loadPreset('h2load-netem-table')
const SMOKE = { requests: 100, connections: 10, muxConnections: 10, streams: 10, pipeline: 10, threads: 2, size: 612, delay: 0 }

const CLEAN = NETEM_ROWS[0].label
const MAIN = { mode: null }
const SAME_TOOL = lanes => ({ mode: 'oha', tools: { 'http/1.1': 'oha', h2: 'oha' }, lanes })
const variantsOf = row => [MAIN, SAME_TOOL(row.link === 'none' ? ['h1', 'h2', 'h2n', 'h2e'] : ['h1', 'h2e'])]

const cellOf = (row, workload = PRESET.workload, extra = {}) => ({
  preset: row.label,
  link: row.link,
  requests: workload.requests,
  size: String(workload.size),
  delay: 0,
  // A row the source could not finish (h1 under loss + corruption) may take minutes.
  timeoutS: row.link === 'none' || row.link === 'quic-dup' ? 60 : 180,
  workload: { ...workload, muxConnections: workload.muxConnections ?? workload.connections },
  ...extra
})

const ok = r => r && r.samples.length > 0 && r.failures === 0
const find = (rows, lane, label, mode = null) => rows.find(r => r.lane === lane && r.preset === label && (r.mode || null) === mode) || null
const s = v => v === null || v === undefined ? '–' : (v / 1000).toFixed(2)
const x = v => v === null || !Number.isFinite(v) ? '–' : `${v.toFixed(2)}×`
// h1's time over h3's in a cell: > 1 means HTTP/3 ahead (the source's sense
// of "advantage"). h2load's h1 (pipelined, as the source's h2load --h1 -m 100
// was) against oha's h3; oha on h1 too (one tool on both sides, but oha does
// not pipeline) beside it when that variant ran, and in its place when
// h2load's h1 did not run.
function edge (rows, label) {
  const h3 = find(rows, 'h3', label)
  if (!h3 || !ok(h3)) return null
  // Runs with a failed request are not samples (bench/cells/load.js): a row
  // with samples counts, its failed runs are said; one with none did not finish.
  const ratioOf = h1 => !h1 ? null : h1.samples.length ? h1.median / h3.median : h1.failures ? Infinity : null
  const same = find(rows, 'h1', label, 'oha')
  const h2l = find(rows, 'h1', label)
  const ratio = ratioOf(h2l) ?? ratioOf(same)
  if (ratio === null) return null
  const h1 = ratioOf(h2l) !== null ? h2l : same
  return {
    ratio,
    byOha: h1 === same,
    ohaRatio: h1 === same ? null : ratioOf(same),
    h1: h1.samples.length ? h1.median : null,
    h1Failed: h1.failures,
    h3: h3.median,
    h1Row: h1,
    h3Row: h3
  }
}
const src = label => {
  const r = NETEM_ROWS.find(q => q.label === label)
  return r && r.h3 ? (r.h1 ? r.h1.totalMs / r.h3.totalMs : Infinity) : null
}
module.exports = {
  id: 'h2load-netem',
  title: 'h2load -t 10 -c 100 -n 10000 -m 100 (HTTP/1.1 pipelined 100 deep, HTTP/2) and oha -p 100 (HTTP/3) under the source\'s netem impairments, through the packet-level link (seed 004)',
  kind: 'load',
  networks: ['link'],
  tools: PRESET.tools,
  modes: [null, 'oha'],
  sweep: { param: 'preset', label: 'impairment (server → client)' },
  cells: NETEM_ROWS.map(r => cellOf(r, PRESET.workload, { variants: variantsOf(r) })),
  smokeCells: () => [cellOf(NETEM_ROWS[0], SMOKE, { variants: [MAIN, SAME_TOOL(['h1', 'h2n', 'h2e'])] }), cellOf(NETEM_ROWS.find(r => r.link === 'quic-dup'), SMOKE)],
  // Per lane run: seconds on a clean link, a minute and more under 30 % loss; each variant has its edge's 5 s idle close.
  estimateMs: (c, { lanes }) => (lanes + 2) * ({ none: 2000, 'quic-dup': 2000, 'quic-delay': 6000, 'quic-loss-dup': 8000 }[c.link] || 40000) + 10000,
  source: null,
  sourceRows: NETEM_ROWS,
  sourceWorkload: SOURCE_WORKLOAD,
  extraTables (rows) {
    const labels = NETEM_ROWS.map(r => r.label).filter(l => rows.some(q => q.preset === l))
    const lanes = [...new Set(rows.filter(r => !r.mode).map(r => r.lane))]
    const same = ['h1', 'h2e'].filter(l => rows.some(r => r.lane === l && r.mode === 'oha'))
    const cellText = r => !r ? '–' : ok(r) ? `${s(r.median)} s, ${Math.round(r.load.reqPerSec)} req/s, ${r.load.connections} conn` : r.samples.length ? `${s(r.median)} s, ${r.failures} runs failed` : `failed${r.note ? ` (${r.note.split(';')[0]})` : ''}`
    const srcText = v => v ? `${v.totalMs >= 1000 ? `${(v.totalMs / 1000).toFixed(2)} s` : `${v.totalMs} ms`}, ${Math.round(v.reqPerSec)} req/s, ${v.mbPerSec} MB/s` : 'too slow to finish'
    const table = {
      title: 'Per impairment: total time (median), req/s and the connections the server saw per lane (h2load on h1 and HTTP/2, oha on h3; "oha": oha on that lane too), h1 ÷ h3 (h2load\'s pipelined h1 over oha\'s h3; "oha h1" where only oha\'s h1 finished), and the source\'s h1 and h3 rows (h2load on both, nginx-quic on a LAN)',
      head: ['impairment', ...lanes, ...same.map(l => `${l} (oha)`), 'h1 ÷ h3', 'source h1', 'source h3', 'source h1 ÷ h3'],
      body: labels.map(label => {
        const e = edge(rows, label)
        const sr = NETEM_ROWS.find(r => r.label === label)
        return [label, ...lanes.map(l => cellText(find(rows, l, label))), ...same.map(l => cellText(find(rows, l, label, 'oha'))),
          e ? `${x(e.ratio)}${e.byOha ? ' (oha h1)' : ''}` : '–', srcText(sr.h1), srcText(sr.h3), x(src(label))]
      })
    }
    const cal = rows.filter(r => r.mode === 'oha' && r.preset === CLEAN && r.protocol === 'h2').map(r => {
      const base = find(rows, r.lane, CLEAN)
      return [r.lane, ok(base) ? s(base.median) : '–', ok(r) ? s(r.median) : '–', ok(base) && ok(r) ? x(base.median / r.median) : '–',
        ok(base) ? String(Math.round(base.load.reqPerSec)) : '–', ok(r) ? String(Math.round(r.load.reqPerSec)) : '–']
    })
    return cal.length
      ? [table, { title: 'The HTTP/3 client against h2load: oha and h2load with the same workload on the same HTTP/2 lanes, clean link (medians)', head: ['lane', 'h2load (s)', 'oha (s)', 'h2load ÷ oha', 'h2load req/s', 'oha req/s'], body: cal }]
      : [table]
  }
}

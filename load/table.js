'use strict'

// h2bench load's printed output: one side-by-side table per link, and the
// trace lines. Plain text, fixed-width columns.
const { formatTrace } = require('./trace')
const { FROM_TOOL } = require('./tools/common')

const fixed = (v, d) => v === null || v === undefined ? '–' : v.toFixed(d)
const secs = ms => ms === null ? '–' : ms >= 10000 ? `${(ms / 1000).toFixed(1)} s` : ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(ms < 10 ? 2 : 0)} ms`
const lat = v => v === null || v === undefined ? '–' : v >= 1000 ? `${(v / 1000).toFixed(2)} s` : v >= 10 ? v.toFixed(0) : v.toFixed(1)
const perConn = p => !p ? '–' : p.min === p.max ? String(p.min) : `${p.min}–${p.max}`
// † on conns and req/conn: no ledger (a server that is not a lane), the tool's own count.
const own = (r, text) => text !== '–' && r.connectionsFrom === FROM_TOOL ? `${text}†` : text

const COLUMNS = [
  ['lane', r => r.lane],
  ['tool', r => r.tool],
  ['total', r => secs(r.totalMs)],
  ['req/s', r => r.reqPerSec === null ? '–' : r.reqPerSec >= 100 ? r.reqPerSec.toFixed(0) : r.reqPerSec.toFixed(2)],
  ['MB/s', r => fixed(r.mbPerSec, r.mbPerSec >= 10 ? 1 : 3)],
  ['p50 ms', r => lat(r.latencyMs && r.latencyMs.p50)],
  ['p90 ms', r => lat(r.latencyMs && r.latencyMs.p90)],
  ['p99 ms', r => lat(r.latencyMs && r.latencyMs.p99)],
  ['conns', r => own(r, r.connections === null ? '–' : String(r.connections))],
  ['req/conn', r => own(r, perConn(r.requestsPerConnection))],
  ['tool CPU', r => r.toolCpuMs === null || r.toolCpuMs === undefined ? '–' : secs(r.toolCpuMs)],
  ['failed', r => r.error ? 'all' : String(r.failed)],
  ['× h1', r => r.ratioToH1 === null ? '–' : `${r.ratioToH1.toFixed(2)}×`]
]

function table (rows) {
  const cells = [COLUMNS.map(c => c[0]), ...rows.map(r => COLUMNS.map(c => c[1](r)))]
  const widths = COLUMNS.map((_, i) => Math.max(...cells.map(line => line[i].length)))
  return cells.map(line => line.map((cell, i) => i < 2 ? cell.padEnd(widths[i]) : cell.padStart(widths[i])).join('  ').trimEnd())
}

// → the lines h2bench load prints on stdout.
// `server`: a server that is not a lane (load/server-probe.js), loaded at its URL.
function formatLoad ({ rows, workload, preset, server = null }) {
  const out = []
  const w = workload
  const what = server ? `GET ${server.url} (${w.size} B body when probed)` : `${w.size} B${w.delay ? ` after ${w.delay} ms` : ''}`
  out.push(`workload: ${w.requests} requests of ${what}; h1 ${w.connections} connections × ${(w.pipeline || 1) > 1 ? `${w.pipeline} pipelined requests (h2load; ab and oha: 1 at a time)` : "1 request at a time"}, ` +
    `HTTP/2 and HTTP/3 ${w.muxConnections} connection${w.muxConnections === 1 ? '' : 's'} × ${w.streams} streams${w.threads > 1 ? `, ${w.threads} threads` : ''}` +
    (preset ? ` (preset ${preset.name}: ${preset.source})` : ''))
  const links = [...new Set(rows.map(r => r.linkSpec))]
  for (const spec of links) {
    const mine = rows.filter(r => r.linkSpec === spec)
    out.push('', mine[0].link ? `link: ${mine[0].link}` : 'no link: loopback, nothing emulated')
    out.push(...table(mine))
    for (const r of mine) {
      if (r.error) out.push(`  ${r.lane}: ${r.error}`)
      else if (r.failed) out.push(`  ${r.lane}: ${r.failed} of ${r.requests} requests failed or never finished${r.notes.length ? ` (${r.notes.join('; ')})` : ''}`)
    }
  }
  out.push('', 'total: the tool\'s own (nghttp: the process\'s wall clock); req/s and MB/s: successful responses (bodies only) ÷ total; ' +
    (rows.some(r => r.connectionsFrom === FROM_TOOL) ? 'conns and req/conn marked †: no ledger (the server is not an h2bench lane), the tool\'s own count (h2load: its clients and its split of -n, as planned; ab: one per request, without -k; nghttp: its one; oha: from its CSV; --json: each row\'s toolConnections.how)' +
      (rows.some(r => r.connectionsFrom !== FROM_TOOL) ? ', unmarked: what the server saw (its connection ledger)' : '') : 'conns and req/conn: what the server saw (its connection ledger)') + '; tool CPU: the tool\'s own CPU time, all its threads (near or above total: the client was the bottleneck); × h1: req/s over h1\'s on the same link')
  return out
}

const kb = b => b >= 1e6 ? `${(b / 1e6).toFixed(2)} MB` : `${(b / 1e3).toFixed(1)} KB`

// The trace lines of one lane: the tool's or the edge's summary, the
// server's ledger, and the link's counters.
function formatLaneTrace (t) {
  const lines = []
  if (t.summary) lines.push(...formatTrace(t.lane, t.summary))
  const l = t.ledger
  if (l && l.connections !== null && l.connections !== undefined) {
    const p = l.perConnection
    lines.push(`${t.lane.padEnd(5)} server: ${l.requests} requests on ${l.connections} connection${l.connections === 1 ? '' : 's'}` +
      (p ? `, ${p.min === p.max ? p.min : `${p.min}–${p.max} (median ${p.median})`} per connection` : ''))
  }
  if (t.wire) {
    lines.push(`${t.lane.padEnd(5)} link:   ↑ ${t.wire.up.packets} packets ${kb(t.wire.up.bytes)}, ↓ ${t.wire.down.packets} packets ${kb(t.wire.down.bytes)}` +
      `${t.wire.down.lost + t.wire.up.lost ? `, lost ↑ ${t.wire.up.lost} ↓ ${t.wire.down.lost}` : ''}`)
  }
  if (t.note) lines.push(`${t.lane.padEnd(5)} ${t.note}`)
  return lines
}

function formatTraces (traces) {
  const out = ['', 'trace: what went over the wire, per lane']
  let link
  for (const t of traces) {
    if (t.link !== link && t.link) out.push(`link: ${t.link}`)
    link = t.link
    out.push(...formatLaneTrace(t))
  }
  return out
}

module.exports = { formatLoad, formatTraces, formatLaneTrace, table }

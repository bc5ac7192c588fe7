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
  sourceWorkload: SOURCE_WORKLOAD
}

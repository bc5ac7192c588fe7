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
  sourceFigures: SOURCE
}

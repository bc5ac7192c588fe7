'use strict'

// Seed 002: `ab -n 100 -c 10` (HTTP/1.1, 22.5 s) against `nghttp -n -m 100`
// (HTTP/2, 2.6 s) on one 160-byte URL of nghttp2.org, over the internet;
// `nghttp -v` showed the 100 requests sharing one connection. Here: the same
// tools and counts on every lane (HTTP/3: oha, one QUIC connection of 100
// streams) through links of 50 … 500 ms RTT; 500 ms is the source's path
// (load/presets.js says why). Runner: bench/cells/load.js (load/load.js).
// Its claims: bench/report/claims/ab-vs-nghttp.js.
const { loadPreset } = require('../../load/presets')
const { rttMsOfSpec } = require('../../link/spec')

const PRESET = loadPreset('ab-vs-nghttp')
const RTTS = [50, 100, 200, 500]
const SOURCE = { h1: 22.536, h2: 2.626 }


const cell = (rtt, workload = PRESET.workload) => ({
  preset: `rtt=${rtt}ms`,
  link: `rtt=${rtt}ms`,
  requests: workload.requests,
  size: String(workload.size),
  delay: 0,
  workload
})

module.exports = {
  id: 'ab-vs-nghttp',
  title: 'ab -n 100 -c 10 (HTTP/1.1) vs nghttp -n -m 100 (HTTP/2) and oha (HTTP/3) on one small URL, through links of 50–500 ms RTT (seed 002)',
  kind: 'load',
  networks: ['link'],
  tools: PRESET.tools,
  sweep: { param: 'preset', label: 'link' },
  cells: RTTS.map(rtt => cell(rtt)),
  smokeCells: () => [cell(50, { ...PRESET.workload, requests: 20, connections: 5, streams: 20 })],
  // ab: ⌈n/c⌉ rounds of TCP + TLS + request (≈ 4.5 RTT each, measured); the
  // others about 4 RTT each; oha's QUIC waits for the edge's 5 s idle close.
  estimateMs: (c, { lanes }) => {
    const rtt = rttMsOfSpec(c.link)
    return rtt * (Math.ceil(c.workload.requests / c.workload.connections) * 4.5 + 4 * lanes) + 5000 + lanes * 300
  },
  source: null,
  sourceFigures: SOURCE
}

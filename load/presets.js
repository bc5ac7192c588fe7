'use strict'

// The sources' own parameter sets as presets of h2bench load. A preset sets
// the workload, the tool per protocol and the link(s); options given beside
// it win. Each names its source and why its link is what it is.

// Seed 002 (ab vs nghttp against nghttp2.org/httpbin/headers, over the
// internet): its ab figures put the path at about 500 ms RTT: "Processing"
// (request sent → response received on an open connection, one round trip
// plus the server's time) was 488–614 ms, median 520, and "Connect" (TCP +
// TLS 1.2: three round trips) 1,454–1,588 ms. The response was 160 bytes.
const { byName } = require('../common/named')
const AB_VS_NGHTTP = {
  name: 'ab-vs-nghttp',
  source: 'seed 002: `ab -n 100 -c 10` (HTTP/1.1) vs `nghttp -n -m 100` (HTTP/2) on one 160-byte URL',
  workload: { requests: 100, connections: 10, muxConnections: 1, streams: 100, threads: 1, size: 160, delay: 0 },
  tools: { 'http/1.1': 'ab', h2: 'nghttp', h3: 'oha' },
  links: ['rtt=500ms'],
  linkWhy: 'rtt=500ms: the source ran over the internet; its ab figures (processing 488–614 ms = one round trip + server time, connect 1.45–1.59 s = three round trips) put its RTT near 500 ms',
  figures: { h1: { totalMs: 22536, reqPerSec: 4.44 }, h2: { totalMs: 2626 } }
}

// Seed 004 (nginx-quic vs HTTP/1.1 under netem on a LAN): h2load -t 10
// -c 100 -n 1000 -m 100, nginx's 612-byte index page, as its text says; but
// every row of its table has time × req/s = 10,000 requests (406.49 ms ×
// 24,601 req/s), and h2load's -m 100 with --h1 pipelines 100 requests a
// connection: that is the workload here. Its clean row is `h2load-netem`;
// `h2load-netem-table` runs every row of its table, each impairment on the
// server → client direction as netem on the server did (the link presets
// "QUIC article: …", link/presets.js).
const NETEM_WORKLOAD = { requests: 10000, connections: 100, streams: 100, pipeline: 100, threads: 10, size: 612, delay: 0 }
const NETEM_TOOLS = { 'http/1.1': 'h2load', h2: 'h2load', h3: 'oha' }
// The source's table: total time (ms), req/s, MB/s per protocol; null: "too slow to finish".
const NETEM_ROWS = [
  { link: 'none', label: 'clean', h1: [406.49, 24601.15, 21.30], h3: [611.90, 16342.59, 12.98] },
  { link: 'quic-delay', label: '100±10 ms', h1: [1900, 5275.52, 4.57], h3: [3650, 2740.22, 2.18] },
  { link: 'quic-loss', label: 'loss 30 %', h1: [33640, 297.28, 0.2636], h3: [19820, 504.45, 0.44731] },
  { link: 'quic-dup', label: 'dup 70 %', h1: [443.55, 23065.39, 19.97], h3: [419.98, 23810.43, 18.92] },
  { link: 'quic-corrupt', label: 'corrupt 20 %', h1: [14460, 691.61, 0.61327], h3: [4120, 2424.55, 1.93] },
  { link: 'quic-delay-loss', label: '100±10 ms + loss 30 %', h1: [30640, 326.42, 0.28944], h3: [17160, 582.89, 0.47419] },
  { link: 'quic-loss-dup', label: 'loss 30 % + dup 70 %', h1: [2030, 4914.90, 4.26], h3: [3060, 3264.89, 2.59] },
  { link: 'quic-loss-corrupt', label: 'loss 30 % + corrupt 20 %', h1: null, h3: [15090, 662.75, 0.53916] }
].map(r => ({
  ...r,
  h1: r.h1 && { totalMs: r.h1[0], reqPerSec: r.h1[1], mbPerSec: r.h1[2] },
  h3: r.h3 && { totalMs: r.h3[0], reqPerSec: r.h3[1], mbPerSec: r.h3[2] }
}))

const H2LOAD_NETEM = {
  name: 'h2load-netem',
  source: 'seed 004: `h2load -t 10 -c 100 -n 1000 -m 100` as written, 10,000 requests by its table (time × req/s), HTTP/1.1 pipelined 100 deep vs HTTP/3, 612-byte page, clean LAN',
  workload: NETEM_WORKLOAD,
  tools: NETEM_TOOLS,
  links: [null],
  linkWhy: 'no link: the source\'s clean row was a LAN (give --link to put one in)',
  figures: { h1: NETEM_ROWS[0].h1, h3: NETEM_ROWS[0].h3 }
}

const H2LOAD_NETEM_TABLE = {
  name: 'h2load-netem-table',
  source: 'seed 004\'s whole table: the h2load-netem workload on a clean link and under each of its seven netem impairments',
  workload: NETEM_WORKLOAD,
  tools: NETEM_TOOLS,
  links: NETEM_ROWS.map(r => r.link),
  linkWhy: 'the source\'s netem settings as link presets (h2bench-link --list, group quic-article), on the server → client direction as netem on its server',
  rows: NETEM_ROWS
}

const LOAD_PRESETS = [AB_VS_NGHTTP, H2LOAD_NETEM, H2LOAD_NETEM_TABLE]

function loadPreset (name) {
  return byName(LOAD_PRESETS, name, { matches: (p, wanted) => p.name === wanted })
}

module.exports = { LOAD_PRESETS, loadPreset, NETEM_ROWS }

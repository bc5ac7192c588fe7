'use strict'

// oha (github.com/hatoo/oha, Rust, MIT): a maintained HTTP load generator
// that speaks HTTP/1.1, HTTP/2 and HTTP/3 (quinn + h3, its `http3` feature),
// c connections of p parallel requests each. h2bench's HTTP/3 load client:
// Debian's h2load has no QUIC, and no h2load with QUIC (ngtcp2 ≥ 1.0 +
// nghttp3) installs from Debian's packages here. tools/oha/build.js builds
// the pinned version with cargo into .cache/; the h2 lane's oha-vs-h2load
// figures (docs/load.md, "The HTTP/3 client: oha") show it is not the bottleneck.
const { toolVersion, unreadable, percentiles, result, toolConnections, spread } = require('./common')
const { ohaPath, OHA_VERSION } = require('../../tools/oha/build')

const HINT = 'build it with `npm run build:oha` (needs Rust\'s cargo: rustup.rs; a few minutes), or set OHA_PATH to an oha built with `--features http3`'
const VERSIONS = { 'http/1.1': '1.1', h2: '2', h3: '3' }

// Its own connections, from the CSV: a request carries its connection's DNS
// and DNS+dialup times (oha's client.rs), over HTTP/1.1 only the one that
// opened it, over HTTP/2 and HTTP/3 every request on it; so a connection is a
// distinct non-zero pair, and on the multiplexed protocols its requests are
// the rows with that pair. Successful requests only (the CSV lists no other).
function ownConnections (ok, protocol) {
  const byConnection = new Map()
  for (const r of ok) {
    if (!(r[2] > 0)) continue
    const key = `${r[1]},${r[2]}`
    byConnection.set(key, (byConnection.get(key) || 0) + 1)
  }
  const mux = protocol && protocol !== 'http/1.1'
  return toolConnections(byConnection.size, mux ? spread([...byConnection.values()]) : null,
    `oha's CSV: the distinct connection set-up times its successful requests carry${mux ? '' : ' (over HTTP/1.1 only a connection\'s first request carries it: no requests per connection)'}`)
}

module.exports = {
  name: 'oha',
  protocols: ['http/1.1', 'h2', 'h3'],
  hint: HINT,
  executable: () => ohaPath(),
  version: () => toolVersion('oha', ohaPath(), ['--version'], HINT, out => (/oha ([\d.]+)/.exec(out) || [null, OHA_VERSION])[1]),
  // --insecure on a lane: its certificate is self-signed, and no other tool
  // here checks it either. CSV, not its JSON summary: oha's HTTP/3 client
  // ends a run by sending GOAWAY and waiting for the server to close the
  // connection, which quic-go's server leaves to the idle timeout (30 s, or
  // Caddy's idle_timeout), and the summary's total includes that wait. The
  // CSV has every successful request's start (since oha started) and
  // duration, so the total here is the end of the last response, as
  // h2load's "finished in" is.
  //
  // -p is at most ⌈n/c⌉: oha opens only as many connections as ⌈n/p⌉ (the
  // server's ledger: -c 100 -p 100 -n 1000 came on 10 connections of 100,
  // over HTTP/2 and HTTP/3), so with p = ⌈n/c⌉ it opens the c connections of
  // about n/c requests each that h2load's -c/-m make. Its workers share one
  // queue of requests, where h2load gives each connection its share up front:
  // a slow connection's share goes to the others (the ledger's spread shows it).
  //
  // connectTimeoutS (optional): oha gives up on a connection after 5 s of
  // handshake by default, which under heavy loss fails handshakes that a
  // patient client completes (the QUIC interop runner's handshakeloss allows
  // 300 s for 50): a workload may lift it.
  //
  // `verify` (a server that is not a lane, h2bench load --url): { caFile } to
  // check its certificate against the system's CAs and that file (--cacert),
  // {} against the system's alone, { insecure: true } not at all.
  command ({ url, protocol, requests, connections, streams, timeoutS, connectTimeoutS, verify = null }) {
    const tls = !verify || verify.insecure ? ['--insecure'] : verify.caFile ? ['--cacert', verify.caFile] : []
    const args = ['--no-tui', '--output-format', 'csv', ...tls, '--http-version', VERSIONS[protocol],
      '-n', String(requests), '-c', String(connections), '-t', `${timeoutS}s`]
    if (connectTimeoutS) args.push('--connect-timeout', `${connectTimeoutS}s`)
    if (protocol !== 'http/1.1') args.push('-p', String(Math.min(streams, Math.ceil(requests / connections))))
    args.push(url)
    return { executable: ohaPath(), args }
  },
  // "request-start,DNS,DNS+dialup,Response-delay,request-duration,bytes,status", seconds.
  parse ({ stdout, requests, wallMs, protocol }) {
    const lines = String(stdout).trim().split('\n')
    if (!/^request-start,DNS,DNS\+dialup,Response-delay,request-duration,bytes,status$/.test(lines[0] || '')) throw unreadable('oha', 'CSV header', stdout)
    const rows = lines.slice(1).map(l => l.split(',').map(Number)).filter(r => r.length === 7 && r.every(Number.isFinite))
    const ok = rows.filter(r => r[6] >= 200 && r[6] < 300)
    const latencies = ok.map(r => r[4] * 1000)
    const totalMs = ok.length ? Math.max(...ok.map(r => (r[0] + r[4]) * 1000)) : wallMs
    const bytes = ok.reduce((n, r) => n + r[5], 0)
    return result({
      totalMs,
      asked: requests,
      succeeded: ok.length,
      failed: requests - ok.length,
      latency: percentiles(latencies),
      toolBytesPerSec: totalMs ? bytes / (totalMs / 1000) : null,
      toolConnections: ownConnections(ok, protocol),
      notes: ok.length < requests ? ['oha lists successful requests only; failures are the requests missing from its list'] : []
    })
  }
}

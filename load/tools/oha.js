'use strict'

// oha (github.com/hatoo/oha, Rust, MIT): a maintained HTTP load generator
// that speaks HTTP/1.1, HTTP/2 and HTTP/3 (quinn + h3, its `http3` feature),
// c connections of p parallel requests each. h2bench's HTTP/3 load client:
// Debian's h2load has no QUIC, and no h2load with QUIC (ngtcp2 ≥ 1.0 +
// nghttp3) installs from Debian's packages here. tools/oha/build.js builds
// the pinned version with cargo into .cache/; the h2 lane's oha-vs-h2load
// figures (README, "h2bench load") show it is not the bottleneck.
const { toolVersion, unreadable, result } = require('./common')
const { ohaPath, OHA_VERSION } = require('../../tools/oha/build')

const HINT = 'build it with `npm run build:oha` (needs Rust\'s cargo: rustup.rs; a few minutes), or set OHA_PATH to an oha built with `--features http3`'
const VERSIONS = { 'http/1.1': '1.1', h2: '2', h3: '3' }

module.exports = {
  name: 'oha',
  protocols: ['http/1.1', 'h2', 'h3'],
  hint: HINT,
  executable: () => ohaPath(),
  version: () => toolVersion('oha', ohaPath(), ['--version'], HINT, out => (/oha ([\d.]+)/.exec(out) || [null, OHA_VERSION])[1]),
  // --insecure: the lanes' certificate is self-signed, and no other tool here checks it either.
  command ({ url, protocol, requests, connections, streams, timeoutS }) {
    const args = ['--no-tui', '--output-format', 'json', '--insecure', '--http-version', VERSIONS[protocol],
      '-n', String(requests), '-c', String(connections), '-t', `${timeoutS}s`]
    if (protocol !== 'http/1.1') args.push('-p', String(streams))
    args.push(url)
    return { executable: ohaPath(), args }
  },
  parse ({ stdout, requests }) {
    let json
    try {
      json = JSON.parse(stdout)
    } catch {
      throw unreadable('oha', 'JSON summary', stdout)
    }
    if (!json.summary || typeof json.summary.total !== 'number') throw unreadable('oha', 'summary.total', stdout)
    const codes = json.statusCodeDistribution || {}
    const ok = Object.entries(codes).filter(([code]) => /^2/.test(code)).reduce((n, [, k]) => n + k, 0)
    const errors = Object.entries(json.errorDistribution || {})
    const p = json.latencyPercentiles || {}
    const sec = v => typeof v === 'number' ? v * 1000 : null
    return result({
      totalMs: json.summary.total * 1000,
      asked: requests,
      succeeded: ok,
      failed: requests - ok,
      latency: p.p50 === undefined ? null : { p50: sec(p.p50), p90: sec(p.p90), p99: sec(p.p99), max: sec(json.summary.slowest) },
      toolBytesPerSec: json.summary.sizePerSec ?? null,
      notes: errors.length ? [`oha errors: ${errors.map(([e, n]) => `${n} × ${e}`).join('; ').slice(0, 300)}`] : []
    })
  }
}

'use strict'

// nghttp2's h2load: HTTP/2 (and HTTP/1.1 with --h1) with c connections of
// m concurrent streams each over t threads: the source's idiom in seed 004
// (`h2load -t 10 -c 100 -n 1000 -m 100`). Debian's build has no HTTP/3.
// Per-request latencies come from its --log-file (a temp file per run).
const { toolVersion, unreadable, percentiles, result } = require('./common')

const HINT = 'on Debian/Ubuntu `sudo apt-get install -y nghttp2-client`, on macOS `brew install nghttp2`'
const UNITS = { B: 1, KB: 1024, MB: 1024 ** 2, GB: 1024 ** 3 }

// Its summary lines → figures (also used by npm run bench:server).
function parseSummary (text) {
  const finished = /finished in ([\d.]+)(us|ms|s), ([\d.]+) req\/s, ([\d.]+)([KMG]?B)\/s/.exec(text)
  const counts = /requests: (\d+) total, (\d+) started, (\d+) done, (\d+) succeeded, (\d+) failed, (\d+) errored(?:, (\d+) timeout)?/.exec(text)
  if (!finished || !counts) throw unreadable('h2load', '"finished in" and "requests:" summary', text)
  const codes = /status codes: (\d+) 2xx, (\d+) 3xx, (\d+) 4xx, (\d+) 5xx/.exec(text)
  return {
    totalMs: Number(finished[1]) * { us: 1e-3, ms: 1, s: 1000 }[finished[2]], // "418us" when nothing connected
    reqPerSec: Number(finished[3]),
    bytesPerSec: Number(finished[4]) * UNITS[finished[5]],
    total: Number(counts[1]),
    done: Number(counts[3]),
    succeeded: Number(counts[4]),
    failed: Number(counts[5]), // errored and timeout are subsets of it (h2load(1))
    ok2xx: codes ? Number(codes[1]) : null
  }
}

// --log-file: one line per request, "start (µs since epoch) \t status \t duration (µs)".
function parseLog (text) {
  return String(text).trim().split('\n').filter(Boolean).map(line => Number(line.split('\t')[2]) / 1000).filter(Number.isFinite)
}

module.exports = {
  name: 'h2load',
  protocols: ['http/1.1', 'h2'],
  hint: HINT,
  parseSummary,
  parseLog,
  version: () => toolVersion('h2load', 'h2load', ['--version'], HINT, out => (/nghttp2\/([\d.]+)/.exec(out) || [null, 'unknown'])[1]),
  command ({ url, protocol, requests, connections, streams, threads, logFile }) {
    const args = ['-t', String(Math.min(threads, connections)), '-c', String(connections), '-n', String(requests)]
    args.push('-m', String(protocol === 'http/1.1' ? 1 : streams)) // h1: no pipelining, as a browser
    if (protocol === 'http/1.1') args.push('--h1')
    args.push('--log-file', logFile, url)
    return { executable: 'h2load', args, logFile: true }
  },
  parse ({ stdout, stderr, requests, log }) {
    const s = parseSummary(`${stdout}\n${stderr}`)
    const succeeded = s.ok2xx === null ? s.succeeded : Math.min(s.succeeded, s.ok2xx)
    return result({
      totalMs: s.totalMs,
      asked: requests,
      succeeded,
      failed: requests - succeeded,
      latency: percentiles(parseLog(log || '')),
      toolBytesPerSec: s.bytesPerSec
    })
  }
}

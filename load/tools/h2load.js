'use strict'

// nghttp2's h2load: HTTP/2 (and HTTP/1.1 with --h1) with c connections of
// m concurrent streams each over t threads: the source's idiom in seed 004
// (`h2load -t 10 -c 100 -n 1000 -m 100`). Debian's build has no HTTP/3.
// Per-request latencies come from its --log-file (a temp file per run).
// Also npm run bench:server's own runs of it (h2load(), checkH2load(), for
// bench/server-bench/server-bench.js): its command line and figures, not
// h2bench load's (see h2load()).
const { UserError } = require('../../common/errors')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { execFile, execFileSync } = require('node:child_process')
const { toolVersion, unreadable, percentiles, result, toolConnections, spread } = require('./common')

const HINT = 'on Debian/Ubuntu `sudo apt-get install -y nghttp2-client`, on macOS `brew install nghttp2`'
const UNITS = { B: 1, KB: 1024, MB: 1024 ** 2, GB: 1024 ** 3 }
const INSTALL_HINT = `h2load is not installed: ${HINT}`

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

// Its own connections: "spawning thread #i: c total client(s). n total
// requests" per thread, each client one connection given its share of the
// thread's n (h2load.cc: n / c each, one more to the first n % c). What it
// planned, not what it saw: a connection the server closed and h2load
// opened again (HTTP/1.1) is not in it; none when no request started (nothing
// connected). → toolConnections(), or null.
function ownConnections (text) {
  const started = /requests: \d+ total, (\d+) started/.exec(text)
  if (started && Number(started[1]) === 0) return toolConnections(0, null, 'h2load started no request: no connection was made')
  const threads = [...text.matchAll(/spawning thread #\d+: (\d+) total client\(s\)\. (\d+) total requests/g)].map(m => [Number(m[1]), Number(m[2])])
  if (!threads.length) return null
  const shares = threads.flatMap(([c, n]) => Array.from({ length: c }, (_, i) => Math.floor(n / c) + (i < n % c ? 1 : 0)))
  return toolConnections(shares.length, spread(shares), 'h2load\'s clients (its "total client(s)"), each its share of -n: what it planned; a connection it opened again is not counted')
}

// --log-file: one line per request, "start (µs since epoch) \t status \t duration (µs)".
function parseLog (text) {
  return String(text).trim().split('\n').filter(Boolean).map(line => Number(line.split('\t')[2]) / 1000).filter(Number.isFinite)
}

// npm run bench:server's version line: the first line h2load --version
// prints ("h2load nghttp2/1.64.0"), or an Error with INSTALL_HINT.
function checkH2load () {
  try {
    return execFileSync('h2load', ['--version']).toString().trim().split('\n')[0]
  } catch {
    throw new UserError(INSTALL_HINT, { status: 503, code: 'H2B_TOOL_MISSING' })
  }
}

// Runs h2load against `url`. `protocol` 'http/1.1' adds --h1. Returns the
// figures h2load prints plus latency percentiles from its per-request log.
// npm run bench:server's run, apart from h2bench load's (command() and
// parse(), run by load/run-tool.js) and kept as it was: -t 1, -m as given,
// a timed run (-D, --warm-up-time) when `duration`, its own argument order
// (its `command` is in bench:server's JSON), h2load's own succeeded and
// failed counts, and the latencies themselves, sorted. `onSpawn(child)`, if
// given, is called with h2load's process as soon as it starts (bench:server
// reads its CPU time from /proc/<pid>/stat while it runs).
function h2load ({ url, protocol, clients, streams, requests, duration, warmup, onSpawn = null }) {
  const log = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'h2bench-h2load-')), 'requests.tsv')
  const args = ['-t', '1', '-c', String(clients), '-m', String(streams), '--log-file', log]
  if (protocol === 'http/1.1') args.push('--h1')
  if (duration) args.push('-D', String(duration), '--warm-up-time', String(warmup || 1))
  else args.push('-n', String(requests))
  args.push(url)
  return new Promise((resolve, reject) => {
    const child = execFile('h2load', args, { maxBuffer: 16 << 20 }, (err, stdout, stderr) => {
      let summary
      try {
        summary = parseSummary(`${stdout}\n${stderr}`)
      } catch (parseErr) {
        return reject(new Error(`h2load ${args.join(' ')} gave no result: ${err ? err.message : ''}\n${parseErr.message}`))
      }
      const latenciesMs = parseLog(fs.readFileSync(log, 'utf8')).sort((a, b) => a - b)
      fs.rmSync(path.dirname(log), { recursive: true, force: true })
      resolve({
        reqPerSec: summary.reqPerSec,
        bytesPerSec: summary.bytesPerSec,
        done: summary.done,
        succeeded: summary.succeeded,
        failed: summary.failed,
        latenciesMs,
        command: `h2load ${args.filter(a => a !== log && a !== '--log-file').join(' ')}`
      })
    })
    if (onSpawn) onSpawn(child)
  })
}

module.exports = {
  name: 'h2load',
  protocols: ['http/1.1', 'h2'],
  hint: HINT,
  parseSummary,
  parseLog,
  ownConnections,
  h2load,
  checkH2load,
  INSTALL_HINT,
  version: () => toolVersion('h2load', 'h2load', ['--version'], HINT, out => (/nghttp2\/([\d.]+)/.exec(out) || [null, 'unknown'])[1]),
  command ({ url, protocol, requests, connections, streams, pipeline = 1, threads, logFile }) {
    const args = ['-t', String(Math.min(threads, connections)), '-c', String(connections), '-n', String(requests)]
    args.push('-m', String(protocol === 'http/1.1' ? pipeline : streams)) // h1: pipelined only when asked (a browser does not)
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
      toolBytesPerSec: s.bytesPerSec,
      toolConnections: ownConnections(`${stdout}\n${stderr}`)
    })
  }
}

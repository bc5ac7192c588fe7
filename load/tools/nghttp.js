'use strict'

// nghttp2's client: one HTTP/2 connection, the URL requested m times at once
// (`nghttp -n -m 100`: the source's idiom in seed 002, timed with `time`).
// It has no total of its own, so the total is the wall clock of the process,
// as the source's `time` measured it; latencies are its -s statistics
// (responseEnd − requestStart per request). It exits 0 even when it could not
// connect: what counts is the rows it printed.
const { toolVersion, unreadable, percentiles, result, toolConnections } = require('./common')

const HINT = 'on Debian/Ubuntu `sudo apt-get install -y nghttp2-client`, on macOS `brew install nghttp2`'
const TIME = { us: 1e-3, ms: 1, s: 1000 }

function ms (text) {
  const m = /^\+?([\d.]+)(us|ms|s)$/.exec(text)
  return m ? Number(m[1]) * TIME[m[2]] : NaN
}

module.exports = {
  name: 'nghttp',
  protocols: ['h2'],
  hint: HINT,
  oneConnection: true,
  version: () => toolVersion('nghttp', 'nghttp', ['--version'], HINT, out => (/nghttp2\/([\d.]+)/.exec(out) || [null, 'unknown'])[1]),
  // -v (trace) prints every frame (summariseNghttp, load/tools/nghttp-trace.js
  // reads them); -s the per-request statistics.
  command ({ url, requests, trace }) {
    return { executable: 'nghttp', args: ['-n', trace ? '-v' : '-s', '-m', String(requests), url] }
  },
  parse ({ stdout, stderr, requests, wallMs, trace }) {
    const text = `${stdout}\n${stderr}`
    if (trace) {
      // -v: a response is its END_STREAM on a stream (HEADERS or DATA received with flags & 0x01).
      const ended = new Set()
      for (const m of text.matchAll(/recv (?:DATA|HEADERS) frame <length=\d+, flags=0x([0-9a-f]+), stream_id=(\d+)>/g)) {
        if (parseInt(m[1], 16) & 1) ended.add(m[2])
      }
      const ok = (text.match(/:status: 2\d\d/g) || []).length
      if (!/Connected/.test(text)) throw unreadable('nghttp', 'connection ("Connected")', text)
      const succeeded = Math.min(ok, ended.size)
      return result({ totalMs: wallMs, asked: requests, succeeded, failed: requests - succeeded, latency: null, notes: ['trace run: nghttp -v, no latencies'] })
    }
    if (!/\*{5} Statistics \*{5}/.test(text)) throw unreadable('nghttp', '-s statistics', text)
    const rows = [...text.matchAll(/^\s*\d+\s+(\+\S+)\s+(\+\S+|\*)\s+(\S+)\s+(\d{3})\s+(\d+)\s+\S/gm)]
    const latencies = rows.map(r => ms(r[3])).filter(Number.isFinite)
    const succeeded = rows.filter(r => /^2/.test(r[4])).length
    const notes = []
    const why = /\[ERROR\] (.*)/.exec(text)
    if (why) notes.push(`nghttp: ${why[1]}`)
    const own = toolConnections(rows.length ? 1 : 0, rows.length ? { min: rows.length, median: rows.length, max: rows.length } : null, 'nghttp -n -m: every request on its one connection')
    return result({ totalMs: wallMs, asked: requests, succeeded, failed: requests - succeeded, latency: percentiles(latencies), toolConnections: own, notes: ['total time: wall clock of the nghttp process, as `time nghttp …`', ...notes] })
  }
}

'use strict'

// `h2bench load --trace`: what went over the wire per lane, from the load
// tools' own verbose output, so "100 requests, 1 connection" and "100
// requests, 100 connections, 100 TLS handshakes" are printed, not argued.
//   h2:  `nghttp -nv -m N URL` (stdout): every frame sent and received
//        (load/tools/nghttp-trace.js)
//   h1:  `ab -v 2 -n N -c C URL` (stdout and stderr): every TLS handshake
//        (load/tools/ab-trace.js)
//   h3:  the qlog quic-go writes per QUIC connection when Caddy runs with
//        QLOGDIR (startAll's qlogDir): the server's view of every packet
//        (load/qlog.js)
// Pure functions (summariseQlogDir reads its folder); each throws an Error
// naming the tool and what was missing when given anything but its output.
// "up" is client to server, "down" server to client.
// Here: what the three parsers share (TraceError, its message, counting)
// and formatTrace, the printed lines of any of their summaries.

const { UserError } = require('../common/errors')

// A tool's verbose output or a qlog folder that cannot be read as one: the run failed (exit 1), the message says why.
class TraceError extends UserError {
  constructor (message, options = {}) {
    super(message, { status: 500, code: 'H2B_TRACE', ...options })
  }
}

function fail (tool, what, text) {
  const hint = typeof text === 'string' ? lastLines(text) : ''
  return new TraceError(`${tool}: ${what}${hint ? ` (its output ended: ${hint})` : ''}`)
}

// The last non-empty lines of a tool's output, for an error message.
function lastLines (text, n = 2) {
  return text.split('\n').map(l => l.trim()).filter(Boolean).slice(-n).join(' | ').slice(0, 200)
}

function count (map, key, by = 1) {
  map[key] = (map[key] || 0) + by
}

function plural (n, word, many = `${word}s`) {
  return `${n} ${n === 1 ? word : many}`
}

function kb (n) {
  return n < 1024 ? `${n} B` : n < 1024 * 1024 ? `${(n / 1024).toFixed(1)} KB` : `${(n / 1024 / 1024).toFixed(2)} MB`
}

// "HEADERS 10, PRIORITY 5, SETTINGS 2": commonest first.
function frameList (map) {
  const entries = Object.entries(map || {}).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
  return entries.length ? entries.map(([type, n]) => `${type} ${n}`).join(', ') : 'none'
}

// "10 streams on it" / "10 streams (4, 3, 3)".
function streamsText (summary) {
  const per = summary.streamsPerConnection || []
  if (per.length === 1) return `${plural(summary.streams, 'stream')} on it`
  const shown = per.length > 12 ? `${per.slice(0, 12).join(', ')}, …` : per.join(', ')
  return `${plural(summary.streams, 'stream')} (${shown} per connection)`
}

// Printable lines for one lane's trace summary (any of the three above).
function formatTrace (laneName, summary) {
  const pad = String(laneName).padEnd(4)
  const indent = ' '.repeat(pad.length + 2)
  if (!summary || !summary.tool) throw new TraceError(`trace of lane ${laneName}: no summary to format`)
  if (summary.tool === 'ab') {
    const s = summary
    let line = `${pad}  ${plural(s.requests, 'request')} over ${plural(s.connections, 'connection')} (${plural(s.tlsHandshakes, 'TLS handshake')}), ` +
      `${s.requestsPerConnection.toFixed(1)} requests per connection`
    if (s.keepAliveRequests != null) line += `, ${s.keepAliveRequests} keep-alive`
    if (s.unusedConnections) line += `; ${plural(s.unusedConnections, 'connection')} opened and closed unused (ab)`
    return [line]
  }
  const s = summary
  const requests = s.h3Frames ? (s.h3Frames.up.headers || 0) : s.streams
  const lines = [`${pad}  ${plural(requests, 'request')} over ${plural(s.connections, 'connection')} (${plural(s.tlsHandshakes, 'TLS handshake')}` +
    `${s.zeroRttConnections ? `, ${s.zeroRttConnections} with 0-RTT` : ''}), ${streamsText(s)}; ${kb(s.bytes.up)} ↑ ${kb(s.bytes.down)} ↓` +
    (s.packets ? ` in ${s.packets.up} ↑ ${s.packets.down} ↓ packets${s.packets.dropped ? ` (${s.packets.dropped} dropped)` : ''}` : ` of ${s.protocol || 'HTTP/2'} frames`)]
  if (s.h3Frames) lines.push(`${indent}HTTP/3 frames ↑ ${frameList(s.h3Frames.up)}; ↓ ${frameList(s.h3Frames.down)}`)
  lines.push(`${indent}${s.packets ? 'QUIC frames' : 'frames'} ↑ ${frameList(s.frames.up)}; ↓ ${frameList(s.frames.down)}`)
  if (s.truncated || (s.closed != null && s.closed < s.connections)) {
    lines.push(`${indent}(${plural(s.connections - s.closed, 'connection')} still open when read: its qlog may be incomplete)`)
  }
  return lines
}

module.exports = { formatTrace, TraceError, fail, count }

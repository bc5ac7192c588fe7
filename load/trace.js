'use strict'

const fs = require('node:fs')
const path = require('node:path')

// `h2bench load --trace`: what went over the wire per lane, from the load
// tools' own verbose output, so "100 requests, 1 connection" and "100
// requests, 100 connections, 100 TLS handshakes" are printed, not argued.
//   h2:  `nghttp -nv -m N URL` (stdout): every frame sent and received
//   h1:  `ab -v 2 -n N -c C URL` (stdout and stderr): every TLS handshake
//   h3:  the qlog quic-go writes per QUIC connection when Caddy runs with
//        QLOGDIR (startAll's qlogDir): the server's view of every packet
// Pure functions (summariseQlogDir reads its folder); each throws an Error
// naming the tool and what was missing when given anything but its output.
// "up" is client to server, "down" server to client.

class TraceError extends Error {}

const HTTP2_FRAME_HEADER = 9 // octets before every HTTP/2 frame's payload (RFC 9113 4.1)

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

// nghttp -v prints, per frame:
//   [  0.040] send HEADERS frame <length=51, flags=0x25, stream_id=13>
const NGHTTP_FRAME = /^\[\s*[\d.]+\]\s+(send|recv)\s+([A-Za-z_]+) frame <length=(\d+), flags=0x([0-9a-fA-F]+), stream_id=(\d+)>/
const NGHTTP_CONNECTED = /^\[\s*[\d.]+\]\s+Connected\s*$/
const NGHTTP_PROTOCOL = /^The negotiated protocol:\s*(\S+)/

// `nghttp -nv [-m N] URL…` stdout → { tool, protocol, connections,
// tlsHandshakes, streams, streamsPerConnection, frames: { up, down },
// bytes: { up, down } }. streams: request streams the client opened (a
// HEADERS frame sent on a new odd stream id; nghttp's PRIORITY-only anchor
// streams 3…11 are not requests). bytes are HTTP/2 frame bytes (9-octet
// header + payload), not TLS records or TCP segments, and leave out the
// client's 24-octet connection preface, which nghttp does not print. Frames
// belong to the connection of the latest "Connected" line: right for one
// URL's host (what `load` runs); nghttp with several hosts may interleave them.
function summariseNghttp (text) {
  if (typeof text !== 'string') throw new TraceError('nghttp: no output given (expected the stdout of `nghttp -nv`)')
  const perConnection = []
  let current = null
  const protocols = []
  const frames = { up: {}, down: {} }
  const bytes = { up: 0, down: 0 }
  let frameCount = 0
  const connect = () => {
    current = { opened: new Set() }
    perConnection.push(current)
  }
  for (const raw of text.split('\n')) {
    const line = raw.trimEnd()
    if (NGHTTP_CONNECTED.test(line)) {
      connect()
      continue
    }
    const p = NGHTTP_PROTOCOL.exec(line)
    if (p) {
      protocols.push(p[1])
      continue
    }
    const f = NGHTTP_FRAME.exec(line)
    if (!f) continue
    if (!current) connect() // output cut before its first "Connected"
    const [, dir, type, length, , streamId] = f
    const side = dir === 'send' ? 'up' : 'down'
    count(frames[side], type)
    bytes[side] += Number(length) + HTTP2_FRAME_HEADER
    frameCount++
    const id = Number(streamId)
    if (side === 'up' && type === 'HEADERS' && id % 2 === 1) current.opened.add(id)
  }
  if (!frameCount) {
    const why = perConnection.length && !protocols.length
      ? 'connected, but no HTTP/2 was negotiated and no frame was printed (is the server HTTP/2 over TLS, with ALPN h2?)'
      : 'no frame lines ("[ t] send|recv TYPE frame <length=…, flags=…, stream_id=…>") found: run it as `nghttp -nv URL` and pass its stdout'
    throw fail('nghttp', why, text)
  }
  const streamsPerConnection = perConnection.map(c => c.opened.size)
  return {
    tool: 'nghttp',
    protocol: [...new Set(protocols)].join(', ') || null,
    connections: perConnection.length,
    tlsHandshakes: protocols.length,
    streams: streamsPerConnection.reduce((a, b) => a + b, 0),
    streamsPerConnection,
    frames,
    bytes
  }
}

// `ab -v 2 -n N -c C https://…` → { tool, protocol, connections,
// tlsHandshakes, requests, failed, requestsPerConnection, keepAliveRequests,
// unusedConnections }. With -v 2 ab prints, for every TLS handshake, an
// "SSL-Session:" block on stderr and a "Peer certificate" block on stdout;
// either stream (or both, concatenated) will do. ab has no connection reuse
// beyond -k's keep-alive, so connections = TLS handshakes. Without -k ab
// opens one connection per request, and a few more near the end it then
// closes unused (a new connection starts whenever one closes and not all
// requests are written yet): unusedConnections = connections - requests.
// completed: the number of requests done, when the caller knows it; else
// ab's own "Complete requests:" line.
function summariseAb (text, { completed } = {}) {
  if (typeof text !== 'string') throw new TraceError('ab: no output given (expected the stdout and stderr of `ab -v 2`)')
  const sessions = (text.match(/^SSL-Session:/gm) || []).length
  const certificates = (text.match(/^Peer certificate\s*$/gm) || []).length
  const complete = /^Complete requests:\s+(\d+)/m.exec(text)
  const failed = /^Failed requests:\s+(\d+)/m.exec(text)
  const keepAlive = /^Keep-Alive requests:\s+(\d+)/m.exec(text)
  const requests = completed != null ? Number(completed) : complete ? Number(complete[1]) : null
  if (requests == null) {
    const what = /ApacheBench/.test(text)
      ? 'no "Complete requests:" line: the run did not finish, and no completed count was given'
      : 'not ApacheBench output (no "This is ApacheBench" banner, no "Complete requests:" line)'
    throw fail('ab', what, text)
  }
  const handshakes = Math.max(sessions, certificates)
  if (!handshakes) {
    throw fail('ab', 'no TLS handshake printed (no "SSL-Session:" or "Peer certificate" block): run it with -v 2 or more, against an https URL, and pass its stderr too', text)
  }
  const keepAliveRequests = keepAlive ? Number(keepAlive[1]) : null
  return {
    tool: 'ab',
    protocol: 'http/1.1',
    connections: handshakes,
    tlsHandshakes: handshakes,
    requests,
    failed: failed ? Number(failed[1]) : null,
    requestsPerConnection: requests / handshakes,
    keepAliveRequests,
    unusedConnections: keepAliveRequests ? null : Math.max(0, handshakes - requests)
  }
}

// quic-go's qlog (qlogwriter.FileSeq): JSON-SEQ (RFC 7464), one file per
// QUIC connection named <odcid>_<server|client>.sqlog; every record starts
// with 0x1E and ends with a newline. The first record is the trace header
// ({ qlog_format: "JSON-SEQ", trace: { vantage_point: { type } } }), then
// events { time, name, data }: transport:packet_sent|received|dropped
// ({ header: { packet_type }, raw: { length }, frames: [{ frame_type,
// stream_id? }] }), transport:connection_closed, and, with Caddy's
// http3/qlog tracer, http3:frame_created|parsed ({ stream_id, frame: {
// frame_type } }). quic-go buffers the file and writes it out when the
// connection ends: read the folder after the clients have closed their
// connections (or after Caddy has stopped). A connection still open shows
// as closed: false, its last record possibly cut (then truncated: true).
const RECORD_SEPARATOR = '\x1e'

function parseQlog (file) {
  const name = path.basename(file)
  const records = fs.readFileSync(file, 'utf8').split(RECORD_SEPARATOR)
  if (records[0].trim() !== '' || records.length < 2) throw new TraceError(`qlog: ${name} is not JSON-SEQ (no 0x1E record separator at its start): not a quic-go .sqlog`)
  const body = records.slice(1)
  let header
  try {
    header = JSON.parse(body[0])
  } catch {
    throw new TraceError(`qlog: ${name}'s first record is not JSON: not a quic-go .sqlog`)
  }
  const vantage = header && header.trace && header.trace.vantage_point && header.trace.vantage_point.type
  if (!header || header.qlog_format !== 'JSON-SEQ' || (vantage !== 'server' && vantage !== 'client')) {
    throw new TraceError(`qlog: ${name} has no qlog trace header (qlog_format JSON-SEQ, trace.vantage_point.type server|client)`)
  }
  const events = []
  let truncated = false
  for (let i = 1; i < body.length; i++) {
    try {
      events.push(JSON.parse(body[i]))
    } catch {
      // quic-go writes the file as the connection goes: only its last
      // record can be cut short (read while the connection was open).
      if (i !== body.length - 1) throw new TraceError(`qlog: ${name} record ${i + 1} is not JSON`)
      truncated = true
    }
  }
  return { name, vantage, events, truncated }
}

// A folder of quic-go qlogs (one side's: all server, or all client) → {
// tool: 'qlog (server)', protocol: 'h3', connections, tlsHandshakes,
// zeroRttConnections, streams, streamsPerConnection, frames: { up, down }
// (QUIC frames by type), h3Frames: { up, down } (HTTP/3 frames, when the
// tracer logs them), bytes: { up, down } (QUIC packet bytes, i.e. UDP
// payload, padding included; up also counts packets the receiver dropped),
// packets: { up, down, dropped }, closed (connections whose end is logged),
// truncated }. streams: client-initiated bidirectional streams (ids ≡ 0 mod
// 4, HTTP/3's request streams) the client sent on; tlsHandshakes:
// connections whose handshake completed (a HANDSHAKE_DONE frame).
function summariseQlogDir (dir) {
  let names
  try {
    names = fs.readdirSync(dir)
  } catch (err) {
    throw new TraceError(`qlog: cannot read the qlog folder ${dir}: ${err.code || err.message}`)
  }
  const files = names.filter(n => n.endsWith('.sqlog')).sort()
  if (!files.length) {
    throw new TraceError(`qlog: no .sqlog file in ${dir}: was Caddy started with QLOGDIR (startAll's qlogDir), and did a QUIC connection reach it?`)
  }
  const traces = files.map(n => parseQlog(path.join(dir, n)))
  const vantages = [...new Set(traces.map(t => t.vantage))]
  if (vantages.length > 1) throw new TraceError(`qlog: ${dir} holds both server and client traces (the same connections twice): give one side's folder`)
  const server = vantages[0] === 'server'
  const frames = { up: {}, down: {} }
  const h3Frames = { up: {}, down: {} }
  const bytes = { up: 0, down: 0 }
  const packets = { up: 0, down: 0, dropped: 0 }
  const streamsPerConnection = []
  let tlsHandshakes = 0
  let zeroRttConnections = 0
  let closed = 0
  let h3Logged = false
  let packetEvents = 0
  for (const trace of traces) {
    const streams = new Set()
    let handshakeDone = false
    let zeroRtt = false
    for (const e of trace.events) {
      const data = e && e.data
      if (!data) continue
      switch (e.name) {
        case 'transport:packet_sent':
        case 'transport:packet_received': {
          packetEvents++
          const sent = e.name === 'transport:packet_sent'
          const side = sent === server ? 'down' : 'up'
          packets[side]++
          bytes[side] += (data.raw && data.raw.length) || 0
          if (data.header && data.header.packet_type === '0RTT') zeroRtt = true
          for (const f of data.frames || []) {
            count(frames[side], f.frame_type)
            if (f.frame_type === 'handshake_done') handshakeDone = true
            if (side === 'up' && (f.frame_type === 'stream' || f.frame_type === 'reset_stream') && f.stream_id % 4 === 0) streams.add(f.stream_id)
          }
          break
        }
        case 'transport:packet_dropped':
          packetEvents++
          packets.dropped++
          bytes[server ? 'up' : 'down'] += (data.raw && data.raw.length) || 0
          break
        case 'transport:connection_closed':
          closed++
          break
        case 'http3:frame_created':
        case 'http3:frame_parsed': {
          h3Logged = true
          const side = (e.name === 'http3:frame_created') === server ? 'down' : 'up'
          count(h3Frames[side], (data.frame && data.frame.frame_type) || 'unknown')
          break
        }
      }
    }
    if (handshakeDone) tlsHandshakes++
    if (zeroRtt) zeroRttConnections++
    streamsPerConnection.push(streams.size)
  }
  if (!packetEvents) throw new TraceError(`qlog: the ${files.length} .sqlog file(s) in ${dir} log no packet (no transport:packet_sent or packet_received event)`)
  return {
    tool: `qlog (${vantages[0]})`,
    protocol: 'h3',
    connections: traces.length,
    tlsHandshakes,
    zeroRttConnections,
    streams: streamsPerConnection.reduce((a, b) => a + b, 0),
    streamsPerConnection,
    frames,
    ...(h3Logged ? { h3Frames } : {}),
    bytes,
    packets,
    closed,
    truncated: traces.filter(t => t.truncated).length
  }
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

module.exports = { summariseNghttp, summariseAb, summariseQlogDir, formatTrace, TraceError, HTTP2_FRAME_HEADER }

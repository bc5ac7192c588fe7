'use strict'

// nghttp's trace parser for `h2bench load --trace` (load/trace.js): what
// went over the wire on an h2 lane, read from `nghttp -nv -m N URL`'s
// stdout, every frame sent and received. Beside nghttp's adapter
// (load/tools/nghttp.js), which runs it with -v for the trace.
const { TraceError, fail, count } = require('../trace')

const HTTP2_FRAME_HEADER = 9 // octets before every HTTP/2 frame's payload (RFC 9113 4.1)

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

module.exports = { summariseNghttp, HTTP2_FRAME_HEADER }

'use strict'

// The qlog parser for `h2bench load --trace` (load/trace.js): what went over
// the wire on an h3 lane, from the qlog quic-go writes per QUIC connection
// when Caddy runs with QLOGDIR (startAll's qlogDir): the server's view of
// every packet. Here in load/, not in load/tools/, because no load tool
// prints it: it is the h3 edge's own record, read for every h3 lane that
// h2bench load starts (load/load.js's traceLane), whichever tool (oha or
// another) loaded it.
const fs = require('node:fs')
const path = require('node:path')
const { TraceError, count } = require('./trace')

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

// The recovery a folder of the server's qlogs logs (the runner's costs of an
// h3 run, load/load.js): → { connections, closed, truncated, packetsSent,
// packetsLost (recovery:packet_lost: packets the server declared lost, by
// packet or time threshold), ptoExpired (recovery:loss_timer_updated,
// expired, pto: probe timeouts, QUIC's retransmission timeouts),
// spuriousLosses (recovery:spurious_loss: declared lost, then acknowledged),
// qlogBytes (the files' size) }.
// The server's view only: what it sent and lost, the downlink's recovery; the
// client's losses are in the client's qlog, which no tool here writes.
function quicRecovery (dir) {
  const files = fs.readdirSync(dir).filter(n => n.endsWith('.sqlog')).sort()
  const out = { connections: 0, closed: 0, truncated: 0, packetsSent: 0, packetsLost: 0, ptoExpired: 0, spuriousLosses: 0, qlogBytes: 0 }
  for (const name of files) {
    out.qlogBytes += fs.statSync(path.join(dir, name)).size
    const trace = parseQlog(path.join(dir, name))
    if (trace.vantage !== 'server') throw new TraceError(`qlog: ${name} is the ${trace.vantage}'s: the costs count the server's recovery`)
    out.connections++
    if (trace.truncated) out.truncated++
    for (const e of trace.events) {
      const data = (e && e.data) || {}
      switch (e && e.name) {
        case 'transport:packet_sent': out.packetsSent++; break
        case 'transport:connection_closed': out.closed++; break
        case 'recovery:packet_lost': out.packetsLost++; break
        case 'recovery:spurious_loss': out.spuriousLosses++; break
        case 'recovery:loss_timer_updated':
          if (data.event_type === 'expired' && data.timer_type === 'pto') out.ptoExpired++
          break
      }
    }
  }
  return out
}

module.exports = { summariseQlogDir, quicRecovery }

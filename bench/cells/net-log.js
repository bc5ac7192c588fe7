'use strict'

// Chromium's net-log (--log-net-log, the h3-ttfb cells' browser) read: per
// connection, whether TLS resumed, whether QUIC attempted 0-RTT and whether
// the server accepted it, and how many Initial packets QUIC had to retransmit.
const fs = require('node:fs')

// What Chromium's net-log says about the connections to `port` opened in
// [from, to] (wall clock, ms): [{ kind: 'tls'|'quic', at, resumed, zeroRtt,
// initialRetransmits, protocol }].
function handshakesIn (log, port, from, to) {
  return log.filter(h => h.port === port && h.at >= from - 5 && h.at <= to + 5)
}

// The net-log file → every TLS handshake over TCP and every QUIC session,
// with their port and wall-clock start.
function parseNetLog (file) {
  let json
  try {
    json = JSON.parse(fs.readFileSync(file, 'utf8'))
  } catch {
    // Chromium may leave the closing brackets off when it dies; the events are there.
    const text = fs.readFileSync(file, 'utf8').replace(/,?\s*$/, '')
    json = JSON.parse(text.endsWith(']}') ? text : `${text}]}`)
  }
  const c = json.constants
  const type = Object.fromEntries(Object.entries(c.logEventTypes).map(([k, v]) => [v, k]))
  const source = Object.fromEntries(Object.entries(c.logSourceType).map(([k, v]) => [v, k]))
  const BEGIN = c.logEventPhase.PHASE_BEGIN
  const END = c.logEventPhase.PHASE_END
  const offset = Number(c.timeTickOffset)
  const sockets = new Map()
  const quic = new Map()
  for (const e of json.events) {
    const kind = source[e.source.type]
    const t = type[e.type]
    const at = Number(e.time) + offset
    const id = e.source.id
    if (kind === 'SOCKET') {
      const s = sockets.get(id) || { kind: 'tls', port: null, at: null, resumed: null, zeroRtt: null, initialRetransmits: 0, protocol: null }
      if (t === 'TCP_CONNECT' && e.phase === BEGIN && s.at === null) s.at = at
      if (t === 'TCP_CONNECT' && e.phase === END && e.params && e.params.remote_address) s.port = Number(e.params.remote_address.split(':').pop())
      if (t === 'SSL_CONNECT' && e.phase === END && e.params && 'is_resumed' in e.params) {
        s.resumed = e.params.is_resumed
        s.protocol = e.params.next_proto || null
        s.version = e.params.version || null
        s.zeroRtt = false // Chromium sends no TLS early data over TCP unless a feature enables it
      }
      sockets.set(id, s)
    } else if (kind === 'QUIC_SESSION') {
      const s = quic.get(id) || { kind: 'quic', port: null, at: null, resumed: false, zeroRtt: null, zeroRttState: null, initialRetransmits: 0, protocol: 'h3' }
      if (t === 'QUIC_SESSION' && e.phase === BEGIN) {
        s.at = at
        s.port = e.params ? Number(e.params.port) : null
      }
      if (t === 'QUIC_SESSION_TRANSPORT_PARAMETERS_RESUMED') s.resumed = true
      if (t === 'QUIC_SESSION_ZERO_RTT_STATE' && e.params) {
        s.zeroRttState = e.params.state
        s.zeroRtt = /Succeeded/.test(e.params.state)
        if (/Attempted/.test(e.params.state) && !/Not/.test(e.params.state)) s.resumed = true
      }
      if (t === 'QUIC_SESSION_PACKET_SENT' && e.params && e.params.encryption_level === 'ENCRYPTION_INITIAL' && e.params.transmission_type !== 'NOT_RETRANSMISSION') s.initialRetransmits++
      quic.set(id, s)
    }
  }
  return [...sockets.values(), ...quic.values()].filter(h => h.port !== null && h.at !== null && (h.kind === 'quic' || h.resumed !== null))
}

module.exports = { parseNetLog, handshakesIn }

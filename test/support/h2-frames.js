'use strict'

const tls = require('node:tls')

// A raw HTTP/2 client over TLS that sends exactly the frames a test asks for
// and records every frame the server sends: nothing is automatic (no
// WINDOW_UPDATE, no SETTINGS ACK unless asked), so a test can see what a
// server does at the edge of flow control or under abuse, which a real
// client library would hide or refuse to do.

const PREFACE = Buffer.from('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n')
const TYPE = { DATA: 0, HEADERS: 1, PRIORITY: 2, RST_STREAM: 3, SETTINGS: 4, PUSH_PROMISE: 5, PING: 6, GOAWAY: 7, WINDOW_UPDATE: 8, CONTINUATION: 9 }
const TYPE_NAME = Object.fromEntries(Object.entries(TYPE).map(([k, v]) => [v, k]))
const FLAG = { END_STREAM: 0x1, ACK: 0x1, END_HEADERS: 0x4 }
const SETTING = { ENABLE_PUSH: 0x2, MAX_CONCURRENT_STREAMS: 0x3, INITIAL_WINDOW_SIZE: 0x4, MAX_FRAME_SIZE: 0x5 }
const ERROR_NAME = ['NO_ERROR', 'PROTOCOL_ERROR', 'INTERNAL_ERROR', 'FLOW_CONTROL_ERROR', 'SETTINGS_TIMEOUT', 'STREAM_CLOSED',
  'FRAME_SIZE_ERROR', 'REFUSED_STREAM', 'CANCEL', 'COMPRESSION_ERROR', 'CONNECT_ERROR', 'ENHANCE_YOUR_CALM',
  'INADEQUATE_SECURITY', 'HTTP_1_1_REQUIRED']

function frame (type, flags, id, payload = Buffer.alloc(0)) {
  const header = Buffer.alloc(9)
  header.writeUIntBE(payload.length, 0, 3)
  header.writeUInt8(type, 3)
  header.writeUInt8(flags, 4)
  header.writeUInt32BE(id & 0x7fffffff, 5)
  return Buffer.concat([header, payload])
}

// HPACK "literal header field without indexing, new name", no Huffman:
// valid for any header, needs no table state (RFC 7541 6.2.2).
function hpackLiteral (name, value) {
  const str = s => {
    const b = Buffer.from(s)
    if (b.length >= 127) throw new Error(`header too long for this encoder: ${s.slice(0, 20)}…`)
    return Buffer.concat([Buffer.from([b.length]), b])
  }
  return Buffer.concat([Buffer.from([0x00]), str(name), str(value)])
}

function requestBlock (authority, path, extra = []) {
  return Buffer.concat([
    hpackLiteral(':method', 'GET'), hpackLiteral(':scheme', 'https'),
    hpackLiteral(':authority', authority), hpackLiteral(':path', path),
    ...extra.map(([n, v]) => hpackLiteral(n, v))
  ])
}

// Connects to `url` (ALPN h2), sends the preface and a SETTINGS frame with
// `settings` ({ INITIAL_WINDOW_SIZE: 1000, … }). Resolves once TLS is up.
function connectRaw (url, { settings = {}, ca, rejectUnauthorized = true } = {}) {
  const u = new URL(url)
  return new Promise((resolve, reject) => {
    const socket = tls.connect({ host: u.hostname, port: Number(u.port), ALPNProtocols: ['h2'], servername: 'localhost', ca, rejectUnauthorized })
    const client = new RawClient(socket, u.host)
    socket.once('error', reject)
    socket.once('secureConnect', () => {
      socket.off('error', reject)
      socket.on('error', err => { client.error = err })
      if (socket.alpnProtocol !== 'h2') return reject(new Error(`ALPN gave ${socket.alpnProtocol}, not h2`))
      const entries = Object.entries(settings).map(([k, v]) => {
        const e = Buffer.alloc(6)
        e.writeUInt16BE(SETTING[k], 0)
        e.writeUInt32BE(v, 2)
        return e
      })
      socket.write(Buffer.concat([PREFACE, frame(TYPE.SETTINGS, 0, 0, Buffer.concat(entries))]))
      resolve(client)
    })
  })
}

class RawClient {
  constructor (socket, authority) {
    this.socket = socket
    this.authority = authority
    this.frames = [] // { type, flags, id, length, payload (not for DATA) }
    this.dataBytes = { total: 0 } // per stream id, and total
    this.closed = false
    this.nextId = 1
    this.waiters = []
    let buf = Buffer.alloc(0)
    socket.on('data', d => {
      buf = buf.length ? Buffer.concat([buf, d]) : d
      while (buf.length >= 9) {
        const length = buf.readUIntBE(0, 3)
        if (buf.length < 9 + length) break
        const f = { type: TYPE_NAME[buf[3]] || buf[3], flags: buf[4], id: buf.readUInt32BE(5) & 0x7fffffff, length }
        if (f.type === 'DATA') {
          this.dataBytes[f.id] = (this.dataBytes[f.id] || 0) + length
          this.dataBytes.total += length
        } else {
          f.payload = Buffer.from(buf.subarray(9, 9 + length))
        }
        buf = buf.subarray(9 + length)
        this.frames.push(f)
        if (f.type === 'SETTINGS' && !(f.flags & FLAG.ACK)) socket.write(frame(TYPE.SETTINGS, FLAG.ACK, 0))
      }
      this.wake()
    })
    socket.on('close', () => { this.closed = true; this.wake() })
  }

  wake () {
    for (const w of this.waiters.splice(0)) w()
  }

  // Resolves when test() is true (checked after every read), or rejects
  // after `ms` naming `what`.
  until (test, what, ms = 5000) {
    return new Promise((resolve, reject) => {
      const check = () => {
        if (test()) { clearTimeout(timer); return resolve() }
        if (this.closed) { clearTimeout(timer); return reject(new Error(`connection closed while waiting for ${what}`)) }
        this.waiters.push(check)
      }
      const timer = setTimeout(() => reject(new Error(`timed out waiting for ${what}`)), ms)
      check()
    })
  }

  // Lets the server send whatever it is going to send for `ms`.
  settle (ms = 300) {
    return new Promise(resolve => setTimeout(resolve, ms))
  }

  // Sends a GET; returns its stream id.
  request (path, { endHeaders = true, extra = [] } = {}) {
    const id = this.nextId
    this.nextId += 2
    this.write(frame(TYPE.HEADERS, FLAG.END_STREAM | (endHeaders ? FLAG.END_HEADERS : 0), id, requestBlock(this.authority, path, extra)))
    return id
  }

  windowUpdate (id, increment) {
    const p = Buffer.alloc(4)
    p.writeUInt32BE(increment, 0)
    this.write(frame(TYPE.WINDOW_UPDATE, 0, id, p))
  }

  reset (id, code = 8) {
    const p = Buffer.alloc(4)
    p.writeUInt32BE(code, 0)
    this.write(frame(TYPE.RST_STREAM, 0, id, p))
  }

  write (bytes) {
    if (!this.socket.destroyed) return this.socket.write(bytes)
    return false
  }

  // Frames of `type` (and stream `id`, if given).
  framesOf (type, id) {
    return this.frames.filter(f => f.type === type && (id === undefined || f.id === id))
  }

  // The error code of the GOAWAY or a stream's RST_STREAM, by name.
  static errorName (f) {
    const code = f.type === 'GOAWAY' ? f.payload.readUInt32BE(4) : f.payload.readUInt32BE(0)
    return ERROR_NAME[code] || `0x${code.toString(16)}`
  }

  close () {
    this.socket.destroy()
  }
}

module.exports = { connectRaw, frame, hpackLiteral, requestBlock, RawClient, TYPE, FLAG }

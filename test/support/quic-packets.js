'use strict'

// Hand-made QUIC packets for conformance tests that a client library would
// never send (an unknown version, an Initial in too small a datagram) and
// for reading what a server sends back before any handshake completes:
// Version Negotiation packets, and Initial packets, whose keys derive from
// the client's first Destination Connection ID alone (RFC 9001 §5.2). QUIC
// v1 only; no state, no retransmission: a test sends, then looks.

const crypto = require('node:crypto')

const V1 = 0x00000001
// RFC 9001 §5.2
const INITIAL_SALT_V1 = Buffer.from('38762cf7f55934b34d179ae6a4c80cadccbb7f0a', 'hex')
const MIN_INITIAL_DATAGRAM = 1200 // RFC 9000 §14.1

// ---- encodings ---------------------------------------------------------------

// RFC 9000 §16: variable-length integers.
function varint (n) {
  if (n < 0x40) return Buffer.from([n])
  if (n < 0x4000) return Buffer.from([0x40 | (n >> 8), n & 0xff])
  if (n < 0x40000000) { const b = Buffer.alloc(4); b.writeUInt32BE(n + 0x80000000); return b }
  throw new RangeError(`varint ${n} too large for this encoder`)
}

function readVarint (buf, offset) {
  const first = buf[offset]
  const len = 1 << (first >> 6)
  let value = first & 0x3f
  for (let i = 1; i < len; i++) value = value * 256 + buf[offset + i]
  return { value, next: offset + len }
}

const u8 = n => Buffer.from([n])
const u16 = n => { const b = Buffer.alloc(2); b.writeUInt16BE(n); return b }
const u24 = n => Buffer.from([(n >> 16) & 0xff, (n >> 8) & 0xff, n & 0xff])
const withLen16 = body => Buffer.concat([u16(body.length), body])

// ---- keys (RFC 9001 §5) ---------------------------------------------------------

function hkdfExtract (salt, ikm) {
  return crypto.createHmac('sha256', salt).update(ikm).digest()
}

// RFC 8446 §7.1 HKDF-Expand-Label, empty context, output ≤ 32 bytes.
function hkdfExpandLabel (secret, label, length) {
  const full = Buffer.from(`tls13 ${label}`)
  const info = Buffer.concat([u16(length), u8(full.length), full, u8(0)])
  return crypto.createHmac('sha256', secret).update(Buffer.concat([info, u8(1)])).digest().subarray(0, length)
}

// { key, iv, hp } of the client's or the server's Initial packets for a
// connection whose client chose `dcid` as its first Destination Connection ID.
function initialKeys (dcid, side) {
  const secret = hkdfExpandLabel(hkdfExtract(INITIAL_SALT_V1, dcid), side === 'client' ? 'client in' : 'server in', 32)
  return { key: hkdfExpandLabel(secret, 'quic key', 16), iv: hkdfExpandLabel(secret, 'quic iv', 12), hp: hkdfExpandLabel(secret, 'quic hp', 16) }
}

function headerMask (hp, sample) {
  const cipher = crypto.createCipheriv('aes-128-ecb', hp, null)
  cipher.setAutoPadding(false)
  return cipher.update(sample)
}

function nonce (iv, pn) {
  const n = Buffer.from(iv)
  for (let i = 0; i < 4; i++) n[n.length - 1 - i] ^= (pn >>> (8 * i)) & 0xff
  return n
}

// ---- the client's first flight --------------------------------------------------

// A TLS 1.3 ClientHello (RFC 8446 §4.1.2) as a QUIC client sends it: one
// cipher suite (TLS_AES_128_GCM_SHA256, mandatory, RFC 9001 §5.3), X25519,
// ALPN `alpn`, and the quic_transport_parameters extension with the one
// parameter a client must send, initial_source_connection_id (RFC 9000 §7.3).
function clientHello ({ scid, alpn = 'h3', serverName = 'localhost' }) {
  const { publicKey } = crypto.generateKeyPairSync('x25519')
  const share = publicKey.export({ format: 'der', type: 'spki' }).subarray(-32)
  const ext = (type, body) => Buffer.concat([u16(type), withLen16(body)])
  const name = Buffer.from(serverName)
  const proto = Buffer.from(alpn)
  const params = Buffer.concat([
    varint(0x0f), varint(scid.length), scid, // initial_source_connection_id
    varint(0x04), varint(4), varint(1 << 20), // initial_max_data
    varint(0x01), varint(2), varint(10000) // max_idle_timeout, ms
  ])
  const extensions = Buffer.concat([
    ext(0x0000, withLen16(Buffer.concat([u8(0), withLen16(name)]))), // server_name
    ext(0x000a, withLen16(u16(0x001d))), // supported_groups: x25519
    ext(0x000d, withLen16(Buffer.concat([0x0403, 0x0804, 0x0805, 0x0806, 0x0503, 0x0401].map(u16)))), // signature_algorithms
    ext(0x002b, Buffer.concat([u8(2), u16(0x0304)])), // supported_versions: TLS 1.3
    ext(0x0033, withLen16(Buffer.concat([u16(0x001d), withLen16(share)]))), // key_share
    ext(0x0010, withLen16(Buffer.concat([u8(proto.length), proto]))), // ALPN
    ext(0x0039, params) // quic_transport_parameters
  ])
  const body = Buffer.concat([
    u16(0x0303), crypto.randomBytes(32), u8(0), // legacy version, random, empty legacy_session_id (RFC 9001 §8.4)
    withLen16(u16(0x1301)), Buffer.from([1, 0]), withLen16(extensions)
  ])
  return Buffer.concat([u8(1), u24(body.length), body])
}

// A protected client Initial packet (RFC 9000 §17.2.2, RFC 9001 §5) carrying
// `crypto` in one CRYPTO frame, padded with PADDING frames so the datagram is
// exactly `size` bytes; packet number 0, 4 bytes long.
function clientInitial ({ dcid, scid, crypto: data, size = MIN_INITIAL_DATAGRAM }) {
  const keys = initialKeys(dcid, 'client')
  const frames = Buffer.concat([u8(0x06), varint(0), varint(data.length), data])
  const headOf = payloadLength => Buffer.concat([
    u8(0xc0 | 0x03), u16(V1 >>> 16), u16(V1 & 0xffff), // long header, Initial, 4-byte packet number; version
    u8(dcid.length), dcid, u8(scid.length), scid,
    varint(0), // no token
    Buffer.from([0x40 | ((payloadLength >> 8) & 0x3f), payloadLength & 0xff]), // Length, always 2 bytes here
    Buffer.alloc(4) // packet number 0
  ])
  const plainLength = size - headOf(0).length - 16
  if (plainLength < frames.length) throw new RangeError(`a ${size}-byte datagram cannot hold this ClientHello`)
  const plain = Buffer.concat([frames, Buffer.alloc(plainLength - frames.length)]) // PADDING frames are zeros
  const head = headOf(4 + plain.length + 16)
  const cipher = crypto.createCipheriv('aes-128-gcm', keys.key, nonce(keys.iv, 0))
  cipher.setAAD(head)
  const packet = Buffer.concat([head, cipher.update(plain), cipher.final(), cipher.getAuthTag()])
  const pnOffset = head.length - 4
  const mask = headerMask(keys.hp, packet.subarray(pnOffset + 4, pnOffset + 20))
  packet[0] ^= mask[0] & 0x0f
  for (let i = 0; i < 4; i++) packet[pnOffset + i] ^= mask[1 + i]
  return packet
}

// A long-header packet claiming `version`, with the given connection IDs and
// filler up to `size` bytes (RFC 9000 §17.2: the invariant fields only).
function longHeaderPacket ({ version, dcid, scid, size }) {
  const head = Buffer.concat([u8(0xc0 | crypto.randomInt(0x40)), u16(version >>> 16), u16(version & 0xffff), u8(dcid.length), dcid, u8(scid.length), scid])
  return Buffer.concat([head, crypto.randomBytes(Math.max(0, size - head.length))])
}

// ---- what a server sends -----------------------------------------------------------

// The invariant fields of a long-header packet, or null for a short header.
function parseLongHeader (buf) {
  if (buf.length < 7 || !(buf[0] & 0x80)) return null
  const version = buf.readUInt32BE(1)
  let o = 5
  const dcid = buf.subarray(o + 1, o + 1 + buf[o]); o += 1 + buf[o]
  const scid = buf.subarray(o + 1, o + 1 + buf[o]); o += 1 + buf[o]
  return { first: buf[0], version, dcid: Buffer.from(dcid), scid: Buffer.from(scid), rest: o }
}

// RFC 9000 §17.2.1: { dcid, scid, versions } of a Version Negotiation packet, or null.
function parseVersionNegotiation (buf) {
  const h = parseLongHeader(buf)
  if (!h || h.version !== 0) return null
  const versions = []
  for (let o = h.rest; o + 4 <= buf.length; o += 4) versions.push(buf.readUInt32BE(o))
  return { dcid: h.dcid, scid: h.scid, versions }
}

// Decrypts the first packet of a datagram if it is an Initial of the
// connection the client opened with `clientDcid`, sent by `side` (the
// server, by default): → { scid, pn, frames }, where frames are { type:
// 'ACK' | 'CRYPTO' | 'CONNECTION_CLOSE' | 'PING', … }; CRYPTO frames carry
// their data (a ServerHello starts with byte 2). Throws when not authentic.
function openInitial (buf, clientDcid, side = 'server') {
  const h = parseLongHeader(buf)
  if (!h || h.version !== V1 || ((h.first >> 4) & 0x03) !== 0) return null
  const token = readVarint(buf, h.rest)
  const length = readVarint(buf, token.next + token.value)
  const pnOffset = length.next
  const keys = initialKeys(clientDcid, side)
  const mask = headerMask(keys.hp, buf.subarray(pnOffset + 4, pnOffset + 20))
  const first = buf[0] ^ (mask[0] & 0x0f)
  const pnLength = (first & 0x03) + 1
  const head = Buffer.from(buf.subarray(0, pnOffset + pnLength))
  head[0] = first
  let pn = 0
  for (let i = 0; i < pnLength; i++) { head[pnOffset + i] ^= mask[1 + i]; pn = pn * 256 + head[pnOffset + i] }
  const end = pnOffset + length.value
  const sealed = buf.subarray(pnOffset + pnLength, end - 16)
  const decipher = crypto.createDecipheriv('aes-128-gcm', keys.key, nonce(keys.iv, pn))
  decipher.setAAD(head)
  decipher.setAuthTag(buf.subarray(end - 16, end))
  const plain = Buffer.concat([decipher.update(sealed), decipher.final()]) // throws when not authentic
  return { scid: h.scid, pn, frames: parseFrames(plain) }
}

function parseFrames (p) {
  const frames = []
  let o = 0
  const next = () => { const r = readVarint(p, o); o = r.next; return r.value }
  while (o < p.length) {
    const type = next()
    if (type === 0x00) continue // PADDING
    if (type === 0x01) { frames.push({ type: 'PING' }); continue }
    if (type === 0x02 || type === 0x03) {
      const largest = next(); next(); const ranges = next(); next()
      for (let i = 0; i < ranges; i++) { next(); next() }
      if (type === 0x03) { next(); next(); next() }
      frames.push({ type: 'ACK', largest })
    } else if (type === 0x06) {
      const offset = next(); const len = next()
      frames.push({ type: 'CRYPTO', offset, data: Buffer.from(p.subarray(o, o + len)) })
      o += len
    } else if (type === 0x1c) {
      const code = next(); next(); const len = next()
      frames.push({ type: 'CONNECTION_CLOSE', code, reason: p.subarray(o, o + len).toString() })
      o += len
    } else {
      frames.push({ type: `0x${type.toString(16)}` })
      break // a frame this reader does not know: stop here
    }
  }
  return frames
}

module.exports = {
  V1, MIN_INITIAL_DATAGRAM, varint, readVarint, initialKeys, clientHello, clientInitial, longHeaderPacket,
  parseLongHeader, parseVersionNegotiation, openInitial
}

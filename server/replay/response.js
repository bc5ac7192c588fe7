'use strict'

// One recorded HAR response made servable: its body as a Buffer (the HAR
// holds it decoded, as text or base64), compressed again with the recorded
// Content-Encoding so the bytes on the wire are like the recording's, and
// its headers without those that belong to one hop or that HTTP/2 forbids.
// What could not be kept is said in `notes`.
const zlib = require('node:zlib')

// Headers of one connection (RFC 9110 §7.6.1) or forbidden in HTTP/2 (RFC 9113
// §8.2.2), Alt-Svc (the replay decides the protocols) and Content-Length
// (recomputed from the body served).
const DROPPED = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade', 'te', 'trailer',
  'alt-svc', 'content-length'])

// Content codings this Node can produce; zstd only where zlib has it (Node >= 22.15 / 23.8).
const ENCODERS = {
  gzip: b => zlib.gzipSync(b),
  'x-gzip': b => zlib.gzipSync(b),
  deflate: b => zlib.deflateSync(b), // HTTP's "deflate" is the zlib format (RFC 9110 §8.4.1.2)
  br: b => zlib.brotliCompressSync(b),
  ...(typeof zlib.zstdCompressSync === 'function' ? { zstd: b => zlib.zstdCompressSync(b) } : {}),
  identity: b => b
}

// Statuses that carry no body (RFC 9110 §6.4.1).
const noBody = status => status < 200 || status === 204 || status === 205 || status === 304

// [[name, value]] of the recorded headers that are served, and the notes of what was dropped.
function servedHeaders (recorded) {
  const nominated = new Set() // names listed in Connection are hop-by-hop too
  for (const h of recorded) {
    if (h.name.toLowerCase() === 'connection') for (const n of h.value.split(',')) nominated.add(n.trim().toLowerCase())
  }
  const out = []
  for (const h of recorded) {
    const name = h.name.toLowerCase()
    if (name.startsWith(':') || DROPPED.has(name) || nominated.has(name)) continue
    // CDP joins repeated headers (Set-Cookie above all) with newlines: one header each again.
    for (const value of h.value.split('\n')) out.push([h.name, value])
  }
  return out
}

// entry → { status, statusText, headers: [[name, value]], body: Buffer, bodiless, encoding, notes }
// `bodyComplete`: the recorder's entry._h2bench.bodyComplete (undefined for a DevTools HAR).
function servableResponse (response, { bodyComplete } = {}) {
  const notes = []
  const status = response.status
  const content = response.content
  let headers = servedHeaders(response.headers)
  let body = Buffer.alloc(0)
  let bodiless = false
  if (!noBody(status)) {
    if (typeof content.text === 'string' && !(bodyComplete === false && content.text === '')) {
      body = content.encoding === 'base64' ? Buffer.from(content.text, 'base64') : Buffer.from(content.text, 'utf8')
    } else {
      // The browser could not give the body: as many bytes as it had, so sizes stay right.
      const size = Number.isInteger(content.size) && content.size > 0 ? content.size : 0
      body = Buffer.alloc(size, 0x20)
      bodiless = true
      notes.push(`no recorded body: serving ${size} placeholder bytes (spaces)`)
    }
  }
  const encodingHeader = headers.find(([n]) => n.toLowerCase() === 'content-encoding')
  let encoding = null
  if (encodingHeader && body.length) {
    const codings = encodingHeader[1].split(',').map(s => s.trim().toLowerCase()).filter(Boolean)
    const unknown = codings.filter(c => !ENCODERS[c])
    if (unknown.length) {
      headers = headers.filter(([n]) => n.toLowerCase() !== 'content-encoding')
      notes.push(`content-encoding ${unknown.join(', ')} cannot be produced by this Node: served as identity, the header dropped`)
      encoding = 'identity (unknown)'
    } else {
      for (const c of codings) body = ENCODERS[c](body) // applied in the order listed (RFC 9110 §8.4)
      encoding = codings.join(', ')
    }
  }
  return { status, statusText: response.statusText || '', headers, body, bodiless, encoding, notes }
}

module.exports = { servableResponse, servedHeaders, noBody, ENCODERS, DROPPED }

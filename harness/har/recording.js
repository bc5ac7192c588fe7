'use strict'

// h2bench's own fields of a recorded HAR (`npm run bench -- record`, bench/record/), for the replay
// (server/replay/): each entry's body as content.text (base64 when it is not UTF-8 text) and its
// _h2bench { origin, serverTimeMs, bodyComplete }, and the log's _h2bench { recorder, version,
// recordedAt, browser, origins }: every origin's address, certificate names and id, round trip and
// protocol. ./cdp-har.js gathers the facts from Chromium's events (hops, bodies, certificates); what
// they become is decided here, a function of its arguments as ./har.js is.
const crypto = require('node:crypto')
const { originOf, headerValue, round } = require('./har')

const RECORDER = 'h2bench record'
const FORMAT_VERSION = 1

const sha256 = data => crypto.createHash('sha256').update(data).digest('hex')
const offset = v => typeof v === 'number' && v >= 0 ? v : null

// CDP's protocol names as ALPN ids: 'http/1.1', 'h2', 'h3' (a draft h3-29 is h3); null when none.
function alpnOf (protocol) {
  const p = String(protocol || '').toLowerCase()
  if (!p) return null
  return p === 'h3' || p.startsWith('h3-') || p === 'quic' ? 'h3' : p
}

// A body as Network.getResponseBody gave it (`got`: { body, base64Encoded } or { error }) → the HAR
// content fields and whether the bytes are the body's: { text?, encoding?, size?, complete, why? }.
// `size`: the decoded bytes the browser counted (dataReceived), 0 when it counted none (the memory
// cache). Text comes back decoded by its charset: when its UTF-8 bytes are not the size counted, a
// latin-1 (ISO-8859-1) charset is re-encoded as such; otherwise the text is kept but not complete.
function bodyContent (got, size, headers) {
  if (!got || got.error !== undefined || typeof got.body !== 'string') {
    return { complete: false, why: got && got.error ? String(got.error) : 'no body asked for' }
  }
  if (got.base64Encoded) {
    return { text: got.body, encoding: 'base64', size: Buffer.from(got.body, 'base64').length, complete: true }
  }
  const utf8 = Buffer.byteLength(got.body, 'utf8')
  if (!(size > 0) || utf8 === size) return { text: got.body, size: utf8, complete: true }
  const charset = /charset\s*=\s*"?([^";\s]+)/i.exec(headerValue(headers, 'content-type') || '')
  if (charset && /^(iso-8859-1|latin1|l1|us-ascii)$/i.test(charset[1]) && Buffer.from(got.body, 'latin1').length === size) {
    return { text: Buffer.from(got.body, 'latin1').toString('base64'), encoding: 'base64', size, complete: true }
  }
  return { text: got.body, size: utf8, complete: false, why: `text of ${utf8} UTF-8 bytes where the browser counted ${size} (charset ${charset ? charset[1] : 'unknown'})` }
}

// One certificate's id: sha256 hex of its DER (Network.getCertificate's tableNames[0], base64), else
// of what securityDetails says of it (subject, issuer, validity). null for no TLS.
function certIdOf (tableNames, securityDetails) {
  if (Array.isArray(tableNames) && tableNames.length && tableNames[0]) return sha256(Buffer.from(tableNames[0], 'base64'))
  const s = securityDetails
  if (!s) return null
  return sha256([s.subjectName, s.issuer, s.validFrom, s.validTo].map(String).join('\n'))
}

// A TCP connect's round trip from CDP's timing (ms after requestTime, -1: did not happen): connect
// start to TLS start (the TCP handshake alone; connectEnd when there is no TLS); null when the
// request did not set up a connection, or over QUIC (its handshake is not TCP's).
function tcpConnectMs (timing, protocol) {
  if (!timing || alpnOf(protocol) === 'h3') return null
  const start = offset(timing.connectStart)
  if (start === null) return null
  const ssl = offset(timing.sslStart)
  const end = ssl !== null && ssl >= start ? ssl : offset(timing.connectEnd)
  return end !== null && end > start ? round(end - start) : null
}

// Request sent to the response's first byte (receiveHeadersStart where Chromium reports it, else
// receiveHeadersEnd), ms; null when the timing lacks either. Sent is sendStart: the request cannot have
// left before it, so the span is an upper bound of the server's time and the round trip. Not sendEnd:
// Chromium notes the write's completion late on a busy machine (sends of 29.5 and 41.9 ms seen for a GET
// to a CGI that sleeps 250 ms: its span 243.4 and 218.1 ms, below the server's own time, and the smaller
// of the page's and the alone time, bench/record/server-time.js, kept that too-small figure).
function firstByteMs (timing) {
  if (!timing) return null
  const first = offset(timing.receiveHeadersStart) !== null ? timing.receiveHeadersStart : offset(timing.receiveHeadersEnd)
  if (first === null) return null
  const sent = [offset(timing.sendStart), offset(timing.sendEnd)].find(t => t !== null && t <= first)
  return sent === undefined ? null : first - sent
}

const mostFrequent = values => {
  const counts = new Map()
  for (const v of values) if (v !== null && v !== undefined) counts.set(v, (counts.get(v) || 0) + 1)
  let best = null
  for (const [v, n] of counts) if (best === null || n > counts.get(best)) best = v
  return best
}

// The origins of a recording, from its hops (cdp-har.js: { url, response (CDP's), fromCache }),
// `certificates` (origin → Network.getCertificate's tableNames, or absent) and `rtts` (origin →
// { rttMs, from }: a round trip measured outside the browser for an origin it showed none of).
// Only origins that answered (a response from the network) are origins; in order of first answer.
// → [{ origin, host, port, address, certNames, certId, rttMs, rttFrom, protocol }]
function originsOf (hops, certificates = new Map(), rtts = new Map()) {
  const by = new Map()
  for (const hop of hops) {
    const r = hop.response
    const origin = originOf(hop.url)
    if (!r || !origin || hop.fromCache || !/^https?:/.test(origin)) continue
    if (!by.has(origin)) by.set(origin, { addresses: [], protocols: [], sans: null, security: null, rtts: [] })
    const o = by.get(origin)
    if (r.remoteIPAddress) o.addresses.push(r.remoteIPAddress.replace(/^\[|\]$/g, ''))
    o.protocols.push(alpnOf(r.protocol))
    if (r.securityDetails && !o.security) o.security = r.securityDetails
    const rtt = tcpConnectMs(r.timing, r.protocol)
    if (rtt !== null) o.rtts.push(rtt)
  }
  return [...by].map(([origin, o]) => {
    const u = new URL(origin)
    const measured = o.rtts.length ? { rttMs: Math.min(...o.rtts), from: 'browser' } : rtts.get(origin)
    return {
      origin,
      host: u.hostname.replace(/^\[|\]$/g, ''),
      port: Number(u.port || (u.protocol === 'https:' ? 443 : 80)),
      address: mostFrequent(o.addresses),
      certNames: o.security && Array.isArray(o.security.sanList) ? [...o.security.sanList] : [],
      certId: certIdOf(certificates.get(origin), o.security),
      rttMs: measured ? measured.rttMs : null,
      rttFrom: measured ? measured.from : null,
      protocol: mostFrequent(o.protocols)
    }
  })
}

// An entry's _h2bench: its origin, its server's time (first byte less the origin's round trip,
// never below 0; null when either is unknown) and whether its body is the body (bodyContent).
function entryFields (hop, origins, content) {
  const origin = originOf(hop.url)
  const o = origins.find(x => x.origin === origin)
  const wait = hop.response && !hop.fromCache ? firstByteMs(hop.response.timing) : null
  const serverTimeMs = wait !== null && o && o.rttMs !== null ? round(Math.max(0, wait - o.rttMs)) : null
  return { origin, serverTimeMs, bodyComplete: Boolean(content && content.complete) }
}

// The log's _h2bench: `browser` { name, version } → 'Chromium <version>'.
function logFields ({ browser, recordedAt, origins }) {
  return {
    recorder: RECORDER,
    version: FORMAT_VERSION,
    recordedAt: new Date(recordedAt).toISOString(),
    browser: browser ? `${browser.name} ${browser.version}`.trim() : null,
    origins
  }
}

module.exports = { bodyContent, certIdOf, tcpConnectMs, firstByteMs, originsOf, entryFields, logFields, alpnOf, RECORDER, FORMAT_VERSION }

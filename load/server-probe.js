'use strict'

// A server that is not an h2bench lane, given to h2bench load by --url: what
// its TLS and one GET say before any tool runs. Which protocols it offers
// over TCP (one TLS handshake per ALPN protocol: what it chooses is what a
// tool gets), whether its certificate is trusted (the system's CAs, and --ca's
// PEM), and what the URL answers (status, body size, Alt-Svc). It has no
// ledger: the connection counts of its rows are the tools' own (load/load.js).
const net = require('node:net')
const tls = require('node:tls')
const https = require('node:https')
const http2 = require('node:http2')
const { InputError } = require('../common/errors')
// Chromium's SPKI hash, as the runner's site experiment takes it (--ca is read by its readCa too: load/cli.js).
const { spkiHash } = require('../server/certs')

// What the user gave that cannot be loaded as asked (a URL nothing answers, an untrusted certificate,
// a protocol the server does not offer, a --ca that is no PEM): exit 2 (common/cli.js).
class ServerProbeError extends InputError {
  constructor (message, options = {}) {
    super(message, { code: 'H2B_LOAD_URL', ...options })
  }
}

// The protocols by the short names --protocols takes (and the rows carry: --tool h2=nghttp works on them).
const PROTOCOLS = { h1: 'http/1.1', h2: 'h2', h3: 'h3' }
const SHORT = { 'http/1.1': 'h1', h2: 'h2', h3: 'h3' }
const NAMES = { 'http/1.1': 'HTTP/1.1', h2: 'HTTP/2', h3: 'HTTP/3' }

// --protocols "h2,h1" → ['http/1.1', 'h2'], always in that order (rows h1, h2, h3: × h1 reads the first)
// (InputError names what is allowed).
function parseProtocols (text) {
  const names = String(text).split(',').map(s => s.trim()).filter(Boolean)
  if (!names.length) throw new ServerProbeError(`--protocols "${text}": give one or more of ${Object.keys(PROTOCOLS).join(', ')}, comma-separated`)
  for (const n of names) if (!PROTOCOLS[n]) throw new ServerProbeError(`--protocols: unknown protocol "${n}"; protocols are ${Object.keys(PROTOCOLS).join(', ')} (HTTP/1.1, HTTP/2, HTTP/3)`)
  return Object.keys(PROTOCOLS).filter(n => names.includes(n)).map(n => PROTOCOLS[n])
}

// What a failed connection means, in the user's words.
function whyNot (err, where) {
  const code = err.code || ''
  if (code === 'ECONNREFUSED') return `nothing listens at ${where} (connection refused)`
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return `no such host (${code})`
  if (code === 'ETIMEDOUT' || /within/.test(err.message)) return `no TLS handshake with ${where} within 5 s`
  if (/wrong version number|packet length too long|unknown protocol/i.test(err.message)) return 'it does not speak TLS (a plain http:// server?)'
  return `${code ? `${code}: ` : ''}${err.message.split('\n')[0]}`
}

// One TLS handshake offering `alpn`, the certificate checked against `ca` (the system's when null) but never
// refused here: → { alpn (the protocol the server chose, or false), authorized, authorizationError, peer }.
function handshake (u, alpn, { ca = null, timeoutMs = 5000 } = {}) {
  return new Promise((resolve, reject) => {
    const host = u.hostname.replace(/^\[|\]$/g, '')
    const socket = tls.connect({
      host,
      port: Number(u.port) || 443,
      ...(net.isIP(host) ? {} : { servername: host }),
      ALPNProtocols: alpn,
      rejectUnauthorized: false,
      ...(ca ? { ca: [...tls.rootCertificates, ca] } : {})
    }, () => {
      const peer = socket.getPeerCertificate()
      const out = {
        alpn: socket.alpnProtocol,
        authorized: socket.authorized,
        authorizationError: socket.authorizationError ? String(socket.authorizationError) : null,
        peer
      }
      socket.end()
      resolve(out)
    })
    socket.setTimeout(timeoutMs, () => socket.destroy(Object.assign(new Error(`no TLS handshake within ${timeoutMs / 1000} s`), { code: 'ETIMEDOUT' })))
    socket.once('error', reject)
  })
}

// The first handshake, offering what a browser does: its errors are the URL's (nothing there, no TLS).
async function reachable (url, options) {
  const u = new URL(url)
  try {
    return await handshake(u, ['h2', 'http/1.1'], options)
  } catch (err) {
    throw new ServerProbeError(`--url ${url}: ${whyNot(err, u.host)}; give a running HTTPS server's URL (an h2bench lane or any other)`)
  }
}

// Whether the server chooses `protocol` when it is all a client offers (an alert or no choice: no).
async function offers (u, protocol, options) {
  const got = await handshake(u, [protocol], options).catch(() => null)
  if (!got) return false
  return got.alpn === protocol || (protocol === 'http/1.1' && got.alpn === false) // no ALPN at all: HTTP/1.1
}

// GET url once over `protocol` ('h2' or 'http/1.1'): → { status, bodyBytes, altSvc, server }.
function getOnce (url, protocol, { ca, timeoutMs = 10000 }) {
  const options = { rejectUnauthorized: false, ...(ca ? { ca: [...tls.rootCertificates, ca] } : {}) } // trust was checked by the handshake
  return new Promise((resolve, reject) => {
    const u = new URL(url)
    const done = (status, headers, bytes) => resolve({ status: Number(status), bodyBytes: bytes, altSvc: headers['alt-svc'] || null, server: headers.server || null })
    if (protocol === 'h2') {
      const session = http2.connect(u.origin, options)
      const timer = setTimeout(() => session.destroy(new Error(`no answer within ${timeoutMs / 1000} s`)), timeoutMs)
      session.once('error', err => { clearTimeout(timer); reject(err) })
      const req = session.request({ ':path': u.pathname + u.search })
      let head = {}
      let bytes = 0
      req.once('response', h => { head = h })
      req.on('data', d => { bytes += d.length })
      req.once('end', () => { clearTimeout(timer); session.close(); done(head[':status'], head, bytes) })
      req.once('error', err => { clearTimeout(timer); session.destroy(); reject(err) })
      return
    }
    const req = https.get(url, { ...options, timeout: timeoutMs, agent: false }, res => {
      let bytes = 0
      res.on('data', d => { bytes += d.length })
      res.on('end', () => done(res.statusCode, res.headers, bytes))
    })
    req.once('timeout', () => req.destroy(new Error(`no answer within ${timeoutMs / 1000} s`)))
    req.once('error', reject)
  })
}

// The server at `url` that is not a lane, `first` its reachable() handshake. `protocols`: --protocols (null:
// what it offers over TCP); `ca`/`caFile`: --ca; `insecure`: --insecure. → { url, host, offered, protocols,
// certificate, probe, hints: [lines for the log] }, or a ServerProbeError naming what is wrong and what is allowed.
async function probeServer (url, first, { protocols = null, ca = null, caFile = null, insecure = false } = {}) {
  const u = new URL(url)
  const certificate = {
    checked: !insecure,
    against: insecure ? null : `the system's CAs${caFile ? ` and --ca ${caFile}` : ''}`,
    trusted: first.authorized,
    error: first.authorized ? null : first.authorizationError,
    subject: first.peer && first.peer.subject ? first.peer.subject.CN || null : null,
    issuer: first.peer && first.peer.issuer ? first.peer.issuer.CN || null : null,
    validTo: first.peer ? first.peer.valid_to || null : null,
    spki: first.peer && first.peer.raw ? spkiHash(first.peer.raw) : null
  }
  if (!insecure && !first.authorized) {
    throw new ServerProbeError(`--url ${url}: its certificate is not trusted (${first.authorizationError}${certificate.issuer ? `, issued by "${certificate.issuer}"` : ''}); ` +
      `give the CA that signed it with --ca <pem>${caFile ? ` (${caFile} is not it)` : ''}, or --insecure to load it unchecked`)
  }
  const offered = { 'http/1.1': await offers(u, 'http/1.1', { ca }), h2: await offers(u, 'h2', { ca }) }
  const overTcp = Object.keys(offered).filter(p => offered[p])
  if (!overTcp.length) throw new ServerProbeError(`--url ${url}: it completes TLS but chooses neither HTTP/1.1 nor HTTP/2 by ALPN (it chose ${first.alpn || 'none'})`)
  const offeredText = overTcp.map(p => SHORT[p]).join(' and ')
  for (const p of protocols || []) {
    if (p !== 'h3' && !offered[p]) throw new ServerProbeError(`--protocols ${SHORT[p]}: ${u.host} does not offer ${NAMES[p]} (TLS ALPN); it offers ${offeredText} over TCP`)
  }
  let probe
  const over = offered.h2 ? 'h2' : 'http/1.1'
  try {
    probe = { ...await getOnce(url, over, { ca }), protocol: over }
  } catch (err) {
    throw new ServerProbeError(`--url ${url}: a GET over ${NAMES[over]} failed (${err.message.split('\n')[0]})`)
  }
  if (probe.status < 200 || probe.status >= 300) {
    throw new ServerProbeError(`--url ${url}: a GET answered status ${probe.status}; the tools count 2xx responses only (and follow no redirect): give a URL that answers 2xx`)
  }
  const chosen = protocols || overTcp
  const hints = []
  const advertisesH3 = /\bh3(-\d+)?=/.test(probe.altSvc || '')
  if (!protocols && advertisesH3) hints.push(`${u.host} advertises HTTP/3 (Alt-Svc: ${probe.altSvc}): add --protocols ${[...overTcp.map(p => SHORT[p]), 'h3'].join(',')} to load it too`)
  if (chosen.includes('h3') && !advertisesH3) hints.push(`${u.host} advertises no HTTP/3 (no Alt-Svc h3 in its answer): one HTTP/3 request first tells whether it speaks QUIC on UDP port ${u.port || 443}`)
  return { url, host: u.host, offered: { h1: offered['http/1.1'], h2: offered.h2, h3: advertisesH3 ? 'advertised (Alt-Svc)' : 'not advertised' }, protocols: chosen, certificate, probe, hints }
}

// The rows a server that is not a lane gets: one per protocol, named h1, h2, h3.
function serverLanes (server, { insecure = false, caFile = null } = {}) {
  return server.protocols.map(p => ({ name: SHORT[p], label: `${NAMES[p]} (${server.host})`, protocol: p, url: server.url, external: true, verify: insecure ? { insecure: true } : { caFile } }))
}

module.exports = { probeServer, reachable, serverLanes, parseProtocols, ServerProbeError, PROTOCOLS, SHORT }

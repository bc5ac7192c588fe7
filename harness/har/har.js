'use strict'

// HAR 1.2 (http://www.softwareishard.com/blog/har-12-spec/), shared by both
// browsers' recorders: ./cdp-har.js (Chromium, DevTools protocol events) and
// ./bidi-har.js (Firefox, WebDriver BiDi events) each turn their events into
// pages and entries with the helpers here; buildHar wraps them in a log and
// summarizeHar counts what a measurement wants from it. Everything here is a
// function of its arguments: no browser, no clock.
//
//   Chromium: const recorder = await recordCdp(await page.createCDPSession())
//   Firefox:  const recorder = recordBidi()
//             const firefox = await launchFirefox({ …, onBidiMessage: recorder.onMessage })
//             recorder.clear() // Firefox's own start
//   then:     recorder.startPage('page_1', 'a title'); await page.goto(url)
//             const har = buildHar({ browser: { name, version }, ...recorder.stop() })
//
// (page.goto may resolve before the recorder has the last events of the
// load: recorder.snapshot() shows what is in; test/harness/slow/har-browsers.test.js
// waits for it.)
const { version: H2BENCH_VERSION } = require('../../package.json')

// A protocol as the browsers name it ('http/1.1', 'h2', 'h3', ALPN ids) →
// the HAR httpVersion Chrome DevTools writes: 'HTTP/1.1', 'h2', 'h3'; ''
// when unknown (a request that failed before any response).
function httpVersionOf (protocol) {
  const p = String(protocol || '').toLowerCase()
  if (!p) return ''
  if (p.startsWith('http/')) return p.toUpperCase()
  if (p === 'h3' || p.startsWith('h3-')) return 'h3' // h3-29 and other drafts are h3 to a reader
  return p
}

const isHttp = url => /^https?:/i.test(url)

// A URL's origin as URL serializes it: 'https://127.0.0.1:3001' (two lanes on
// one host are two origins), 'https://example.com' (the default port left
// out); '' for a URL that does not parse.
function originOf (url) {
  try {
    return new URL(url).origin
  } catch {
    return ''
  }
}

function queryStringOf (url) {
  try {
    return [...new URL(url).searchParams].map(([name, value]) => ({ name, value }))
  } catch {
    return []
  }
}

// CDP headers ({ name: value }, repeated headers joined by '\n') →
// HAR [{ name, value }].
function headerList (headers) {
  if (!headers) return []
  if (Array.isArray(headers)) return headers.map(({ name, value }) => ({ name, value: String(value) }))
  const out = []
  for (const [name, value] of Object.entries(headers)) {
    for (const v of String(value).split('\n')) out.push({ name, value: v })
  }
  return out
}

// HAR's redirectURL: a response's Location against its request's URL ('' for
// none; as written when it does not parse).
function redirectUrlOf (headers, base) {
  const location = headerValue(headers, 'location')
  if (!location) return ''
  try {
    return new URL(location, base).href
  } catch {
    return location
  }
}

function headerValue (headers, name) {
  const h = (headers || []).find(x => x.name.toLowerCase() === name)
  return h ? h.value : undefined
}

const round = ms => Math.round(ms * 1000) / 1000
const known = v => typeof v === 'number' && Number.isFinite(v)
// b − a when both are known and in order, else -1 (HAR's "does not apply")
const span = (a, b) => known(a) && known(b) && b >= a ? round(b - a) : -1

// One request's phases, each an absolute time in ms on one clock (any clock:
// only differences are taken), null or undefined when the browser did not
// report it: start (the request was issued), dnsStart/dnsEnd,
// connectStart/connectEnd (the TCP or QUIC connection, TLS included),
// sslStart/sslEnd, sendStart/sendEnd, responseStart (the response's first
// byte) and end (its last byte, or the failure). → { timings, time }: HAR
// timings (blocked, dns, connect, ssl, send, wait, receive; -1 where a phase
// did not happen, e.g. dns, connect and ssl on a reused connection; send, wait
// and receive never below 0, the spec requires them) and time, their sum with
// ssl left out (HAR counts ssl inside connect).
function harTimings ({ start, dnsStart, dnsEnd, connectStart, connectEnd, sslStart, sslEnd, sendStart, sendEnd, responseStart, end } = {}) {
  const firstPhase = [dnsStart, connectStart, sslStart, sendStart, responseStart].filter(known)
  const first = firstPhase.length ? Math.min(...firstPhase) : null
  const timings = {
    // a request with no phase at all (failed at once, or served from a cache
    // with no timing): its whole life is blocked
    blocked: known(first) ? (known(start) ? round(Math.max(0, first - start)) : -1) : span(start, end),
    dns: span(dnsStart, dnsEnd),
    connect: span(connectStart, connectEnd),
    ssl: span(sslStart, sslEnd),
    send: Math.max(0, span(sendStart, sendEnd)),
    wait: 0,
    receive: Math.max(0, span(responseStart, end))
  }
  const waitFrom = [sendEnd, sendStart, connectEnd, dnsEnd, start].find(known)
  timings.wait = Math.max(0, span(waitFrom, known(responseStart) ? responseStart : (known(first) ? end : null)))
  const time = round(['blocked', 'dns', 'connect', 'send', 'wait', 'receive'].reduce((sum, k) => sum + Math.max(0, timings[k]), 0))
  return { timings, time }
}

const isoDate = ms => new Date(known(ms) ? ms : 0).toISOString()

// An entry's response, from either browser's record of it: `r` { status, statusText, mimeType } or null (no
// response: status 0, the HAR's x-unknown type), its headers as a HAR list, and its sizes as each recorder reads them.
function harResponse (r, { httpVersion, headers, url, contentSize, headersSize, bodySize, transferSize }) {
  return {
    status: r ? r.status : 0,
    statusText: r ? r.statusText || '' : '',
    httpVersion,
    headers,
    cookies: [],
    content: { size: contentSize, mimeType: r ? r.mimeType || '' : 'x-unknown' },
    redirectURL: redirectUrlOf(headers, url),
    headersSize,
    bodySize,
    _transferSize: transferSize
  }
}

// The HAR log: `browser` { name, version }, `pages` and `entries` as the
// recorders return them (entries in the order their requests started);
// `h2bench`: a recording's log._h2bench (./recording.js logFields).
function buildHar ({ browser = null, pages = [], entries = [], comment, h2bench = null } = {}) {
  const log = {
    version: '1.2',
    creator: { name: 'h2bench', version: H2BENCH_VERSION },
    ...(browser ? { browser: { name: browser.name, version: String(browser.version || '') } } : {}),
    pages,
    entries
  }
  if (comment) log.comment = comment
  if (h2bench) log._h2bench = h2bench
  return { log }
}

const failedEntry = e => e.response.status === 0 || Boolean(e._error)
// whether an entry's timings show a connection set up for it (summarizeHar)
const setUpOn = e => Boolean(e.timings) && e.timings.connect > 0 && (!/^https:/i.test(e.request.url) || e.timings.ssl > 0)

// What a measurement wants from a HAR: { requests, failed, bytes (bytes
// received on the wire: the entries' _transferSize, headers included),
// bodyBytes (their response bodies, as sent: response.bodySize), protocols
// ({ 'h2': n, … } by _protocol; 'cache' for a response from the browser's
// cache, which spoke no protocol (Firefox labels those oddly: 'http/2'); ''
// for failed before a response), origins,
// fromCache }. origins, keyed by origin (originOf): { 'https://host:port':
// { requests, protocols, connections, _connectionIds? } }.
//
// connections, one definition for both browsers: the number of that origin's
// requests whose timings show a connection being set up (timings.connect >
// 0: connect end after connect start; a reused connection reports none, -1),
// for an https: URL with its TLS (timings.ssl > 0; QUIC's handshake is both).
// TLS, because a connection without it cannot have carried an https request:
// Firefox once (under a heavy machine) reported a 0.15 ms TCP connect and no
// TLS on a request answered 0.6 ms after it was sent, on a connection it
// already had; counted, that load showed 7 set-ups where the server accepted
// 6 TLS connections. So it counts the set-ups a request waited for. A connection the browser
// opened ahead of any request (a preconnect) counts only when the browser
// reports its set-up on the request that took it: Firefox does (a request
// queued while a connection was being opened shows tlsStart and connectEnd);
// Chromium does not (it reports -1 for a socket it preconnected, and it
// preconnects beside a navigation: an h2 page load may show 0 set-ups).
// _connectionIds (Chromium only, where entries carry CDP's connectionId):
// the distinct connections the origin's responses came on, preconnected
// ones included: the connections used, a cross-check that is ≥ connections.
function summarizeHar (har) {
  const entries = (har.log || har).entries || []
  const summary = { requests: entries.length, failed: 0, bytes: 0, bodyBytes: 0, protocols: {}, origins: {}, fromCache: 0 }
  const ids = new Map() // origin → Set of connection ids
  for (const e of entries) {
    const protocol = e._fromCache ? 'cache' : e._protocol || ''
    const origin = originOf(e.request.url)
    const o = summary.origins[origin] = summary.origins[origin] || { requests: 0, protocols: {}, connections: 0 }
    o.requests++
    o.protocols[protocol] = (o.protocols[protocol] || 0) + 1
    summary.protocols[protocol] = (summary.protocols[protocol] || 0) + 1
    if (failedEntry(e)) summary.failed++
    if (e.response._transferSize > 0) summary.bytes += e.response._transferSize
    if (e.response.bodySize > 0) summary.bodyBytes += e.response.bodySize
    if (e._fromCache) summary.fromCache++
    if (setUpOn(e)) o.connections++
    if (e.connection && e.connection !== '0') {
      if (!ids.has(origin)) ids.set(origin, new Set())
      ids.get(origin).add(e.connection)
    }
  }
  for (const [origin, set] of ids) summary.origins[origin]._connectionIds = set.size
  return summary
}

module.exports = {
  harResponse,
  buildHar, summarizeHar, harTimings, httpVersionOf, originOf, queryStringOf, headerList, headerValue, redirectUrlOf, isHttp, isoDate, round, H2BENCH_VERSION
}

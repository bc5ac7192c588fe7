'use strict'

// Constructed HARs for the replay's tests (server/replay/): one as h2bench's
// recorder writes it (HAR 1.2 with log._h2bench and entry._h2bench), three
// origins of which a.example and b.example shared an address and a
// certificate, c.example:8443 had its own; and the same site as DevTools'
// "Save all as HAR" writes it, without h2bench's fields. BODIES holds each
// path's decoded bytes, for the tests to compare with what is served.
// freshnessHar: a page of one origin recorded minutes ago whose
// subresources' freshness comes from their dates (Last-Modified alone, a
// short max-age, an Expires) or that must be revalidated (no-cache with an
// ETag, or with a Last-Modified alone), for server/replay/freshness.js.
// A real 1×1 PNG (a browser keeps the body of an image it could decode): binary, not UTF-8.
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64')
const BODIES = {
  'https://a.example/': Buffer.from('<!doctype html><title>replay</title><script src="/app.js?v=1"></script><img src="https://b.example/logo.png">\n'.repeat(20)),
  'https://a.example/app.js?v=1': Buffer.from('console.log("app, é ü")\n'.repeat(50)),
  'https://a.example/weird': Buffer.from('compressed with a coding Node lacks'),
  'https://b.example/logo.png': PNG,
  'https://b.example/api?x=1&y=2#1': Buffer.from('{"call":1}'),
  'https://b.example/api?x=1&y=2#2': Buffer.from('{"call":2}'),
  'https://b.example/api?x=9&y=2': Buffer.from('{"call":"x9"}'),
  'https://c.example:8443/data.json': Buffer.from('{"data":[1,2,3]}')
}
const SERVER_TIME = { 'https://a.example/': 150, 'https://b.example/logo.png': 60 }

const header = (name, value) => ({ name, value })
const t0 = Date.parse('2026-11-27T10:00:00.000Z')

// One HAR entry; `h2bench` adds entry._h2bench.
function entry (i, { url, status = 200, statusText = 'OK', headers = [], body = null, base64 = false, size = null, mimeType = 'text/plain', serverTimeMs = 5, bodyComplete = true, h2bench = true, httpVersion = 'h2', serverIPAddress, connect = -1, ssl = -1, startedMs = t0 + i * 10 }) {
  const content = { size: size !== null ? size : body ? body.length : 0, mimeType }
  if (body) {
    content.text = base64 ? body.toString('base64') : body.toString('utf8')
    if (base64) content.encoding = 'base64'
  }
  const e = {
    startedDateTime: new Date(startedMs).toISOString(),
    time: 20,
    request: { method: 'GET', url, httpVersion, headers: [], queryString: [], cookies: [], headersSize: -1, bodySize: 0 },
    response: { status, statusText, httpVersion, headers, cookies: [], content, redirectURL: '', headersSize: -1, bodySize: -1 },
    cache: {},
    timings: { blocked: 1, dns: -1, connect, ssl, send: 0, wait: serverTimeMs + 10, receive: 1 },
    serverIPAddress,
    connection: String(100 + i)
  }
  if (h2bench) e._h2bench = { origin: new URL(url).origin, serverTimeMs, bodyComplete }
  return e
}

// The recorded site's entries; `h2bench` false: as DevTools writes them.
function siteEntries ({ h2bench = true } = {}) {
  const AB = '93.184.216.34'
  const C = '198.51.100.7'
  const list = [
    { url: 'https://a.example/', headers: [header('content-type', 'text/html'), header('content-encoding', 'gzip'), header('content-length', '999'), header('vary', 'accept-encoding')], body: BODIES['https://a.example/'], mimeType: 'text/html', serverTimeMs: SERVER_TIME['https://a.example/'], serverIPAddress: AB, connect: 30, ssl: 18 },
    { url: 'https://a.example/app.js?v=1', headers: [header('content-type', 'text/javascript; charset=utf-8'), header('content-encoding', 'br'), header('cache-control', 'max-age=60')], body: BODIES['https://a.example/app.js?v=1'], serverIPAddress: AB },
    { url: 'https://b.example/logo.png', headers: [header('content-type', 'image/png'), header('Alt-Svc', 'h3=":443"'), header('etag', '"png1"')], body: PNG, base64: true, mimeType: 'image/png', serverTimeMs: SERVER_TIME['https://b.example/logo.png'], serverIPAddress: AB, connect: 25, ssl: 15 },
    { url: 'https://b.example/api?x=1&y=2', headers: [header('content-type', 'application/json')], body: BODIES['https://b.example/api?x=1&y=2#1'], serverIPAddress: AB },
    { url: 'https://b.example/api?x=1&y=2', headers: [header('content-type', 'application/json')], body: BODIES['https://b.example/api?x=1&y=2#2'], serverIPAddress: AB },
    { url: 'https://b.example/api?x=9&y=2', headers: [header('content-type', 'application/json')], body: BODIES['https://b.example/api?x=9&y=2'], serverIPAddress: AB },
    {
      url: 'https://c.example:8443/data.json',
      headers: [header('content-type', 'application/json'), header('set-cookie', 'a=1; Secure'), header('set-cookie', 'b=2; Secure'), header('connection', 'keep-alive, x-hop'),
        header('keep-alive', 'timeout=5'), header('x-hop', 'dropped'), header('transfer-encoding', 'chunked'), header('x-kept', 'yes')],
      body: BODIES['https://c.example:8443/data.json'],
      serverIPAddress: C,
      httpVersion: 'http/1.1',
      connect: 40,
      ssl: 20
    },
    { url: 'https://c.example:8443/gone', headers: [header('content-type', 'text/css')], size: 1234, bodyComplete: false, serverIPAddress: C, httpVersion: 'http/1.1' },
    { url: 'https://a.example/weird', headers: [header('content-type', 'text/plain'), header('content-encoding', 'compress')], body: BODIES['https://a.example/weird'], serverIPAddress: AB },
    { url: 'https://a.example/moved', status: 302, statusText: 'Found', headers: [header('location', '/')], bodyComplete: false, serverIPAddress: AB },
    { url: 'http://plain.example/', headers: [], body: Buffer.from('x'), serverIPAddress: C, h2bench: false }
  ]
  return list.map((x, i) => entry(i, { ...x, h2bench: h2bench && x.h2bench !== false }))
}

// The recorder's HAR of the site.
function h2benchHar () {
  const shared = 'ab'.repeat(32)
  return {
    log: {
      version: '1.2',
      creator: { name: 'h2bench', version: '1' },
      pages: [{ startedDateTime: new Date(t0).toISOString(), id: 'page_1', title: 'https://a.example/', pageTimings: {} }],
      entries: siteEntries(),
      _h2bench: {
        recorder: 'h2bench record',
        version: 1,
        recordedAt: new Date(t0).toISOString(),
        browser: 'Chromium 140.0.0.0',
        origins: [
          { origin: 'https://a.example', host: 'a.example', port: 443, address: '93.184.216.34', certNames: ['a.example', 'b.example', '*.cdn.example'], certId: shared, rttMs: 12, protocol: 'h2' },
          { origin: 'https://b.example', host: 'b.example', port: 443, address: '93.184.216.34', certNames: ['a.example', 'b.example', '*.cdn.example'], certId: shared, rttMs: 10, protocol: 'h2' },
          { origin: 'https://c.example:8443', host: 'c.example', port: 8443, address: '198.51.100.7', certNames: ['c.example'], certId: 'cd'.repeat(32), rttMs: 20, protocol: 'http/1.1' }
        ]
      }
    }
  }
}

// The same site as DevTools saves it: no _h2bench fields at all.
function devtoolsHar () {
  return {
    log: {
      version: '1.2',
      creator: { name: 'WebInspector', version: '537.36' },
      pages: [{ startedDateTime: new Date(t0).toISOString(), id: 'page_1', title: 'https://a.example/', pageTimings: {} }],
      entries: siteEntries({ h2bench: false })
    }
  }
}

// freshnessHar's page and subresources (all of https://a.example), each with what was recorded of its time:
// `lastModifiedS` (Date − Last-Modified), `expiresS` (Expires − Date), `expires` (a recorded invalid one),
// `age`, `etag`, `cacheControl`, `link` (a preload: the early-hints variant's 103), `undated` (no Date: Expires and
// Last-Modified relative to startedDateTime).
const FRESH_ORIGIN = 'https://a.example'
const FRESH = {
  heuristic: { path: '/fresh/heuristic.css', type: 'text/css', lastModifiedS: 3600 }, // fresh for 6 min by heuristic (RFC 9111 §4.2.2)
  maxAge: { path: '/fresh/max-age.js', type: 'text/javascript', cacheControl: 'max-age=300' },
  expires: { path: '/fresh/expires.png', type: 'image/png', expiresS: 300 },
  etag: { path: '/fresh/etag.js', type: 'text/javascript', cacheControl: 'no-cache', etag: '"e1"', link: '</fresh/max-age.js>; rel=preload; as=script' },
  lastModified: { path: '/fresh/lm.css', type: 'text/css', cacheControl: 'no-cache', lastModifiedS: 2 * 86400 },
  slow: { path: '/fresh/slow.js', type: 'text/javascript', cacheControl: 'max-age=300', etag: 'W/"slow"', lastModifiedS: 86400, serverTimeMs: 250 },
  expired: { path: '/fresh/expired.txt', type: 'text/plain', expires: '0', lastModifiedS: 600 },
  aged: { path: '/fresh/aged.js', type: 'text/javascript', cacheControl: 'max-age=600', age: '100' },
  undated: { path: '/fresh/undated.css', type: 'text/css', undated: true, expiresS: 300, lastModifiedS: 7200 }
}
// The page: one of each that a browser keeps or revalidates (the rest are fetched by the integration test alone).
const FRESH_PAGE = '<!doctype html><title>fresh</title>' +
  `<link rel="stylesheet" href="${FRESH.heuristic.path}"><link rel="stylesheet" href="${FRESH.lastModified.path}">` +
  `<script src="${FRESH.maxAge.path}"></script><script src="${FRESH.etag.path}"></script><img src="${FRESH.expires.path}">\n`
const freshBody = r => r.type === 'image/png' ? PNG : Buffer.from(r.type === 'text/css' ? `/* ${r.path} */ body { margin: 0 }\n` : `/* ${r.path} */ void 0\n`)

// The recorder's HAR of the fresh page recorded `agoMs` before `now`: the page (no caching headers: fetched again
// on every view) and FRESH's entries, each with the Date of its start (whole seconds) and its dates relative to it.
function freshnessHar ({ agoMs = 10 * 60 * 1000, now = Date.now() } = {}) {
  const recordedAt = now - agoMs
  const http = ms => new Date(Math.floor(ms / 1000) * 1000).toUTCString()
  const AB = '93.184.216.34'
  const list = [{ url: `${FRESH_ORIGIN}/fresh/`, headers: [header('content-type', 'text/html')], body: Buffer.from(FRESH_PAGE), mimeType: 'text/html', serverIPAddress: AB, connect: 30, ssl: 18 }]
  for (const r of Object.values(FRESH)) {
    const headers = [header('content-type', r.type)]
    const started = recordedAt + list.length * 10
    if (r.cacheControl) headers.push(header('cache-control', r.cacheControl))
    if (r.etag) headers.push(header('etag', r.etag))
    if (r.lastModifiedS) headers.push(header('last-modified', http(started - r.lastModifiedS * 1000)))
    if (r.expiresS) headers.push(header('expires', http(started + r.expiresS * 1000)))
    if (r.expires) headers.push(header('expires', r.expires))
    if (r.age) headers.push(header('age', r.age))
    if (r.link) headers.push(header('link', r.link))
    const body = freshBody(r)
    list.push({ url: FRESH_ORIGIN + r.path, headers, body, base64: r.type === 'image/png', mimeType: r.type, serverTimeMs: r.serverTimeMs || 5, serverIPAddress: AB })
  }
  const entries = list.map((x, i) => {
    const startedMs = recordedAt + i * 10
    const undated = Object.values(FRESH).some(r => r.undated && FRESH_ORIGIN + r.path === x.url)
    return entry(i, { ...x, startedMs, headers: undated ? x.headers : [header('date', http(startedMs)), ...x.headers] })
  })
  return {
    log: {
      version: '1.2',
      creator: { name: 'h2bench', version: '1' },
      pages: [{ startedDateTime: new Date(recordedAt).toISOString(), id: 'page_1', title: `${FRESH_ORIGIN}/fresh/`, pageTimings: {} }],
      entries,
      _h2bench: {
        recorder: 'h2bench record',
        version: 1,
        recordedAt: new Date(recordedAt).toISOString(),
        browser: 'Chromium 140.0.0.0',
        origins: [{ origin: FRESH_ORIGIN, host: 'a.example', port: 443, address: AB, certNames: ['a.example'], certId: 'ef'.repeat(32), rttMs: 12, protocol: 'h2' }]
      }
    }
  }
}

module.exports = { h2benchHar, devtoolsHar, freshnessHar, BODIES, SERVER_TIME, PNG, FRESH, FRESH_ORIGIN, FRESH_PAGE, freshBody }

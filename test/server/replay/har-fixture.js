'use strict'

// Constructed HARs for the replay's tests (server/replay/): one as h2bench's
// recorder writes it (HAR 1.2 with log._h2bench and entry._h2bench), three
// origins of which a.example and b.example shared an address and a
// certificate, c.example:8443 had its own; and the same site as DevTools'
// "Save all as HAR" writes it, without h2bench's fields. BODIES holds each
// path's decoded bytes, for the tests to compare with what is served.
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
function entry (i, { url, status = 200, statusText = 'OK', headers = [], body = null, base64 = false, size = null, mimeType = 'text/plain', serverTimeMs = 5, bodyComplete = true, h2bench = true, httpVersion = 'h2', serverIPAddress, connect = -1, ssl = -1 }) {
  const content = { size: size !== null ? size : body ? body.length : 0, mimeType }
  if (body) {
    content.text = base64 ? body.toString('base64') : body.toString('utf8')
    if (base64) content.encoding = 'base64'
  }
  const e = {
    startedDateTime: new Date(t0 + i * 10).toISOString(),
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

module.exports = { h2benchHar, devtoolsHar, BODIES, SERVER_TIME, PNG }

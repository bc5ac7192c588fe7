'use strict'

const { generator } = require('../../../shared/verdict')

// The requests of the fuzz test (fuzz.test.js): what a client other than a
// browser sends a lane or the page server when it is sloppy or hostile, drawn
// from a seeded generator so a failing run can be repeated exactly (its seed is
// printed). Methods, paths, query values, header sizes, request bodies and how
// many go at once all vary; responses are kept small (sizes ≤ 64 KiB, delays
// ≤ 100 ms), so the fuzz is about requests, not about moving bytes.

// mulberry32, the verdict engine's seeded generator: → a function giving [0, 1).
const seededRandom = generator

// The draws a generator makes, on one random source.
function drawer (random) {
  const int = (min, max) => min + Math.floor(random() * (max - min + 1))
  const pick = list => list[Math.floor(random() * list.length)]
  // [[weight, value], …] → a value, in proportion to its weight.
  const weighted = pairs => {
    const total = pairs.reduce((n, [w]) => n + w, 0)
    let r = random() * total
    for (const [w, v] of pairs) {
      if ((r -= w) < 0) return v
    }
    return pairs[pairs.length - 1][1]
  }
  const token = (min, max) => Array.from({ length: int(min, max) }, () => pick('abcdefghijklmnopqrstuvwxyz0123456789-_')).join('')
  return { random, int, pick, weighted, token }
}

// Methods: the usual ones, one no route serves, and tokens of no meaning
// (HTTP methods are case-sensitive: `get` is not GET). CONNECT is left out:
// it asks for a tunnel (no path; in HTTP/2 a different request form), which
// no lane offers and every client library refuses to send as a request.
const METHODS = [
  [30, 'GET'], [8, 'HEAD'], [14, 'POST'], [6, 'PUT'], [5, 'PATCH'], [5, 'DELETE'], [8, 'OPTIONS'], [6, 'TRACE'],
  [3, 'PROPFIND'], [2, 'get'], [3, 'random']
]

// Query values: valid, at a limit, and wrong in every way the parsers see.
function queryValue (d, valid) {
  return d.weighted([
    [6, () => String(valid())],
    [1, () => ''],
    [1, () => d.pick(['abc', '-1', '1e12', '0x10', '1.5.5', 'NaN', 'Infinity', '9'.repeat(40), '%00', '%zz', '%E2%82%AC', '+1', ' 1', '1kb', '0.1mb', '64mb', '65mb', 'null', '[]', '{}'])],
    [1, () => d.token(1, 30)]
  ])()
}

const size = d => d.weighted([[6, () => d.int(0, 2048)], [2, () => d.int(2049, 65536)], [1, () => `${d.int(1, 64)}kb`]])()
const small = d => d.int(0, 100)

// A path on a lane: its routes with their parameters (each sometimes given
// twice, sometimes wrong), routes it does not have, and paths of odd shape.
function lanePath (d) {
  const q = (name, valid) => `${name}=${queryValue(d, valid)}`
  const twice = (name, valid) => d.random() < 0.1 ? `&${q(name, valid)}` : ''
  return d.weighted([
    [20, () => `/option?${q('size', () => size(d))}&${q('delay', () => small(d))}${twice('size', () => size(d))}`],
    [4, () => '/lane'],
    [3, () => '/'],
    [4, () => `/push?${q('assets', () => d.int(1, 5))}&${q('size', () => d.int(0, 4096))}&mode=${d.pick(['push', 'hints', 'none', 'bogus', ''])}`],
    [2, () => '/push/stats'],
    [3, () => `/asset/${d.int(0, 20)}.js?${q('size', () => d.int(0, 4096))}`],
    [4, () => `/api/items?${q('count', () => d.int(1, 20))}&${q('size', () => d.int(256, 2048))}`],
    [5, () => `/api/items/${queryValue(d, () => d.int(1, 1000))}?${q('cache', () => d.pick(['none', 'fresh', 'revalidate']))}`],
    [2, () => `/api/compound?${q('count', () => d.int(1, 10))}&${q('size', () => d.int(256, 1024))}`],
    [2, () => `/api/stats/${d.token(1, 70)}`],
    [2, () => `/ledger/${d.token(1, 70)}`],
    [3, () => `/site?${q('size', () => d.int(4096, 16384))}`],
    [2, () => `/site/a/${d.int(0, 30)}.${d.pick(['css', 'js', 'png', 'html', 'exe'])}?${q('size', () => d.int(0, 4096))}`],
    [1, () => '/lanes.json'],
    [5, () => `/${d.token(1, 40)}`],
    [1, () => d.pick(['/%zz', '/..%2f..%2fetc%2fpasswd', '//double//slash', '/a/../../b', '/option/', '/OPTION', '/option?', '/option?&&&', '/?a=%'])],
    [1, () => `/${'a'.repeat(d.int(1000, 6000))}`],
    [1, () => `/option?size=10&x=${'y'.repeat(d.int(1000, 6000))}`]
  ])()
}

// A path on the page server: the page, its client files, the vendor files, the
// lanes, the link (GET /link.json; POST /link is the control), and paths it does not have.
function pagePath (d) {
  return d.weighted([
    [4, () => '/'],
    [4, () => '/lanes.json'],
    [6, () => '/link.json'],
    [14, () => '/link'],
    [3, () => `/client/js/${d.pick(['bench', 'stats', 'options', 'verdict', 'request', 'nothing'])}.js`],
    [1, () => `/client/${d.pick(['css/page.css', '../package.json', '%2e%2e/server/page.js', '.'])}`],
    [2, () => `/vendor/${d.pick(['jquery.min.js', 'jquery.js', '..%2f..%2fpackage.json', ''])}`],
    [3, () => `/${d.token(1, 40)}`],
    [1, () => `/${'b'.repeat(d.int(1000, 6000))}`]
  ])()
}

// What POST /link is sent: a link spec as JSON (valid, a preset's name, wrong),
// and bodies that are not what the route takes.
function linkBody (d) {
  return d.weighted([
    [5, () => ({ type: 'application/json', body: JSON.stringify({ spec: d.pick(['rtt=40ms', 'rtt=100ms,down=1.6mbit', 'Regular 3G', 'none', 'loss=2%', 'rtt=20ms,loss=1%,up=10mbit']) }) })],
    [4, () => ({ type: 'application/json', body: JSON.stringify({ spec: d.pick(['', 'rtt=', 'rtt=-1', 'loss=200%', 'bogus=1', 'Fast 9G', 'rtt=1e9ms', 'x'.repeat(d.int(1, 3000))]) }) })],
    [2, () => ({ type: 'application/json', body: d.pick(['{', 'null', '[]', '"spec"', '{"spec": 5}', '{"spec": {"a": 1}}', '{}']) })],
    [1, () => ({ type: 'application/json', body: JSON.stringify({ spec: 'rtt=40ms', pad: 'p'.repeat(d.int(4096, 20000)) }) })],
    [2, () => ({ type: d.pick(['text/plain', 'application/x-www-form-urlencoded', 'application/octet-stream', 'multipart/form-data; boundary=x']), body: 'spec=rtt%3D40ms' })],
    [1, () => ({ type: null, body: null })]
  ])()
}

// Extra headers: mostly none or a few small ones; some of a few kilobytes;
// and, for one request in a hundred, tens of kilobytes in all: beyond h1's
// 16 KiB head (a 431) and beyond what the edge lanes advertise in
// SETTINGS_MAX_HEADER_LIST_SIZE (16,704 bytes), which a client may not send
// (Caddy ends such a connection: GOAWAY COMPRESSION_ERROR, its other streams
// refused). `maxTotal` caps the sum (Node's HTTP/2 client refuses to send a
// header block above 64 KiB itself).
function extraHeaders (d, maxTotal) {
  const oversized = d.random() < 0.01
  const count = oversized ? d.int(2, 6) : d.weighted([[5, 0], [4, d.int(1, 4)], [1, d.int(5, 12)]])
  const valueLength = () => oversized
    ? d.int(5000, 12000)
    : d.weighted([[30, () => d.int(0, 100)], [4, () => d.int(100, 1500)], [1, () => d.int(1500, 4000)]])()
  const headers = []
  let total = 0
  for (let i = 0; i < count; i++) {
    const name = `x-fuzz-${d.token(1, 12)}`
    const value = d.pick(['v', 'w', '0', '-'])
    const length = Math.min(valueLength(), maxTotal - total - name.length)
    if (length < 0) break
    headers.push([name, value.repeat(length)])
    total += name.length + length
  }
  // Headers a route reads, with values it must cope with.
  if (d.random() < 0.15) headers.push(['if-none-match', d.pick(['*', '"item-1-512-none-"', 'W/"x", "y"', '"' + 'z'.repeat(d.int(0, 500))])])
  if (d.random() < 0.1) headers.push(['prefer-push', d.pick(['item', 'none', 'item, item', ''])])
  if (d.random() < 0.05) headers.push(['accept-encoding', d.pick(['gzip', 'br', '*', 'identity;q=0'])])
  return headers
}

// A request body's size in bytes: mostly none; small; tens of kilobytes; now
// and then beyond a stream's flow-control window (64 KiB), up to 2 MiB.
function bodySize (d) {
  return d.weighted([
    [55, () => 0], [20, () => d.int(1, 1000)], [15, () => d.int(1001, 65536)],
    [8, () => d.int(65537, 512 * 1024)], [2, () => d.int(512 * 1024, 2 * 1024 * 1024)]
  ])()
}

// One request for `target` ('lane' or 'page'): { method, path, headers: [[name, value]], body: bytes, type }.
function makeRequest (d, target, { maxHeaderBytes = 48 * 1024 } = {}) {
  let method = d.weighted(METHODS)
  if (method === 'random') method = d.token(1, 12).toUpperCase().replace(/[^A-Z0-9]/g, 'X') || 'X'
  const headers = extraHeaders(d, maxHeaderBytes)
  if (target === 'page') {
    const path = pagePath(d)
    if (path === '/link' && d.random() < 0.8) {
      const { type, body } = linkBody(d)
      if (type) headers.push(['content-type', type])
      return { method: d.random() < 0.85 ? 'POST' : method, path, headers, body: body === null ? 0 : Buffer.byteLength(body), text: body }
    }
    return { method, path, headers, body: bodySize(d), text: null }
  }
  return { method, path: lanePath(d), headers, body: bodySize(d), text: null }
}

// A burst: `count` requests sent at once on one connection (HTTP/2, HTTP/3) or over a few (HTTP/1.1).
function makeBurst (d, target, { maxRequests, maxHeaderBytes }) {
  const half = Math.ceil(maxRequests / 2)
  const count = d.weighted([[3, () => d.int(1, 10)], [3, () => d.int(11, half)], [2, () => d.int(half, maxRequests)]])()
  return Array.from({ length: count }, () => makeRequest(d, target, { maxHeaderBytes }))
}

module.exports = { seededRandom, drawer, makeRequest, makeBurst }

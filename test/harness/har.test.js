'use strict'

// HAR 1.2 from constructed event sequences (harness/har/): Chromium's CDP
// events and Firefox's WebDriver BiDi events, in the shapes the browsers
// send (test/harness/slow/har-browsers.test.js checks them on real loads).
const assert = require('node:assert/strict')
const { EventEmitter } = require('node:events')
const { buildHar, summarizeHar, harTimings, httpVersionOf, originOf } = require('../../harness/har/har')
const { recordCdp, cdpEntries, START_PAGE } = require('../../harness/har/cdp-har')
const { recordBidi, bidiEntries } = require('../../harness/har/bidi-har')
const { version } = require('../../package.json')

const ORIGIN = 'https://127.0.0.1:3002'
const startPage = (id, title) => ({ method: START_PAGE, params: { id, title } })

// ---- CDP: one request's events. Monotonic seconds; timing offsets in ms after requestTime.
const T0 = 100 // monotonic s
const WALL0 = 1800000000 // epoch s
function cdpRequest ({ id, url, ts = T0, type = 'Document', redirectResponse, headers = { accept: '*/*' } }) {
  return { method: 'Network.requestWillBeSent', params: { requestId: id, loaderId: 'L1', request: { url, method: 'GET', headers }, timestamp: ts, wallTime: WALL0 + (ts - T0), type, ...(redirectResponse ? { redirectResponse } : {}) } }
}
const freshTiming = requestTime => ({
  requestTime,
  proxyStart: -1,
  proxyEnd: -1,
  dnsStart: 1,
  dnsEnd: 3,
  connectStart: 3,
  connectEnd: 13,
  sslStart: 5,
  sslEnd: 13,
  sendStart: 14,
  sendEnd: 15,
  receiveHeadersStart: 40,
  receiveHeadersEnd: 41
})
const reusedTiming = requestTime => ({
  requestTime,
  dnsStart: -1,
  dnsEnd: -1,
  connectStart: -1,
  connectEnd: -1,
  sslStart: -1,
  sslEnd: -1,
  sendStart: 1,
  sendEnd: 2,
  receiveHeadersStart: 12,
  receiveHeadersEnd: 12.5
})
function cdpResponse ({ id, url, ts, status = 200, protocol = 'h2', timing, connectionId = 7, headers = { 'content-type': 'text/html' }, encodedDataLength = 100, mimeType = 'text/html', extra = {} }) {
  return { method: 'Network.responseReceived', params: { requestId: id, timestamp: ts, type: 'Document', response: { url, status, statusText: status === 200 ? 'OK' : '', headers, mimeType, connectionReused: false, connectionId, remoteIPAddress: '127.0.0.1', remotePort: 3002, fromDiskCache: false, fromServiceWorker: false, encodedDataLength, timing, protocol, ...extra } } }
}
const cdpData = (id, ts, dataLength) => ({ method: 'Network.dataReceived', params: { requestId: id, timestamp: ts, dataLength, encodedDataLength: 0 } })
const cdpFinished = (id, ts, encodedDataLength) => ({ method: 'Network.loadingFinished', params: { requestId: id, timestamp: ts, encodedDataLength } })

describe('harness/har: HAR 1.2 of page loads', () => {
  describe('har.js', () => {
    it('names httpVersion as Chrome DevTools writes it', () => {
      assert.equal(httpVersionOf('http/1.1'), 'HTTP/1.1')
      assert.equal(httpVersionOf('h2'), 'h2')
      assert.equal(httpVersionOf('h3'), 'h3')
      assert.equal(httpVersionOf('h3-29'), 'h3')
      assert.equal(httpVersionOf(''), '')
      assert.equal(originOf('https://example.com:443/a?b'), 'https://example.com')
      assert.equal(originOf('https://127.0.0.1:3001/x'), 'https://127.0.0.1:3001')
    })

    it('turns phases into HAR timings: -1 for what did not happen, time their sum without ssl', () => {
      const fresh = harTimings({
        start: 0, dnsStart: 2, dnsEnd: 4, connectStart: 4, connectEnd: 14, sslStart: 6, sslEnd: 14, sendStart: 15, sendEnd: 16, responseStart: 40, end: 50
      })
      assert.deepEqual(fresh.timings, { blocked: 2, dns: 2, connect: 10, ssl: 8, send: 1, wait: 24, receive: 10 })
      assert.equal(fresh.time, 2 + 2 + 10 + 1 + 24 + 10)
      const reused = harTimings({ start: 0, sendStart: 5, sendEnd: 5, responseStart: 9, end: 10 })
      assert.deepEqual(reused.timings, { blocked: 5, dns: -1, connect: -1, ssl: -1, send: 0, wait: 4, receive: 1 })
      assert.equal(reused.time, 10)
      // failed before any phase: its whole life blocked
      assert.deepEqual(harTimings({ start: 0, end: 7 }).timings, { blocked: 7, dns: -1, connect: -1, ssl: -1, send: 0, wait: 0, receive: 0 })
    })

    it('builds the log: version 1.2, creator h2bench, the browser', () => {
      const har = buildHar({ browser: { name: 'Chromium', version: '150.0' }, pages: [], entries: [] })
      assert.deepEqual(har, { log: { version: '1.2', creator: { name: 'h2bench', version }, browser: { name: 'Chromium', version: '150.0' }, pages: [], entries: [] } })
    })
  })

  describe('cdp-har.js (Chromium)', () => {
    const url = `${ORIGIN}/site?size=16kb`
    const css = `${ORIGIN}/site/a/1.css?size=100`
    const load = [
      startPage('page_1', 'the site'),
      cdpRequest({ id: 'D', url }),
      { method: 'Network.requestWillBeSentExtraInfo', params: { requestId: 'D', headers: { ':authority': '127.0.0.1:3002', ':method': 'GET', ':path': '/site?size=16kb', accept: 'text/html' } } },
      cdpResponse({ id: 'D', url, ts: T0 + 0.050, timing: freshTiming(T0 + 0.001) }),
      cdpData('D', T0 + 0.051, 1000),
      cdpData('D', T0 + 0.055, 15384 - 1000),
      cdpFinished('D', T0 + 0.060, 15600),
      cdpRequest({ id: 'C', url: css, ts: T0 + 0.070, type: 'Stylesheet' }),
      cdpResponse({ id: 'C', url: css, ts: T0 + 0.090, timing: reusedTiming(T0 + 0.071), encodedDataLength: 30, mimeType: 'text/css' }),
      cdpData('C', T0 + 0.091, 100),
      cdpFinished('C', T0 + 0.095, 139),
      { method: 'Page.domContentEventFired', params: { timestamp: T0 + 0.080 } },
      { method: 'Page.loadEventFired', params: { timestamp: T0 + 0.100 } }
    ]

    it('makes one entry per request, dated by its wall time, with its protocol, connection and sizes', () => {
      const { pages, entries } = cdpEntries(load)
      assert.deepEqual(pages, [{ startedDateTime: new Date(WALL0 * 1000).toISOString(), id: 'page_1', title: 'the site', pageTimings: { onContentLoad: 80, onLoad: 100 } }])
      assert.equal(entries.length, 2)
      const [doc, style] = entries
      assert.equal(doc.pageref, 'page_1')
      assert.equal(doc.startedDateTime, new Date(WALL0 * 1000).toISOString())
      assert.equal(doc.request.url, url)
      assert.equal(doc.request.httpVersion, 'h2')
      assert.equal(doc.response.httpVersion, 'h2')
      assert.equal(doc._protocol, 'h2')
      assert.deepEqual(doc.request.queryString, [{ name: 'size', value: '16kb' }])
      // the headers actually sent (ExtraInfo), pseudo-headers included
      assert.ok(doc.request.headers.some(h => h.name === ':authority'))
      assert.deepEqual(doc.response.content, { size: 15384, mimeType: 'text/html' })
      assert.equal(doc.response.bodySize, 15384, 'no Content-Encoding: the body as sent is the decoded body')
      assert.equal(doc.response.headersSize, -1, 'h2: no header text')
      assert.equal(doc.response._transferSize, 15600)
      assert.equal(doc.serverIPAddress, '127.0.0.1')
      assert.equal(doc.connection, '7')
      assert.equal(style.pageref, 'page_1')
      assert.equal(style._resourceType, 'stylesheet')
    })

    it('converts Chromium\'s timing (ms after requestTime) to HAR timings', () => {
      const [doc, style] = cdpEntries(load).entries
      // requestTime is 1 ms after the request was issued; dns 1→3, connect 3→13 (ssl 5→13), send 14→15, first byte 40, end 60
      assert.deepEqual(doc.timings, { blocked: 2, dns: 2, connect: 10, ssl: 8, send: 1, wait: 25, receive: 19 })
      assert.equal(doc.time, 59)
      // a reused connection: no dns, connect or ssl
      assert.deepEqual(style.timings, { blocked: 2, dns: -1, connect: -1, ssl: -1, send: 1, wait: 10, receive: 12 })
      assert.equal(style.time, 25)
    })

    it('makes a hop of each redirect, the first ending with the redirect response', () => {
      const to = `${ORIGIN}/b`
      const events = [
        startPage('p'),
        cdpRequest({ id: 'R', url: `${ORIGIN}/a` }),
        // ExtraInfo of the 302 with the text of its HTTP/1.1 headers
        { method: 'Network.responseReceivedExtraInfo', params: { requestId: 'R', statusCode: 302, headers: { location: '/b' }, headersText: 'HTTP/1.1 302 Found\r\nlocation: /b\r\n\r\n' } },
        cdpRequest({
          id: 'R',
          url: to,
          ts: T0 + 0.020,
          redirectResponse: { url: `${ORIGIN}/a`, status: 302, statusText: 'Found', headers: { location: '/b' }, mimeType: '', connectionId: 3, encodedDataLength: 37, timing: reusedTiming(T0), protocol: 'http/1.1' }
        }),
        // the second hop's ExtraInfo before its response
        { method: 'Network.responseReceivedExtraInfo', params: { requestId: 'R', statusCode: 200, headers: { 'content-type': 'text/plain' }, headersText: 'HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\n\r\n' } },
        cdpResponse({ id: 'R', url: to, ts: T0 + 0.030, protocol: 'http/1.1', connectionId: 3, timing: reusedTiming(T0 + 0.020), headers: { 'content-type': 'text/plain' } }),
        cdpData('R', T0 + 0.031, 5),
        cdpFinished('R', T0 + 0.032, 50)
      ]
      const { pages, entries } = cdpEntries(events)
      assert.equal(pages[0].title, `${ORIGIN}/a`, 'no title given: the first URL')
      assert.equal(entries.length, 2)
      const [first, second] = entries
      assert.equal(first.request.url, `${ORIGIN}/a`)
      assert.equal(first.response.status, 302)
      assert.equal(first.response.redirectURL, to)
      assert.equal(first.response._transferSize, 37)
      assert.equal(first.response.headersSize, 'HTTP/1.1 302 Found\r\nlocation: /b\r\n\r\n'.length)
      assert.equal(first.response.httpVersion, 'HTTP/1.1')
      assert.equal(first.time, 20, 'the first hop ends when the redirect is followed')
      assert.equal(second.request.url, to)
      assert.equal(second.response.status, 200)
      assert.equal(second.response.redirectURL, '')
      assert.equal(second.response.headersSize, 'HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\n\r\n'.length)
      assert.equal(second.response.content.size, 5)
      assert.equal(second.response._transferSize, 50)
    })

    it('keeps a failed request: status 0, its error, its time', () => {
      const events = [
        cdpRequest({ id: 'F', url: 'https://127.0.0.1:1/x', type: 'Fetch' }),
        { method: 'Network.loadingFailed', params: { requestId: 'F', timestamp: T0 + 0.004, type: 'Fetch', errorText: 'net::ERR_CONNECTION_REFUSED', canceled: false } }
      ]
      const [e] = cdpEntries(events).entries
      assert.equal(e.pageref, undefined, 'before any startPage: no page')
      assert.equal(e.response.status, 0)
      assert.equal(e._error, 'net::ERR_CONNECTION_REFUSED')
      assert.equal(e.response.httpVersion, '')
      assert.equal(e.time, 4)
      assert.equal(e.timings.blocked, 4)
    })

    it('leaves data: URLs out, marks a request still running as _incomplete', () => {
      const events = [
        cdpRequest({ id: 'X', url: 'data:,' }),
        cdpRequest({ id: 'Y', url: `${ORIGIN}/slow` }),
        cdpResponse({ id: 'Y', url: `${ORIGIN}/slow`, ts: T0 + 0.010, timing: reusedTiming(T0) }),
        cdpData('Y', T0 + 0.012, 10)
      ]
      const { entries } = cdpEntries(events)
      assert.deepEqual(entries.map(e => e.request.url), [`${ORIGIN}/slow`])
      assert.equal(entries[0]._incomplete, true)
      assert.equal(entries[0].response.content.size, 10)
    })

    it('gives a page its load event by timestamp, even when it comes after the next startPage', () => {
      const events = [
        startPage('one'),
        cdpRequest({ id: 'A', url: `${ORIGIN}/one` }),
        startPage('two'), // page.goto resolved on the driver's own session before ours had the load event
        { method: 'Page.domContentEventFired', params: { timestamp: T0 + 0.030 } },
        { method: 'Page.loadEventFired', params: { timestamp: T0 + 0.040 } },
        cdpRequest({ id: 'B', url: `${ORIGIN}/two`, ts: T0 + 0.100 }),
        { method: 'Page.domContentEventFired', params: { timestamp: T0 + 0.150 } },
        { method: 'Page.loadEventFired', params: { timestamp: T0 + 0.170 } }
      ]
      const { pages } = cdpEntries(events)
      assert.deepEqual(pages.map(p => p.pageTimings), [{ onContentLoad: 30, onLoad: 40 }, { onContentLoad: 50, onLoad: 70 }])
    })

    it('recordCdp enables Network and Page, keeps the events, and stops listening at stop()', async () => {
      const cdp = new EventEmitter()
      const sent = []
      cdp.send = async method => { sent.push(method) }
      const recorder = await recordCdp(cdp)
      assert.deepEqual(sent, ['Network.enable', 'Page.enable'])
      recorder.startPage('page_1', 'one')
      for (const { method, params } of load.slice(1)) cdp.emit(method, params)
      const { pages, entries } = recorder.stop()
      assert.equal(entries.length, 2)
      assert.equal(pages[0].pageTimings.onLoad, 100)
      assert.equal(cdp.listenerCount('Network.requestWillBeSent'), 0)
      cdp.emit('Network.requestWillBeSent', load[1].params)
      assert.equal(recorder.stop().entries.length, 2)
    })
  })

  describe('bidi-har.js (Firefox)', () => {
    const E0 = 1800000000000 // epoch ms
    const page = `${ORIGIN}/site?size=16kb`
    const header = (name, value) => ({ name, value: { type: 'string', value } })
    // Firefox's timings: timeOrigin 0, every field an absolute epoch time in ms, 0 when it did not happen
    const freshTimings = {
      timeOrigin: 0,
      requestTime: E0,
      redirectStart: 0,
      redirectEnd: 0,
      fetchStart: E0 + 2,
      dnsStart: E0 + 2,
      dnsEnd: E0 + 3,
      connectStart: E0 + 3,
      connectEnd: E0 + 13,
      tlsStart: E0 + 4,
      tlsEnd: E0 + 13,
      requestStart: E0 + 13,
      responseStart: E0 + 40,
      responseEnd: E0 + 45
    }
    const reusedTimings = at => ({
      timeOrigin: 0,
      requestTime: at,
      redirectStart: 0,
      redirectEnd: 0,
      fetchStart: 0,
      dnsStart: 0,
      dnsEnd: 0,
      connectStart: 0,
      connectEnd: 0,
      tlsStart: 0,
      tlsEnd: 0,
      requestStart: at + 1,
      responseStart: at + 11,
      responseEnd: at + 12
    })
    const request = (id, url, timings, extra = {}) => ({ request: id, url, method: 'GET', headers: [header('Accept', '*/*')], cookies: [], headersSize: 300, bodySize: 0, destination: '', initiatorType: null, timings, ...extra })
    const response = (url, { protocol = 'h2', status = 200, bodySize = 1000, headersSize = 200, headers = [header('content-type', 'text/html')] } = {}) => ({ url, protocol, status, statusText: status === 200 ? 'OK' : 'Found', fromCache: false, headers, mimeType: 'text/html', bytesReceived: headersSize + bodySize, headersSize, bodySize, content: { size: 0 } })
    const ev = (method, params) => ({ type: 'event', method, params })
    const net = (method, { id, url, timings, redirectCount = 0, navigation = null, context = 'ctx', res, ts, errorText }) =>
      ev(`network.${method}`, { context, navigation, redirectCount, isBlocked: false, request: request(id, url, timings), timestamp: ts, ...(res ? { response: res } : {}), ...(errorText ? { errorText } : {}) })

    const messages = [
      { type: 'success', id: 3, result: {} }, // a command's result: not an event
      net('beforeRequestSent', { id: '1', url: page, timings: { ...freshTimings, fetchStart: 0, dnsStart: 0, dnsEnd: 0, connectStart: 0, connectEnd: 0, tlsStart: 0, tlsEnd: 0, requestStart: 0, responseStart: 0, responseEnd: 0 }, navigation: 'nav1', ts: E0 + 1 }),
      net('responseStarted', { id: '1', url: page, timings: freshTimings, navigation: 'nav1', res: response(page, { bodySize: 0 }), ts: E0 + 41 }),
      ev('script.realmCreated', { realm: 'r', context: 'ctx' }),
      net('responseCompleted', { id: '1', url: page, timings: freshTimings, navigation: 'nav1', res: response(page), ts: E0 + 60 }),
      net('beforeRequestSent', { id: '2', url: 'data:,', timings: reusedTimings(E0 + 50), ts: E0 + 50 }),
      net('responseCompleted', { id: '2', url: 'data:,', timings: reusedTimings(E0 + 50), res: response('data:,', { protocol: 'data' }), ts: E0 + 50 }),
      net('beforeRequestSent', { id: '3', url: `${ORIGIN}/a.css`, timings: reusedTimings(E0 + 50), ts: E0 + 50 }),
      ev('browsingContext.domContentLoaded', { context: 'other', navigation: 'x', timestamp: E0 + 55, url: 'about:blank' }),
      ev('browsingContext.domContentLoaded', { context: 'ctx', navigation: 'nav1', timestamp: E0 + 70, url: page }),
      net('responseCompleted', { id: '3', url: `${ORIGIN}/a.css`, timings: reusedTimings(E0 + 50), res: response(`${ORIGIN}/a.css`, { bodySize: 100 }), ts: E0 + 65 }),
      ev('browsingContext.load', { context: 'ctx', navigation: 'nav1', timestamp: E0 + 90, url: page })
    ]

    function recorded (list, pageId = 'page_1') {
      const recorder = recordBidi()
      recorder.onMessage(ev('network.beforeRequestSent', { request: request('0', `${ORIGIN}/before`, reusedTimings(E0 - 100)), redirectCount: 0, timestamp: E0 - 100 }))
      recorder.clear() // Firefox's start, forgotten
      recorder.startPage(pageId, 'the site')
      for (const m of list) recorder.onMessage(m)
      return recorder
    }

    it('makes one entry per http(s) request, with Firefox\'s protocol and sizes', () => {
      const { pages, entries } = recorded(messages).stop()
      assert.deepEqual(pages, [{ startedDateTime: new Date(E0).toISOString(), id: 'page_1', title: 'the site', pageTimings: { onContentLoad: 70, onLoad: 90 } }])
      assert.deepEqual(entries.map(e => e.request.url), [page, `${ORIGIN}/a.css`])
      const [doc, style] = entries
      assert.equal(doc.pageref, 'page_1')
      assert.equal(doc.startedDateTime, new Date(E0).toISOString())
      assert.equal(doc.request.httpVersion, 'h2')
      assert.equal(doc._protocol, 'h2')
      assert.deepEqual(doc.request.headers, [{ name: 'Accept', value: '*/*' }])
      assert.equal(doc.request.headersSize, 300)
      assert.deepEqual(doc.response.content, { size: 1000, mimeType: 'text/html' })
      assert.equal(doc.response.bodySize, 1000)
      assert.equal(doc.response.headersSize, 200)
      assert.equal(doc.response._transferSize, 1200)
      assert.equal(doc.connection, undefined, 'BiDi has no connection id')
      assert.equal(style.response.bodySize, 100)
    })

    it('converts Firefox\'s absolute timings (0: did not happen) to HAR timings', () => {
      const [doc, style] = recorded(messages).stop().entries
      // dns 2→3, connect 3→13 (tls 4→13), request 13, first byte 40, last 45
      assert.deepEqual(doc.timings, { blocked: 2, dns: 1, connect: 10, ssl: 9, send: 0, wait: 27, receive: 5 })
      assert.equal(doc.time, 45)
      assert.deepEqual(style.timings, { blocked: 1, dns: -1, connect: -1, ssl: -1, send: 0, wait: 10, receive: 1 })
    })

    it('takes TLS start as the connect start when a request reports a connection end without a start', () => {
      const t = { ...reusedTimings(E0), connectEnd: E0 + 30, tlsStart: E0 + 10, requestStart: E0 + 30, responseStart: E0 + 40, responseEnd: E0 + 41 }
      const [e] = bidiEntries([
        net('beforeRequestSent', { id: '9', url: `${ORIGIN}/q`, timings: t, ts: E0 }),
        net('responseCompleted', { id: '9', url: `${ORIGIN}/q`, timings: t, res: response(`${ORIGIN}/q`, { protocol: 'http/1.1' }), ts: E0 + 42 })
      ]).entries
      assert.equal(e.timings.connect, 20)
      assert.equal(e.timings.ssl, 20)
      assert.equal(e.response.httpVersion, 'HTTP/1.1')
    })

    it('makes a hop of each redirect (same request id, redirectCount + 1)', () => {
      const to = `${ORIGIN}/b`
      const list = [
        net('beforeRequestSent', { id: '5', url: `${ORIGIN}/a`, timings: freshTimings, ts: E0 }),
        net('responseCompleted', { id: '5', url: `${ORIGIN}/a`, timings: freshTimings, res: response(`${ORIGIN}/a`, { protocol: 'http/1.1', status: 302, bodySize: 0, headers: [header('Location', '/b')] }), ts: E0 + 46 }),
        net('beforeRequestSent', { id: '5', url: to, redirectCount: 1, timings: reusedTimings(E0 + 46), ts: E0 + 46 }),
        net('responseCompleted', { id: '5', url: to, redirectCount: 1, timings: reusedTimings(E0 + 46), res: response(to, { protocol: 'http/1.1', bodySize: 5 }), ts: E0 + 60 })
      ]
      const { entries } = recorded(list).stop()
      assert.equal(entries.length, 2)
      assert.equal(entries[0].response.status, 302)
      assert.equal(entries[0].response.redirectURL, to)
      assert.equal(entries[1].request.url, to)
      assert.equal(entries[1].response.status, 200)
      assert.equal(entries[1].response.content.size, 5)
    })

    it('keeps a failed request: status 0, its error', () => {
      const t = reusedTimings(E0)
      const list = [
        net('beforeRequestSent', { id: '7', url: 'https://127.0.0.1:1/x', timings: { ...t, requestStart: 0, responseStart: 0, responseEnd: 0 }, ts: E0 }),
        net('fetchError', { id: '7', url: 'https://127.0.0.1:1/x', timings: { ...t, requestStart: 0, responseStart: 0, responseEnd: 0 }, errorText: 'NS_ERROR_CONNECTION_REFUSED', ts: E0 + 3 })
      ]
      const [e] = recorded(list).stop().entries
      assert.equal(e.response.status, 0)
      assert.equal(e._error, 'NS_ERROR_CONNECTION_REFUSED')
      assert.equal(e.time, 3)
    })

    it('gives a page the load events of its navigation, even after the next startPage', () => {
      const recorder = recorded([net('beforeRequestSent', { id: '1', url: page, timings: reusedTimings(E0), navigation: 'nav1', ts: E0 })])
      recorder.startPage('page_2')
      for (const m of [
        net('beforeRequestSent', { id: '2', url: `${ORIGIN}/next`, timings: reusedTimings(E0 + 200), navigation: 'nav2', ts: E0 + 200 }),
        ev('browsingContext.load', { context: 'ctx', navigation: 'nav1', timestamp: E0 + 90, url: page }), // late
        ev('browsingContext.domContentLoaded', { context: 'ctx', navigation: 'nav2', timestamp: E0 + 250, url: page }),
        ev('browsingContext.load', { context: 'ctx', navigation: 'nav2', timestamp: E0 + 260, url: page })
      ]) recorder.onMessage(m)
      const { pages } = recorder.stop()
      assert.deepEqual(pages.map(p => [p.id, p.pageTimings]), [['page_1', { onContentLoad: -1, onLoad: 90 }], ['page_2', { onContentLoad: 50, onLoad: 60 }]])
    })

    it('stops keeping events at stop()', () => {
      const recorder = recorded(messages)
      const first = recorder.stop()
      recorder.onMessage(net('beforeRequestSent', { id: '8', url: `${ORIGIN}/late`, timings: reusedTimings(E0), ts: E0 }))
      assert.equal(recorder.stop(), first)
      assert.equal(first.entries.length, 2)
    })
  })

  describe('summarizeHar', () => {
    it('counts requests, failures, bytes, protocols and connections per origin', () => {
      const entry = (url, protocol, { connect = -1, ssl = connect, connection, transfer = 0, body = 0, status = 200, error, fromCache } = {}) => ({
        request: { url },
        response: { status, bodySize: body, _transferSize: transfer },
        timings: { blocked: 0, dns: -1, connect, ssl, send: 0, wait: 1, receive: 1 },
        _protocol: protocol,
        ...(connection ? { connection } : {}),
        ...(error ? { _error: error } : {}),
        ...(fromCache ? { _fromCache: fromCache } : {})
      })
      const har = buildHar({
        entries: [
          entry('https://a:1/x', 'h2', { connect: 5, connection: '1', transfer: 110, body: 100 }),
          entry('https://a:1/y', 'h2', { connection: '1', transfer: 60, body: 50 }),
          entry('https://b:2/x', 'http/1.1', { connect: 3, connection: '2', transfer: 20, body: 10 }),
          entry('https://b:2/y', 'http/1.1', { connect: 4, connection: '3', transfer: 20, body: 10 }),
          entry('https://b:2/z', 'http/1.1', { connection: '4', transfer: 20, body: 10 }), // a preconnected socket: no set-up seen
          entry('https://b:2/c', 'http/1.1', { fromCache: 'disk', body: 10 }),
          // a TCP connect and no TLS: no connection this https request could have used
          entry('https://b:2/t', 'http/1.1', { connect: 0.148, ssl: -1, connection: '2', transfer: 20, body: 10 }),
          entry('http://d:4/', 'http/1.1', { connect: 0.5, ssl: -1, connection: '5', transfer: 20, body: 10 }),
          entry('https://c:3/', '', { status: 0, error: 'net::ERR_CONNECTION_REFUSED', body: -1 })
        ]
      })
      assert.deepEqual(summarizeHar(har), {
        requests: 9,
        failed: 1,
        bytes: 270,
        bodyBytes: 210,
        protocols: { h2: 2, 'http/1.1': 5, cache: 1, '': 1 },
        origins: {
          'https://a:1': { requests: 2, protocols: { h2: 2 }, connections: 1, _connectionIds: 1 },
          'https://b:2': { requests: 5, protocols: { 'http/1.1': 4, cache: 1 }, connections: 2, _connectionIds: 3 },
          'https://c:3': { requests: 1, protocols: { '': 1 }, connections: 0 },
          'http://d:4': { requests: 1, protocols: { 'http/1.1': 1 }, connections: 1, _connectionIds: 1 }
        },
        fromCache: 1
      })
    })
  })
})

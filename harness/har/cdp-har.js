'use strict'

// HAR from Chromium's DevTools protocol: recordCdp listens on a CDP session
// (puppeteer's page.createCDPSession()) and keeps the events as they
// come; cdpEntries, a pure function of those events, turns them into HAR
// pages and entries (./har.js buildHar makes the log), so it is tested on
// constructed event sequences without a browser.
//
// Clocks: Network.* and Page.* timestamps, and response.timing.requestTime,
// are seconds on one monotonic clock; timing's other fields are ms after
// requestTime (-1: did not happen); requestWillBeSent.wallTime is epoch
// seconds, the only wall clock, which dates the entries and pages.
//
// Why not chrome-har (sitespeed.io's CDP → HAR library): tried (1.3.1) on the same CDP events of cold and repeat
// loads of the 21-request /site page on h1, h2 and h3, both HARs valid HAR 1.2 with the same entries, sizes and
// connect timings, it lacks what the site experiment counts: no _protocol (every request's protocol, which decides
// whether a forced-protocol load counts), no _fromCache (a memory-cache hit is called a disk-cache one), cached
// entries dropped by default, failed and unfinished requests left out (our _error and _incomplete), its own page ids.
//
// A recording (recordCdp's `record`, `npm run bench -- record`) asks the browser for more as the events
// come: every finished response's body (Network.getResponseBody) and every origin's certificate
// (Network.getCertificate); the answers join the event list as events of our own (RECORDING,
// RESPONSE_BODY, CERTIFICATE, ROUND_TRIP), so cdpEntries stays a function of the list, and a recording's
// entries carry their bodies and h2bench's fields (./recording.js), its result the origins.
const { harTimings, httpVersionOf, queryStringOf, headerList, headerValue, harResponse, isHttp, isoDate, round, originOf } = require('./har')
const { bodyContent, originsOf, entryFields } = require('./recording')

const NETWORK_EVENTS = ['requestWillBeSent', 'requestWillBeSentExtraInfo', 'requestServedFromCache', 'responseReceived', 'responseReceivedExtraInfo', 'dataReceived', 'loadingFinished', 'loadingFailed'].map(e => `Network.${e}`)
const PAGE_EVENTS = ['Page.domContentEventFired', 'Page.loadEventFired']
const START_PAGE = 'h2bench.startPage' // our own marker in the event list: startPage(id, title)
// A recording's own events: its start; a body asked for ({ requestId, body, base64Encoded } or
// { requestId, error }); an origin's certificate ({ origin, tableNames } or { origin, error }); a round
// trip measured outside the browser ({ origin, rttMs, from }) for an origin the browser showed none of.
const RECORDING = 'h2bench.recording'
const RESPONSE_BODY = 'h2bench.responseBody'
const CERTIFICATE = 'h2bench.certificate'
const ROUND_TRIP = 'h2bench.roundTrip'
// Network.enable's buffers for a recording: the renderer keeps each response's body for
// Network.getResponseBody up to maxResourceBufferSize (a larger body is not kept: its entry gets
// bodyComplete false) and all of them up to maxTotalBufferSize (beyond, the oldest are evicted: the
// recorder asks for each body as soon as it has finished, so only bodies not yet fetched count).
const RECORDING_BUFFERS = { maxTotalBufferSize: 512 * 1024 * 1024, maxResourceBufferSize: 128 * 1024 * 1024 }

// Starts recording on `cdp` (a CDP session of one page: on, off, send):
// enables the Network and Page domains (enabling twice is harmless) and
// resolves a recorder: startPage(id, title?) begins a HAR page (the requests
// from then on are its entries, its onContentLoad and onLoad the page's next
// DOMContentLoaded and load); events, the events so far ({ method, params });
// snapshot(), { pages, entries } so far (requests still running are
// _incomplete); stop() stops listening and returns { pages, entries }.
// Requests before the first startPage() have no pageref.
//
// `record: true` (a recording): Network enabled with RECORDING_BUFFERS, each response's body asked for
// when it has finished and each https origin's certificate when its first response arrives;
// inFlight(), the requests not yet finished or failed; settled() resolves once every answer asked for
// is in the events (call it before stop()); addEvent(method, params) adds one of our own (ROUND_TRIP).
// stop() then also returns `origins` (./recording.js originsOf).
async function recordCdp (cdp, { record = false } = {}) {
  const events = []
  const pending = new Set()
  const running = new Set()
  const certificatesAsked = new Set()
  const ask = (method, params, done) => {
    const p = cdp.send(method, params).then(result => done(result, null), err => done(null, err))
    pending.add(p)
    p.finally(() => pending.delete(p))
  }
  const errorText = err => String(err && err.message ? err.message : err).split('\n')[0]
  // A recording's questions, asked as the events come (a body is only there until the renderer evicts it).
  const onRecorded = (method, p) => {
    if (method === 'Network.requestWillBeSent') running.add(p.requestId)
    else if (method === 'Network.loadingFailed') running.delete(p.requestId)
    else if (method === 'Network.loadingFinished') {
      running.delete(p.requestId)
      const { requestId } = p
      ask('Network.getResponseBody', { requestId }, (result, err) => events.push({
        method: RESPONSE_BODY,
        params: err ? { requestId, error: errorText(err) } : { requestId, body: result.body, base64Encoded: Boolean(result.base64Encoded) }
      }))
    } else if (method === 'Network.responseReceived') {
      const origin = originOf(p.response.url)
      if (/^https:/.test(origin) && !certificatesAsked.has(origin)) {
        certificatesAsked.add(origin)
        ask('Network.getCertificate', { origin }, (result, err) => events.push({
          method: CERTIFICATE,
          params: err ? { origin, error: errorText(err) } : { origin, tableNames: result.tableNames || [] }
        }))
      }
    }
  }
  const listeners = [...NETWORK_EVENTS, ...PAGE_EVENTS].map(method => {
    const fn = params => {
      events.push({ method, params })
      if (record) onRecorded(method, params)
    }
    cdp.on(method, fn)
    return [method, fn]
  })
  if (record) events.push({ method: RECORDING, params: {} })
  await cdp.send('Network.enable', record ? { ...RECORDING_BUFFERS } : undefined)
  await cdp.send('Page.enable')
  let stopped = null
  return {
    events,
    inFlight: () => running.size,
    async settled () {
      while (pending.size) await Promise.all([...pending])
    },
    addEvent (method, params) {
      events.push({ method, params })
    },
    startPage (id, title) {
      events.push({ method: START_PAGE, params: { id, title } })
    },
    snapshot: () => stopped || cdpEntries(events),
    stop () {
      if (!stopped) {
        for (const [method, fn] of listeners) cdp.off(method, fn)
        stopped = cdpEntries(events)
      }
      return stopped
    }
  }
}

// One hop of a request (a redirect makes a new hop under the same requestId).
function newHop (p, pageref) {
  return {
    requestId: p.requestId,
    pageref,
    url: p.request.url + (p.request.urlFragment || ''),
    method: p.request.method,
    requestHeaders: p.request.headers,
    postData: p.request.postData,
    wallTime: p.wallTime,
    ts: p.timestamp,
    type: p.type,
    requestExtra: null,
    responseExtra: null,
    response: null,
    dataLength: 0,
    endTs: null,
    transferSize: null,
    error: null
  }
}

// The events (as recordCdp keeps them) → { pages, entries } of HAR 1.2.
// Only http(s) requests become entries (data: and blob: URLs are not on the
// network). A request still running when the events end is an entry all the
// same, its end the last data seen, and _incomplete: true.
// A recording's (RECORDING among the events): every entry's body (content.text, encoding) and its
// _h2bench, and `origins` beside pages and entries.
function cdpEntries (events) {
  const recording = events.some(e => e.method === RECORDING)
  const certificates = new Map() // origin → DER chain (base64), the leaf first
  const rtts = new Map() // origin → { rttMs, from }
  const pages = []
  const hops = []
  const current = new Map() // requestId → its latest hop
  const pageEvents = [] // [field, timestamp]
  const waiting = { requestExtra: new Map(), responseExtra: new Map() } // ExtraInfo that came before its hop
  let page = null
  // ExtraInfo events come from the network service and may arrive before
  // or after the event they complete: each hop takes the first one not yet
  // taken, in order (one per hop along a redirect chain).
  const attachExtra = (kind, params) => {
    const hop = current.get(params.requestId)
    if (hop && !hop[kind]) hop[kind] = params
    else {
      if (!waiting[kind].has(params.requestId)) waiting[kind].set(params.requestId, [])
      waiting[kind].get(params.requestId).push(params)
    }
  }
  const takeExtra = (kind, hop) => {
    const queue = waiting[kind].get(hop.requestId)
    if (queue && queue.length) hop[kind] = queue.shift()
  }
  for (const { method, params: p } of events) {
    switch (method) {
      case START_PAGE:
        page = { id: String(p.id), title: p.title, startTs: null, wallTime: null, domContentTs: null, loadTs: null }
        pages.push(page)
        break
      case 'Network.requestWillBeSent': {
        const previous = current.get(p.requestId)
        if (previous && p.redirectResponse) { // the previous hop ends with the redirect's response
          previous.response = p.redirectResponse
          previous.endTs = p.timestamp
          previous.transferSize = p.redirectResponse.encodedDataLength
        }
        const hop = newHop(p, page ? page.id : null)
        takeExtra('requestExtra', hop)
        takeExtra('responseExtra', hop)
        current.set(p.requestId, hop)
        hops.push(hop)
        if (page && page.startTs === null && isHttp(hop.url)) {
          page.startTs = p.timestamp
          page.wallTime = p.wallTime
          if (page.title === undefined) page.title = hop.url
        }
        break
      }
      case 'Network.requestWillBeSentExtraInfo':
        attachExtra('requestExtra', p)
        break
      case 'Network.responseReceivedExtraInfo':
        attachExtra('responseExtra', p)
        break
      case 'Network.requestServedFromCache': { // the memory cache
        const hop = current.get(p.requestId)
        if (hop) hop.servedFromCache = true
        break
      }
      case 'Network.responseReceived': {
        const hop = current.get(p.requestId)
        if (hop) {
          hop.response = p.response
          hop.responseTs = p.timestamp
        }
        break
      }
      case 'Network.dataReceived': {
        const hop = current.get(p.requestId)
        if (hop) {
          hop.dataLength += p.dataLength
          hop.lastDataTs = p.timestamp
        }
        break
      }
      case 'Network.loadingFinished': {
        const hop = current.get(p.requestId)
        if (hop) {
          hop.endTs = p.timestamp
          hop.transferSize = p.encodedDataLength
        }
        break
      }
      case 'Network.loadingFailed': {
        const hop = current.get(p.requestId)
        if (hop) {
          hop.endTs = p.timestamp
          hop.error = p.errorText || (p.canceled ? 'canceled' : 'failed')
          if (p.blockedReason) hop.error += ` (${p.blockedReason})`
        }
        break
      }
      case RESPONSE_BODY: {
        const hop = current.get(p.requestId)
        if (hop) hop.body = p
        break
      }
      case CERTIFICATE:
        if (p.tableNames) certificates.set(p.origin, p.tableNames)
        break
      case ROUND_TRIP:
        rtts.set(p.origin, { rttMs: p.rttMs, from: p.from })
        break
      case 'Page.domContentEventFired':
        pageEvents.push(['domContentTs', p.timestamp])
        break
      case 'Page.loadEventFired':
        pageEvents.push(['loadTs', p.timestamp])
        break
    }
  }
  // A page's DOMContentLoaded and load are the first of each after its first
  // request, by timestamp, not by order: they may come after the next
  // startPage (the driver's own session's load event ends its page.goto).
  for (const [field, ts] of pageEvents) {
    const owner = pages.filter(pg => pg.startTs !== null && pg.startTs <= ts).pop()
    if (owner && owner[field] === null) owner[field] = ts
  }
  const httpHops = hops.filter(h => isHttp(h.url))
  if (!recording) return { pages: pages.map(harPage), entries: httpHops.map(h => harEntry(h)) }
  for (const hop of httpHops) hop.fromCache = Boolean(fromCacheOf(hop))
  const origins = originsOf(httpHops, certificates, rtts)
  return { pages: pages.map(harPage), entries: httpHops.map(h => harEntry(h, origins)), origins }
}

// Where a response came from when not the network: 'disk', 'prefetch', 'service-worker', 'memory'; else null.
const fromCacheOf = ({ response: r, servedFromCache }) =>
  r ? (r.fromDiskCache ? 'disk' : r.fromPrefetchCache ? 'prefetch' : r.fromServiceWorker ? 'service-worker' : (servedFromCache ? 'memory' : null)) : null

function harPage (page) {
  const after = ts => ts === null || page.startTs === null ? -1 : round((ts - page.startTs) * 1000)
  return {
    startedDateTime: isoDate(page.wallTime === null ? null : page.wallTime * 1000),
    id: page.id,
    title: page.title === undefined ? '' : String(page.title),
    pageTimings: { onContentLoad: after(page.domContentTs), onLoad: after(page.loadTs) }
  }
}

// `origins`: a recording's (./recording.js), which adds the body and _h2bench.
function harEntry (hop, origins = null) {
  const r = hop.response
  const protocol = r ? (r.protocol || '') : ''
  const httpVersion = httpVersionOf(protocol)
  const requestHeaders = headerList(hop.requestExtra ? hop.requestExtra.headers : hop.requestHeaders)
  const responseHeaders = headerList(hop.responseExtra ? hop.responseExtra.headers : r && r.headers)
  const incomplete = hop.endTs === null
  const end = incomplete ? (hop.lastDataTs || hop.responseTs || hop.ts) : hop.endTs
  const { timings, time } = harTimings(phases(hop, end))
  const transferSize = hop.transferSize !== null ? hop.transferSize : (r ? r.encodedDataLength || 0 : 0)
  // headersSize: the text of an HTTP/1.x response's headers (ExtraInfo's
  // headersText); h2 and h3 headers are compressed frames with no text: -1.
  const headersText = hop.responseExtra && hop.responseExtra.headersText
  const responseHeadersSize = headersText ? headersText.length : -1
  // bodySize, the body as sent: with no Content-Encoding that is the decoded
  // bytes; encoded, the bytes after the headers (h2 and h3 framing included).
  const encoded = headerValue(responseHeaders, 'content-encoding')
  const bodySize = !r ? -1 : encoded && encoded !== 'identity' ? Math.max(0, transferSize - (r.encodedDataLength || 0)) : hop.dataLength
  const fromCache = fromCacheOf(hop)
  const response = harResponse(r, {
    httpVersion, headers: responseHeaders, url: hop.url, contentSize: r ? hop.dataLength : 0, headersSize: responseHeadersSize, bodySize, transferSize
  })
  // A recording: the body as the browser gave it (its size the bytes given), and h2bench's fields.
  const body = origins ? bodyContent(hop.body, hop.dataLength, responseHeaders) : null
  if (body && body.text !== undefined) {
    response.content.size = body.size
    response.content.text = body.text
    if (body.encoding) response.content.encoding = body.encoding
  }
  return {
    ...(hop.pageref ? { pageref: hop.pageref } : {}),
    startedDateTime: isoDate(hop.wallTime * 1000),
    time,
    request: {
      method: hop.method,
      url: hop.url,
      httpVersion,
      headers: requestHeaders,
      queryString: queryStringOf(hop.url),
      cookies: [],
      headersSize: -1,
      bodySize: hop.postData ? Buffer.byteLength(hop.postData) : 0
    },
    response,
    cache: {},
    timings,
    ...(r && r.remoteIPAddress ? { serverIPAddress: r.remoteIPAddress.replace(/^\[|\]$/g, '') } : {}),
    ...(r && r.connectionId !== undefined ? { connection: String(r.connectionId) } : {}),
    _protocol: protocol,
    _resourceType: hop.type ? hop.type.toLowerCase() : '',
    ...(fromCache ? { _fromCache: fromCache } : {}),
    ...(hop.error ? { _error: hop.error } : {}),
    ...(incomplete ? { _incomplete: true } : {}),
    ...(origins ? { _h2bench: entryFields(hop, origins, body) } : {})
  }
}

// The hop's phases in ms on the monotonic clock (see harTimings).
function phases (hop, end) {
  const t = hop.response && hop.response.timing
  const ms = s => typeof s === 'number' ? s * 1000 : null
  if (!t) return { start: ms(hop.ts), responseStart: hop.response ? ms(hop.responseTs) : null, end: ms(end) }
  const base = t.requestTime * 1000
  const at = offset => typeof offset === 'number' && offset >= 0 ? base + offset : null
  // the response's first byte (receiveHeadersStart, where Chromium reports
  // it) like BiDi's responseStart, so wait means the same in both browsers
  const firstByte = at(t.receiveHeadersStart) !== null ? at(t.receiveHeadersStart) : at(t.receiveHeadersEnd)
  return {
    start: ms(hop.ts),
    dnsStart: at(t.dnsStart),
    dnsEnd: at(t.dnsEnd),
    connectStart: at(t.connectStart),
    connectEnd: at(t.connectEnd),
    sslStart: at(t.sslStart),
    sslEnd: at(t.sslEnd),
    sendStart: at(t.sendStart),
    sendEnd: at(t.sendEnd),
    responseStart: firstByte,
    end: ms(end)
  }
}

module.exports = { recordCdp, cdpEntries, START_PAGE, RECORDING, RESPONSE_BODY, CERTIFICATE, ROUND_TRIP, RECORDING_BUFFERS }

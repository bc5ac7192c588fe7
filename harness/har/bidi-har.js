'use strict'

// HAR from WebDriver BiDi (Firefox): recordBidi keeps the raw events of the
// network and browsingContext modules as they come from the browser
// (harness/firefox/launch.js's onBidiMessage tap: puppeteer does not pass on
// timings or sizes); bidiEntries, a pure function of those events, turns them
// into HAR pages and entries (./har.js buildHar makes the log), so it is
// tested on constructed event sequences without a browser.
//
// What Firefox (153 ESR) sends, seen on the lanes: response.protocol
// 'http/1.1', 'h2' or 'h3' ('data' for data: URLs); request.timings in ms,
// timeOrigin 0 and every other field an absolute epoch time (fractional ms),
// 0 for a phase that did not happen (on a reused connection dns, connect and
// tls are 0; a request queued for a connection another request started may
// report tlsStart and connectEnd without connectStart); event timestamps
// epoch ms; response.bytesReceived = headersSize + bodySize (the body as
// sent), content.size 0 (Firefox does not report the decoded size).
const { harTimings, httpVersionOf, queryStringOf, headerValue, harResponse, isHttp, isoDate, round } = require('./har')

const START_PAGE = 'h2bench.startPage' // our own marker in the event list: startPage(id, title)
const RECORDED = /^(network\.(beforeRequestSent|responseStarted|responseCompleted|fetchError)|browsingContext\.(domContentLoaded|load))$/

// A recorder fed by hand: onMessage(message) takes every BiDi message from
// the browser (launchFirefox({ onBidiMessage: recorder.onMessage })) and keeps
// the events HAR needs (network events flow only while someone subscribed to
// the network module: puppeteer does with launchFirefox's network: true);
// startPage(id, title?) begins a HAR page (the requests from then on are its
// entries; its onContentLoad and onLoad are those of its navigation); clear() forgets the events so far (say,
// Firefox's start); events, the events kept; snapshot(), { pages, entries }
// so far (requests still running are _incomplete); stop() stops keeping and
// returns { pages, entries }. Requests before the first startPage() have no
// pageref.
function recordBidi () {
  let events = []
  let stopped = null
  return {
    get events () { return events },
    onMessage (message) {
      if (stopped || !message || message.type !== 'event' || !RECORDED.test(message.method)) return
      events.push({ method: message.method, params: message.params })
    },
    startPage (id, title) {
      if (!stopped) events.push({ method: START_PAGE, params: { id, title } })
    },
    clear () {
      events = []
    },
    snapshot: () => stopped || bidiEntries(events),
    stop () {
      if (!stopped) stopped = bidiEntries(events)
      return stopped
    }
  }
}

// A BiDi header value ({ type: 'string', value } or { type: 'base64', value }) → text.
function headerText (value) {
  if (!value || typeof value !== 'object') return String(value)
  return value.type === 'base64' ? Buffer.from(value.value, 'base64').toString('latin1') : String(value.value)
}
const bidiHeaders = headers => (headers || []).map(h => ({ name: h.name, value: headerText(h.value) }))

// The events (as recordBidi keeps them) → { pages, entries } of HAR 1.2. A
// hop is a request id and its redirectCount (BiDi keeps the id along a
// redirect chain). Only http(s) requests become entries. A request still
// running when the events end is an entry all the same, _incomplete: true.
function bidiEntries (events) {
  const pages = []
  const hops = []
  const byKey = new Map()
  const pageEvents = [] // [field, params]
  let page = null
  const hopOf = p => byKey.get(`${p.request.request}/${p.redirectCount || 0}`)
  for (const { method, params: p } of events) {
    switch (method) {
      case START_PAGE:
        page = { id: String(p.id), title: p.title, startMs: null, context: null, navigation: null, domContentMs: null, loadMs: null }
        pages.push(page)
        break
      case 'network.beforeRequestSent': {
        const key = `${p.request.request}/${p.redirectCount || 0}`
        if (byKey.has(key)) break // sent again (an auth retry): the first one stands
        const hop = {
          key,
          pageref: page ? page.id : null,
          request: p.request,
          timestamp: p.timestamp,
          context: p.context,
          response: null,
          endTs: null,
          error: null
        }
        byKey.set(key, hop)
        hops.push(hop)
        if (page && page.startMs === null && isHttp(p.request.url)) {
          page.startMs = startOf(hop)
          page.context = p.context
          if (page.title === undefined) page.title = p.request.url
        }
        if (page && !page.navigation && p.navigation && isHttp(p.request.url)) page.navigation = p.navigation
        break
      }
      case 'network.responseStarted':
      case 'network.responseCompleted': {
        const hop = hopOf(p)
        if (!hop) break
        hop.request = p.request // its timings grow as the request goes
        hop.response = p.response
        if (method === 'network.responseCompleted') hop.endTs = p.timestamp
        break
      }
      case 'network.fetchError': {
        const hop = hopOf(p)
        if (!hop) break
        hop.request = p.request
        hop.error = p.errorText || 'failed'
        hop.endTs = p.timestamp
        break
      }
      case 'browsingContext.domContentLoaded':
      case 'browsingContext.load':
        pageEvents.push([method === 'browsingContext.load' ? 'loadMs' : 'domContentMs', p])
        break
    }
  }
  // A page's domContentLoaded and load: those of its navigation (the
  // navigation id of its document's request); a page without one (no
  // navigation among its requests) takes the first of its browsing context
  // after its first request, by timestamp (events may come after the next
  // startPage).
  for (const [field, p] of pageEvents) {
    const owner = pages.find(pg => pg.navigation && pg.navigation === p.navigation) ||
      pages.filter(pg => !pg.navigation && pg.startMs !== null && pg.startMs <= p.timestamp && pg.context === p.context).pop()
    if (owner && owner[field] === null) owner[field] = p.timestamp
  }
  return {
    pages: pages.map(harPage),
    entries: hops.filter(h => isHttp(h.request.url)).map(harEntry)
  }
}

function harPage (page) {
  const after = ms => ms === null || page.startMs === null ? -1 : round(ms - page.startMs)
  return {
    startedDateTime: isoDate(page.startMs),
    id: page.id,
    title: page.title === undefined ? '' : String(page.title),
    pageTimings: { onContentLoad: after(page.domContentMs), onLoad: after(page.loadMs) }
  }
}

// A timing field → absolute epoch ms, or null when it did not happen (0).
function timeAt (timings, field) {
  const v = timings && timings[field]
  return typeof v === 'number' && v > 0 ? (timings.timeOrigin || 0) + v : null
}

const startOf = hop => timeAt(hop.request.timings, 'requestTime') || hop.timestamp

// The hop's phases in epoch ms (see harTimings). BiDi has no end of sending:
// send is 0 and wait runs from requestStart.
function phases (hop) {
  const t = hop.request.timings || {}
  const at = field => timeAt(t, field)
  const connectEnd = at('connectEnd')
  const sslStart = at('tlsStart')
  return {
    start: startOf(hop),
    dnsStart: at('dnsStart'),
    dnsEnd: at('dnsEnd'),
    // connectStart is missing on a request that took over a connection
    // another one began; its TLS start is the earliest we know
    connectStart: connectEnd === null ? null : at('connectStart') || sslStart,
    connectEnd,
    sslStart,
    sslEnd: sslStart === null ? null : at('tlsEnd') || connectEnd,
    sendStart: at('requestStart'),
    sendEnd: at('requestStart'),
    responseStart: at('responseStart'),
    end: at('responseEnd') || hop.endTs || hop.timestamp
  }
}

const sizeOr = (v, fallback = -1) => typeof v === 'number' && v >= 0 ? v : fallback

function harEntry (hop) {
  const q = hop.request
  const r = hop.response
  const protocol = r ? (r.protocol || '') : ''
  const httpVersion = httpVersionOf(protocol)
  const responseHeaders = bidiHeaders(r && r.headers)
  const { timings, time } = harTimings(phases(hop))
  const bodySize = r ? sizeOr(r.bodySize) : -1
  // content.size: the decoded body. Firefox reports 0 there; with no
  // Content-Encoding the decoded body is the body as sent (bodySize).
  const encoded = headerValue(responseHeaders, 'content-encoding')
  const reported = r && r.content ? sizeOr(r.content.size, 0) : 0
  const contentSize = !r ? 0 : reported > 0 ? reported : (encoded && encoded !== 'identity' ? -1 : Math.max(0, bodySize))
  return {
    ...(hop.pageref ? { pageref: hop.pageref } : {}),
    startedDateTime: isoDate(startOf(hop)),
    time,
    request: {
      method: q.method,
      url: q.url,
      httpVersion,
      headers: bidiHeaders(q.headers),
      queryString: queryStringOf(q.url),
      cookies: [],
      headersSize: sizeOr(q.headersSize),
      bodySize: sizeOr(q.bodySize, 0)
    },
    response: harResponse(r, {
      httpVersion,
      headers: responseHeaders,
      url: q.url,
      contentSize,
      headersSize: r ? sizeOr(r.headersSize) : -1,
      bodySize,
      transferSize: r ? sizeOr(r.bytesReceived, 0) : 0
    }),
    cache: {},
    timings,
    _protocol: protocol,
    _resourceType: q.destination || q.initiatorType || '',
    ...(r && r.fromCache ? { _fromCache: 'cache' } : {}),
    ...(hop.error ? { _error: hop.error } : {}),
    ...(hop.endTs === null ? { _incomplete: true } : {})
  }
}

module.exports = { recordBidi, bidiEntries, START_PAGE }

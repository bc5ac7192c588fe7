// window.h2benchRequest: the requests every measurement of the page is made
// of, shared by client/js/bench.js (batches of /option) and client/js/rest.js
// (REST visits): one jqXHR per request, Resource Timing matched by URL, the
// unmeasured warm-up that opens the connections a batch will use.
(function () {
  'use strict'

  function token () {
    return Math.random().toString(36).slice(2, 6).padEnd(4, '0')
  }

  // The access token the page was opened with (…/?token=…, printed by a server listening beyond loopback:
  // server/access.js): the lanes' internals (push and REST counters, ledgers) and the page server's link need it.
  const ACCESS = new URLSearchParams(window.location.search).get('token')
  function withAccess (url) {
    return ACCESS ? url + (url.indexOf('?') < 0 ? '?' : '&') + 'token=' + encodeURIComponent(ACCESS) : url
  }

  function round (v) {
    return Math.round(v * 10) / 10
  }

  // A body the page only measures is read whole (one ArrayBuffer, dropped at once) up to this size, and counted
  // chunk by chunk above it. Chunk by chunk costs a JavaScript promise a chunk, and chunks are small (over QUIC
  // about a packet each): for 100 × 100 KB the renderer's CPU was 1.41× a whole read's on h3 and 1.18× on h1
  // (docs/page-cost.md). Whole, a batch keeps at most min(requests, 256 streams) × 1 MiB in the page.
  const WHOLE_MAX = 1024 * 1024

  // Reads a response body to its end, counting its bytes and keeping none beyond WHOLE_MAX: → Promise<bytes>.
  function countBytes (res) {
    const length = Number(res.headers.get('content-length'))
    if (length > 0 && length <= WHOLE_MAX) return res.arrayBuffer().then(function (b) { return b.byteLength })
    if (!res.body) return Promise.resolve(0)
    const reader = res.body.getReader()
    let bytes = 0
    function next () {
      return reader.read().then(function (chunk) {
        if (chunk.done) return bytes
        bytes += chunk.value.byteLength
        return next()
      })
    }
    return next()
  }

  // A response's headers as jQuery takes them (the text of XMLHttpRequest's getAllResponseHeaders()).
  function rawHeaders (res) {
    const raw = []
    res.headers.forEach(function (value, name) { raw.push(name + ': ' + value) })
    return raw.join('\r\n')
  }

  // How the page's jQuery requests travel. 'fetch' (the default): a jQuery transport ($.ajaxTransport, jQuery's
  // own extension point) that carries each $.ajax() on fetch() with cache: 'no-store' (the REST visits, which
  // measure the cache: 'default'). XMLHttpRequest, jQuery's built-in transport ('xhr', the card's page), cannot
  // ask that: each of its requests passes through the browser's HTTP cache (Chromium opens an entry, then drops it
  // for the lanes' Cache-Control: no-store), which cost Chromium 1.25–1.40× the CPU of the same requests with
  // no-store (docs/page-cost.md). Either way a body the page only measures (dataType 'bytes') is counted, never
  // turned into a string: fetch reads it chunk by chunk and keeps nothing, XHR as an ArrayBuffer. A failed
  // answer's body is read as text (its error message).
  $.ajaxTransport('+*', function (options) {
    if (options.h2benchTransport !== 'fetch') return undefined
    let controller = null
    return {
      send: function (headers, complete) {
        controller = new AbortController()
        const signal = controller.signal
        // Only what differs from fetch()'s own defaults (GET, credentials 'same-origin', Accept */*): each member
        // of the init the browser converts costs it, and a header object alone cost Chromium's renderer 4–11 % more
        // CPU a request (docs/page-cost.md).
        const init = { cache: options.h2benchCache || 'no-store', signal: signal }
        if (options.type !== 'GET') init.method = options.type
        const sent = Object.keys(headers).filter(function (name) { return !(name.toLowerCase() === 'accept' && headers[name] === '*/*') })
        if (sent.length) {
          init.headers = {}
          sent.forEach(function (name) { init.headers[name] = headers[name] })
        }
        // A counted answer's headers are not handed to jQuery (nothing reads them: the REST visits that read a
        // header read a text body), which saves making their text for every request of a batch.
        fetch(options.url, init).then(function (res) {
          if (res.ok && options.dataTypes[options.dataTypes.length - 1] === 'bytes') {
            return countBytes(res).then(function (n) { complete(res.status, res.statusText, { bytes: n }, '') })
          }
          return res.text().then(function (t) { complete(res.status, res.statusText, { text: t }, rawHeaders(res)) })
        }).catch(function () {
          if (!signal.aborted) complete(0, 'error') // aborted: jQuery has settled it already
        })
      },
      abort: function () {
        if (controller) controller.abort()
      }
    }
  })
  // What a 'bytes' answer converts from: the XHR transport's ArrayBuffer, or (an error's) text. Set once, for
  // every request (given per request, jQuery would copy them into each one's settings).
  $.ajaxSetup({
    converters: {
      'binary bytes': function (b) { return b.byteLength },
      'text bytes': function (t) { return t.length }
    }
  })

  // One jqXHR, tracked so stop() can abort it; resolves (never rejects) with
  // what happened. A body shorter or longer than asked counts as a failure:
  // the ancestor page trusted whatever came back. `more`: { headers } to send,
  // { body: true } to have the response text in the answer (the REST visits
  // read the collection's links). `ctl.transport`: 'fetch' or 'xhr' (above); `ctl.cache`: fetch's cache mode,
  // 'no-store' unless the caller measures the cache itself (the REST visits: 'default', the HTTP cache as XHR has it).
  function get (ctl, url, expected, more) {
    more = more || {}
    return new Promise(function (resolve) {
      // crossDomain: every lane is another origin than the page (jQuery would otherwise parse each URL through a
      // new <a> element to find out); global: false, no document-wide ajax* events (nothing listens to them).
      const settings = {
        url: url, dataType: more.body ? 'text' : 'bytes', headers: more.headers || {}, crossDomain: true, global: false, h2benchTransport: ctl.transport || 'fetch',
        h2benchCache: ctl.cache || 'no-store'
      }
      if (settings.h2benchTransport === 'xhr' && !more.body) settings.xhrFields = { responseType: 'arraybuffer' }
      const xhr = $.ajax(settings)
      ctl.xhrs.add(xhr)
      xhr.done(function (data, textStatus, jq) {
        ctl.xhrs.delete(xhr)
        const bytes = more.body ? data.length : data // text: the documents are ASCII, one byte per character
        const error = expected === undefined || bytes === expected ? null : 'got ' + bytes + ' of ' + expected + ' bytes'
        const answer = { status: jq.status, bytes: bytes, error: error, aborted: false }
        if (more.body) answer.body = data
        if (more.header) answer.header = jq.getResponseHeader(more.header)
        resolve(answer)
      })
      xhr.fail(function (jq, textStatus, thrown) {
        ctl.xhrs.delete(xhr)
        const aborted = textStatus === 'abort'
        let error = aborted ? 'aborted' : (thrown || textStatus || 'error')
        // The browser tells a page nothing more (its console names the cause).
        if (jq.status === 0 && !aborted) error = 'network error (status 0): no answer, or the certificate is not trusted; the browser console names the cause (net::ERR_…)'
        else if (jq.status >= 400 && jq.responseJSON && jq.responseJSON.error) error = jq.responseJSON.error
        else if (jq.status >= 400) error = 'HTTP ' + jq.status + ' ' + (jq.responseText || thrown || '').slice(0, 200)
        resolve({ status: jq.status, bytes: 0, error: error, aborted: aborted })
      })
    })
  }

  function timingOf (e, t0) {
    const rel = function (v) { return v > 0 ? round(v - t0) : null }
    return {
      startTime: rel(e.startTime),
      fetchStart: rel(e.fetchStart),
      domainLookupStart: rel(e.domainLookupStart),
      domainLookupEnd: rel(e.domainLookupEnd),
      connectStart: rel(e.connectStart),
      secureConnectionStart: rel(e.secureConnectionStart),
      connectEnd: rel(e.connectEnd),
      requestStart: rel(e.requestStart),
      responseStart: rel(e.responseStart),
      responseEnd: rel(e.responseEnd),
      nextHopProtocol: e.nextHopProtocol || null,
      transferSize: e.transferSize,
      encodedBodySize: e.encodedBodySize,
      decodedBodySize: e.decodedBodySize
    }
  }

  function sleep (ms) {
    return new Promise(function (resolve) { setTimeout(resolve, ms) })
  }

  // Matches Resource Timing entries to requests by their unique URL. The
  // browser may queue an entry a moment after the XHR settled, so it looks
  // again briefly for any answered request still without one.
  async function collectTimings (batch, urls, t0) {
    for (let attempt = 0; attempt < 15; attempt++) {
      const byName = new Map()
      performance.getEntriesByType('resource').forEach(function (e) { byName.set(e.name, e) })
      let missing = 0
      batch.requests.forEach(function (req, i) {
        if (req.timing) return
        const e = byName.get(urls[i])
        if (e) req.timing = timingOf(e, t0)
        else if (req.status > 0) missing++
      })
      if (missing === 0) break
      await sleep(20)
    }
    performance.clearResourceTimings()
  }

  // Chrome and Firefox keep at most this many HTTP/1.1 connections per origin.
  const BROWSER_CONNECTIONS = 6
  // Before each batch, unmeasured: as many parallel requests as the batch
  // will have connections (one for HTTP/2; up to six for HTTP/1.1), each held
  // a moment by the server so that each needs a connection of its own. So
  // the batch pays no TCP/TLS setup, also after the server closed idle
  // connections between repeats. Resolves with the first failure, or null.
  async function warmUp (ctl, lane, requests) {
    const n = Math.min(requests, BROWSER_CONNECTIONS)
    const url = lane.url + '/option?size=0&delay=50&warm=' + token()
    const answers = await Promise.all(Array.from({ length: n }, function (_, i) { return get(ctl, url + '-' + i) }))
    return answers.find(function (a) { return a.error }) || null
  }

  // At most this many requests of a batch are in flight at once; beyond it
  // the page issues the next as one settles. 2016's Chrome queued excess
  // requests itself; today's fails those beyond about 1,500 outstanding per
  // page with net::ERR_INSUFFICIENT_RESOURCES (a network-service limit), so
  // the page queues them instead, as the browser used to. Batches of up to
  // this many are fired all at once, as before.
  const MAX_IN_FLIGHT = 1000

  window.h2benchRequest = {
    token: token,
    withAccess: withAccess,
    accessToken: ACCESS,
    round: round,
    get: get,
    timingOf: timingOf,
    sleep: sleep,
    collectTimings: collectTimings,
    warmUp: warmUp,
    BROWSER_CONNECTIONS: BROWSER_CONNECTIONS,
    MAX_IN_FLIGHT: MAX_IN_FLIGHT
  }
}())

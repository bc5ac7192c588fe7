'use strict'

// The one request handler of a replay, a plain (req, res) for node:https,
// node:http2's compatibility API, spdy and the edge's upstream alike: it
// finds the recorded entry for the request's origin (its :authority or Host)
// and path (server/replay/match.js), waits the entry's recorded server time,
// and answers its status, headers and body as recorded, but for time: its
// Date, Expires and Last-Modified moved to the moment of the answer (its
// recorded age and freshness kept), and a conditional GET or HEAD whose
// validators match the recorded ones answered 304 after the same server
// time (server/replay/freshness.js). A request nothing was recorded for gets
// a 404 with a short text, and is counted per origin and remembered, so a
// report can name what the page asked that the recording lacks: misses() and
// served() (which counts the 304s too).
// The server-behaviour variants (server/replay/serve.js chooses them per
// protocol) change only when the recorded bytes go:
//   schedule 'fifo' | 'rfc9218'  the headers go when due, the bodies through
//            one scheduler per client connection (server/replay/schedule.js),
//            which orders them by arrival or by each request's Priority
//            header; the connection is the HTTP/2 session (node:http2, spdy),
//            the socket (HTTP/1.1), or for the edge's upstream the client's
//            QUIC/TCP address that Caddy passes in `clientHeader` (removed
//            from the request before anything else reads it);
//   earlyHints  a 103 with the recorded response's preload/modulepreload/
//            preconnect Link values (server/replay/early-hints.js) as soon as
//            the request arrives, before the recorded server time.
// variantStats() counts what they did: the 103s sent (0: the variant changed
// nothing), the Priority header values requests carried, the scheduler's work.
const { createMatcher } = require('./match')
const { createScheduler, parsePriority } = require('./schedule')
const { hintLinks, sendEarlyHints } = require('./early-hints')
const { shiftedHeaders, lastModifiedOf, notModified, notModifiedHeaders } = require('./freshness')

const TIMES = ['shifted', 'recorded']
const MISSES_KEPT = 1000 // the (method, url) pairs remembered; the counts go on
const PRIORITIES_KEPT = 100 // distinct Priority header values counted; later ones count as '(other)'

// `resolveOrigin(authority)`: the recorded origin of a request's
// :authority/Host as the replay serves it (server/replay/serve.js maps a
// moved port back); by default 'https://' + authority, port 443 dropped.
// `schedule`: null (the protocol server's own scheduling) | 'fifo' | 'rfc9218'; `earlyHints`: send 103s;
// `clientHeader`: the request header naming the client's connection (the edge's upstream), else none.
// `time`: 'shifted' (default: the dates moved to each answer's time) | 'recorded' (as recorded, the replay before
// server/replay/freshness.js; for a comparison). Conditional requests get their 304 either way.
function createReplayApp (archive, { resolveOrigin = defaultOrigin, schedule = null, earlyHints = false, clientHeader = null, time = 'shifted' } = {}) {
  if (!TIMES.includes(time)) throw new RangeError(`time ${JSON.stringify(time)} is not one of ${TIMES.join(', ')}`)
  const clock = { shift: time === 'shifted', startedMs: Date.now() }
  const notModifiedBy = { etag: 0, date: 0 } // 304s answered, by the condition that gave them
  const matcher = createMatcher(archive)
  const scheduler = schedule ? createScheduler(schedule) : null
  const hints = { responses: 0, links: 0 }
  const priorities = new Map()
  const servedBy = new Map()
  const missedBy = new Map()
  const missed = []
  let fuzzy = 0
  const count = (map, origin) => map.set(origin, (map.get(origin) || 0) + 1)

  function app (req, res) {
    const client = clientHeader ? takeHeader(req, clientHeader) : null
    const authority = req.headers[':authority'] || req.headers.host || ''
    const origin = resolveOrigin(authority)
    const found = origin ? matcher.match(req.method, origin, req.url) : null
    req.resume() // a request body is read and dropped: nothing recorded depends on it
    if (!found) {
      count(missedBy, origin || `https://${authority}`)
      if (missed.length < MISSES_KEPT) missed.push({ method: req.method, url: `${origin || `https://${authority}`}${req.url}` })
      const text = `h2bench replay: nothing recorded for ${req.method} ${origin || authority}${req.url}\n`
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8', 'content-length': Buffer.byteLength(text) })
      return res.end(text)
    }
    if (found.how === 'fuzzy') fuzzy++
    count(servedBy, origin)
    const { entry } = found
    const priority = req.headers.priority
    const seen = priority === undefined ? '(none)' : [].concat(priority).join(', ')
    count(priorities, priorities.has(seen) || priorities.size < PRIORITIES_KEPT ? seen : '(other)')
    const ticket = scheduler ? scheduler.open(client || connectionOf(req), parsePriority(priority)) : null
    if (earlyHints) {
      const links = sendEarlyHints(res, hintLinks(entry.response.headers))
      if (links) { hints.responses++; hints.links += links }
    }
    const timer = setTimeout(() => {
      const how = answer(req, res, entry, { ticket, clock })
      if (how) notModifiedBy[how]++
    }, entry.serverTimeMs)
    res.on('close', () => { // the client went away while we waited (or the answer is complete)
      clearTimeout(timer)
      if (ticket) ticket.cancel()
    })
  }

  // { total: requests answered from the recording, fuzzy: of them by another query, notModified: of them with a
  // 304, notModifiedBy: { etag: by If-None-Match, date: by If-Modified-Since }, byOrigin: { origin: total } }
  app.served = () => ({
    total: sum(servedBy),
    fuzzy,
    notModified: notModifiedBy.etag + notModifiedBy.date,
    notModifiedBy: { ...notModifiedBy },
    byOrigin: Object.fromEntries(servedBy)
  })
  // { hints: { responses: 103s sent, links: Link values in them }, priorities: { header value or '(none)': requests },
  // scheduler: server/replay/schedule.js stats() or null }
  app.variantStats = () => ({ hints: { ...hints }, priorities: Object.fromEntries(priorities), scheduler: scheduler ? scheduler.stats() : null })
  app.misses = () => ({ total: sum(missedBy), byOrigin: Object.fromEntries(missedBy), requests: missed.slice() })
  return app
}

const sum = map => [...map.values()].reduce((a, b) => a + b, 0)

function defaultOrigin (authority) {
  try {
    return new URL(`https://${authority}`).origin
  } catch {
    return null
  }
}

// The connection a request came on: node:http2's session, spdy's connection, else the socket (HTTP/1.1).
function connectionOf (req) {
  if (req.stream && req.stream.session) return req.stream.session
  if (req.spdyStream && req.spdyStream.connection) return req.spdyStream.connection
  return req.socket
}

// A request header's value, removed from the request (headers and rawHeaders).
function takeHeader (req, name) {
  const value = req.headers[name]
  delete req.headers[name]
  if (Array.isArray(req.rawHeaders)) {
    for (let i = req.rawHeaders.length - 2; i >= 0; i -= 2) if (req.rawHeaders[i].toLowerCase() === name) req.rawHeaders.splice(i, 2)
  }
  return Array.isArray(value) ? value[0] : value || null
}

// A response as the scheduler writes it (server/replay/schedule.js).
const writerOf = res => ({
  write: (piece, done) => res.write(piece, done),
  end: (piece, done) => res.end(piece, done),
  // node:http2's compatibility response has no `destroyed`; its stream has.
  closed: () => Boolean(res.destroyed || res.writableEnded || (res.stream && res.stream.destroyed))
})

// The entry's recorded status, headers (repeated ones as a list, Set-Cookie above all) and body; with a
// scheduler's `ticket`, the headers at once and the body when the ticket's turn comes. `clock`: { shift (the
// dates moved to now), startedMs (the replay's start) }. Where the request's conditions hold against the recorded
// validators, a 304 with the headers it must carry and no body instead. → 'etag' | 'date' (a 304, and why) | null.
function answer (req, res, entry, { ticket = null, clock = { shift: true, startedMs: Date.now() } } = {}) {
  if (res.destroyed || res.writableEnded) return null
  const response = entry.response
  const at = now => clock.shift ? shiftedHeaders(response.headers, { startedMs: entry.startedMs, now }).headers : response.headers
  const served = at(Date.now())
  // Last-Modified moves with every answer's Date: the representation's own is the one the replay first gave (at
  // its start), the earliest a browser can send back in If-Modified-Since.
  const how = notModified({
    method: req.method, request: req.headers, response: { status: response.status, headers: served }, lastModifiedMs: lastModifiedOf(at(clock.startedMs))
  })
  const status = how ? 304 : response.status
  res.sendDate = false // no Date the recording did not have
  const headers = {}
  for (const [name, value] of how ? notModifiedHeaders(served) : served) {
    const key = Object.keys(headers).find(k => k.toLowerCase() === name.toLowerCase()) || name
    headers[key] = key in headers ? [].concat(headers[key], value) : value
  }
  for (const [name, value] of Object.entries(headers)) {
    try {
      res.setHeader(name, value)
    } catch {
      // a name or value this protocol's server refuses: left out
    }
  }
  if (status >= 200 && ![204, 205, 304].includes(status)) res.setHeader('content-length', response.body.length)
  // HTTP/2 has no reason phrase (node:http2 warns when given one).
  const reason = how ? 'Not Modified' : response.statusText
  if (req.httpVersionMajor === 1 && reason) res.writeHead(status, reason)
  else res.writeHead(status)
  const body = req.method === 'HEAD' || how ? null : response.body
  if (!ticket) {
    res.end(body || undefined)
    return how
  }
  if (typeof res.flushHeaders === 'function') res.flushHeaders() // HTTP/1.1 holds the head until the first write
  ticket.send(body, writerOf(res))
  return how
}

module.exports = { createReplayApp }

'use strict'

// The one request handler of a replay, a plain (req, res) for node:https,
// node:http2's compatibility API, spdy and the edge's upstream alike: it
// finds the recorded entry for the request's origin (its :authority or Host)
// and path (server/replay/match.js), waits the entry's recorded server time,
// and answers its status, headers and body as recorded. A request nothing
// was recorded for gets a 404 with a short text, and is counted per origin
// and remembered, so a report can name what the page asked that the
// recording lacks: misses() and served().
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

const MISSES_KEPT = 1000 // the (method, url) pairs remembered; the counts go on
const PRIORITIES_KEPT = 100 // distinct Priority header values counted; later ones count as '(other)'

// `resolveOrigin(authority)`: the recorded origin of a request's
// :authority/Host as the replay serves it (server/replay/serve.js maps a
// moved port back); by default 'https://' + authority, port 443 dropped.
// `schedule`: null (the protocol server's own scheduling) | 'fifo' | 'rfc9218'; `earlyHints`: send 103s;
// `clientHeader`: the request header naming the client's connection (the edge's upstream), else none.
function createReplayApp (archive, { resolveOrigin = defaultOrigin, schedule = null, earlyHints = false, clientHeader = null } = {}) {
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
    const timer = setTimeout(() => answer(req, res, entry.response, ticket), entry.serverTimeMs)
    res.on('close', () => { // the client went away while we waited (or the answer is complete)
      clearTimeout(timer)
      if (ticket) ticket.cancel()
    })
  }

  app.served = () => ({ total: sum(servedBy), fuzzy, byOrigin: Object.fromEntries(servedBy) })
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

// The recorded status, headers (repeated ones as a list, Set-Cookie above all) and body; with a scheduler's
// `ticket`, the headers at once and the body when the ticket's turn comes.
function answer (req, res, response, ticket = null) {
  if (res.destroyed || res.writableEnded) return
  res.sendDate = false // no Date the recording did not have
  const headers = {}
  for (const [name, value] of response.headers) {
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
  if (response.status >= 200 && ![204, 205, 304].includes(response.status)) res.setHeader('content-length', response.body.length)
  // HTTP/2 has no reason phrase (node:http2 warns when given one).
  if (req.httpVersionMajor === 1 && response.statusText) res.writeHead(response.status, response.statusText)
  else res.writeHead(response.status)
  if (!ticket) return res.end(req.method === 'HEAD' ? undefined : response.body)
  if (typeof res.flushHeaders === 'function') res.flushHeaders() // HTTP/1.1 holds the head until the first write
  ticket.send(req.method === 'HEAD' ? null : response.body, writerOf(res))
}

module.exports = { createReplayApp }

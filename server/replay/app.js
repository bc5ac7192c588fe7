'use strict'

// The one request handler of a replay, a plain (req, res) for node:https,
// node:http2's compatibility API, spdy and the edge's upstream alike: it
// finds the recorded entry for the request's origin (its :authority or Host)
// and path (server/replay/match.js), waits the entry's recorded server time,
// and answers its status, headers and body as recorded. A request nothing
// was recorded for gets a 404 with a short text, and is counted per origin
// and remembered, so a report can name what the page asked that the
// recording lacks: misses() and served().
const { createMatcher } = require('./match')

const MISSES_KEPT = 1000 // the (method, url) pairs remembered; the counts go on

// `resolveOrigin(authority)`: the recorded origin of a request's
// :authority/Host as the replay serves it (server/replay/serve.js maps a
// moved port back); by default 'https://' + authority, port 443 dropped.
function createReplayApp (archive, { resolveOrigin = defaultOrigin } = {}) {
  const matcher = createMatcher(archive)
  const servedBy = new Map()
  const missedBy = new Map()
  const missed = []
  let fuzzy = 0
  const count = (map, origin) => map.set(origin, (map.get(origin) || 0) + 1)

  function app (req, res) {
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
    const timer = setTimeout(() => answer(req, res, entry.response), entry.serverTimeMs)
    res.on('close', () => clearTimeout(timer)) // the client went away while we waited
  }

  app.served = () => ({ total: sum(servedBy), fuzzy, byOrigin: Object.fromEntries(servedBy) })
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

// The recorded status, headers (repeated ones as a list, Set-Cookie above all) and body.
function answer (req, res, response) {
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
  res.end(req.method === 'HEAD' ? undefined : response.body)
}

module.exports = { createReplayApp }

'use strict'

// The order in which a replay's response bodies leave one client connection,
// for the replay's scheduling variants (server/replay/app.js): the bodies are
// written in chunks through one scheduler per connection, which keeps at most
// one chunk in flight (handed to the protocol's server and not yet taken: its
// write callback) and picks the next chunk by the variant's rule, so the
// protocol server below (nghttp2, spdy, Caddy's upstream) never holds two
// bodies to interleave by a rule of its own.
//   fifo     the bodies one after another in the order their requests
//            arrived: a body starts once the previous one is fully written,
//            and waits for an earlier request whose response is not due yet.
//   rfc9218  by each request's Priority header (RFC 9218 §4, parsePriority
//            below: u=0..7, default 3; i, default false), among the responses
//            due: lowest urgency first; within one urgency the non-incremental
//            ones one at a time in request order, the incremental ones
//            round-robin a chunk each, and where both kinds share an urgency
//            they take turns (as quic-go's framer does).
// Pure: no timers but `defer` (setImmediate by default, so responses that
// become due in one turn of the event loop compete for the first chunk), no
// I/O but the writers given. A connection is any key (an HTTP/2 session, a
// socket, the h3 client's "address:port" string); its state is dropped when
// its queue empties.

const RULES = ['fifo', 'rfc9218']
const CHUNK = 16 * 1024
const DEFAULT_URGENCY = 3

// A Structured Field (RFC 8941) dictionary member's bare item, enough for u and i: an integer, a boolean (?0/?1),
// a token or a string (kept, never used), or undefined when the text is no item at all.
function bareItem (text) {
  if (/^-?\d{1,15}$/.test(text)) return Number(text)
  if (text === '?0' || text === '?1') return text === '?1'
  if (/^[A-Za-z*][\w:/!#$%&'*+\-.^`|~]*$/.test(text)) return { token: text }
  if (/^"(?:[^"\\]|\\["\\])*"$/.test(text)) return { string: text.slice(1, -1) }
  if (/^-?\d{1,12}\.\d{1,3}$/.test(text)) return Number(text)
  return undefined
}

// The members of an RFC 8941 dictionary (commas inside strings kept), or null when it does not parse.
function dictionary (value) {
  const members = []
  let current = ''
  let quoted = false
  for (let i = 0; i < value.length; i++) {
    const c = value[i]
    if (quoted && c === '\\') { current += c + (value[++i] || ''); continue }
    if (c === '"') quoted = !quoted
    if (c === ',' && !quoted) { members.push(current); current = ''; continue }
    current += c
  }
  if (quoted) return null
  members.push(current)
  const out = new Map()
  for (const raw of members) {
    const member = raw.trim()
    if (!member) return null // an empty member (a trailing comma) makes the whole field invalid
    const [head] = member.split(';') // parameters of a member are allowed and ignored
    const eq = head.indexOf('=')
    const key = (eq < 0 ? head : head.slice(0, eq)).trim()
    if (!/^[a-z*][a-z0-9_\-.*]*$/.test(key)) return null
    const item = eq < 0 ? true : bareItem(head.slice(eq + 1).trim())
    if (item === undefined) return null
    out.set(key, item) // a key repeated: the last wins (RFC 8941 §4.2.2)
  }
  return out
}

// A request's Priority header (string, list of strings or undefined) → { urgency, incremental }. A field that is no
// dictionary gives both defaults; u outside 0..7 or not an integer, or i not a boolean, gives that one's default
// (RFC 9218 §4.1, §4.2).
function parsePriority (header) {
  const value = Array.isArray(header) ? header.join(', ') : header
  const out = { urgency: DEFAULT_URGENCY, incremental: false }
  if (typeof value !== 'string' || !value.trim()) return out
  const dict = dictionary(value)
  if (!dict) return out
  const u = dict.get('u')
  if (Number.isInteger(u) && u >= 0 && u <= 7) out.urgency = u
  const i = dict.get('i')
  if (typeof i === 'boolean') out.incremental = i
  return out
}

// rule 'fifo'|'rfc9218' → { open(connection, priority) → ticket, stats() }.
// ticket.send(body, writer): the response is due, its headers written; writer { write(piece, done), end(piece, done),
// closed() } (a response's write and end with their callbacks). ticket.cancel(): the client went away (or the
// response was answered otherwise): the ticket leaves its queue and, if its chunk was in flight, frees the connection.
function createScheduler (rule, { chunk = CHUNK, defer = setImmediate } = {}) {
  if (!RULES.includes(rule)) throw new RangeError(`scheduling rule ${JSON.stringify(rule)} is not one of ${RULES.join(', ')}`)
  const connections = new Map()
  const counts = { connections: 0, responses: 0, chunks: 0, cancelled: 0, maxQueued: 0 }
  let seq = 0

  function stateOf (key) {
    let c = connections.get(key)
    if (!c) {
      c = { key, queue: [], inFlight: null, pumpQueued: false, lastIncremental: new Map(), lastIncrementalSeq: new Map() }
      connections.set(key, c)
      counts.connections++
    }
    return c
  }

  function leave (c, t) {
    const at = c.queue.indexOf(t)
    if (at >= 0) c.queue.splice(at, 1)
    if (c.inFlight === t) c.inFlight = null
    if (!c.queue.length && !c.inFlight) connections.delete(c.key)
    else schedulePump(c)
  }

  // The ticket whose chunk goes next, or null (nothing due, or fifo's next not due yet).
  function pick (c) {
    if (rule === 'fifo') return c.queue[0] && c.queue[0].writer ? c.queue[0] : null
    let best = null
    for (const t of c.queue) if (t.writer && (!best || t.urgency < best.urgency)) best = t
    if (!best) return null
    const u = best.urgency
    const due = c.queue.filter(t => t.writer && t.urgency === u)
    const sequential = due.filter(t => !t.incremental)
    const incremental = due.filter(t => t.incremental)
    if (incremental.length && (!sequential.length || !c.lastIncremental.get(u))) {
      const last = c.lastIncrementalSeq.get(u)
      const next = incremental.find(t => last === undefined || t.seq > last) || incremental[0]
      c.lastIncremental.set(u, true)
      c.lastIncrementalSeq.set(u, next.seq)
      return next
    }
    c.lastIncremental.set(u, false)
    return sequential[0]
  }

  function schedulePump (c) {
    if (c.pumpQueued || c.inFlight) return
    c.pumpQueued = true
    defer(() => { c.pumpQueued = false; pump(c) })
  }

  function pump (c) {
    while (!c.inFlight) {
      const t = pick(c)
      if (!t) return
      if (t.writer.closed()) { t.cancel(); continue }
      const piece = t.body.subarray(t.offset, Math.min(t.offset + chunk, t.body.length))
      t.offset += piece.length
      const last = t.offset >= t.body.length
      c.inFlight = t
      counts.chunks++
      let called = false
      const done = () => {
        if (called || c.inFlight !== t) return // cancelled meanwhile: the connection was freed then
        called = true
        c.inFlight = null
        if (last) { t.finished = true; leave(c, t) } else schedulePump(c)
      }
      if (last) t.writer.end(piece.length ? piece : undefined, done)
      else t.writer.write(piece, done)
      return
    }
  }

  function open (connection, { urgency = DEFAULT_URGENCY, incremental = false } = {}) {
    const c = stateOf(connection)
    const t = {
      seq: seq++,
      urgency,
      incremental,
      body: null,
      offset: 0,
      writer: null,
      finished: false,
      cancelled: false,
      send (body, writer) {
        if (t.cancelled || t.writer) return
        t.body = body || Buffer.alloc(0)
        t.writer = writer
        counts.responses++
        schedulePump(c)
      },
      cancel () {
        if (t.cancelled || t.finished) return
        t.cancelled = true
        counts.cancelled++
        leave(c, t)
      }
    }
    c.queue.push(t)
    if (c.queue.length > counts.maxQueued) counts.maxQueued = c.queue.length
    return t
  }

  return {
    rule,
    open,
    // { connections: seen, responses: bodies sent through it, chunks, cancelled, maxQueued: most on one connection, open: connections with a queue now }
    stats: () => ({ ...counts, open: connections.size })
  }
}

module.exports = { createScheduler, parsePriority, RULES, CHUNK, DEFAULT_URGENCY }

'use strict'

// How every lane hands a response body (always a view of the shared
// payload block, or a small rendered page) to its server.

const CHUNK = 256 * 1024

// The body in CHUNK-sized views, each written only when the previous one has
// drained. A single res.end(16 MiB) on a TLS socket encrypts all of it at
// once, so 200 such responses held 3.2 GiB; paced, each holds about a chunk.
// The bytes on the wire are the same (Content-Length is set by the route).
// With a `budget` (see connectionBudget), every chunk also waits for room in
// the budget of the connection it goes out on.
function sendPaced (res, body, { budget = null, chunk = CHUNK } = {}) {
  if (budget) return sendBudgeted(res, body, budget, chunk)
  if (body.length <= chunk) return res.end(body)
  let offset = 0
  const stop = () => res.off('drain', pump)
  function pump () {
    while (offset < body.length) {
      const piece = body.subarray(offset, Math.min(offset + chunk, body.length))
      offset += piece.length
      if (offset === body.length) {
        stop()
        res.off('close', stop)
        res.end(piece)
        return
      }
      if (!res.write(piece)) return // 'drain' calls pump again
    }
  }
  res.on('drain', pump)
  res.once('close', stop)
  pump()
}

// One chunk of the body at a time, each taken from the connection's budget
// before it is written and given back once the server has taken it (its
// write callback; the end of the response for the last one; or the
// response closing early, e.g. reset by the client).
function sendBudgeted (res, body, budget, chunk) {
  let offset = 0
  // node:http2's compatibility response has no `destroyed`; its stream has.
  const closed = () => res.destroyed || res.writableEnded || Boolean(res.stream && res.stream.destroyed)
  function next () {
    if (closed()) return
    const piece = body.subarray(offset, Math.min(offset + chunk, body.length))
    offset += piece.length
    const last = offset === body.length
    budget.take(piece.length, give => {
      if (closed()) return give()
      res.once('close', give)
      if (last) return res.end(piece, give)
      res.write(piece, err => {
        res.off('close', give)
        give()
        if (!err) next()
      })
    })
  }
  next()
}

// A connection's send budget: the body bytes handed to it and not yet taken
// by its protocol stack stay at most `limit`, however many streams write at
// once. A take that fits goes at once; otherwise it waits, first come first
// served, until enough was given back. A take larger than the limit goes
// when nothing else is outstanding. `give` is the callback's argument and
// counts once however often it is called.
class SendBudget {
  constructor (limit) {
    this.limit = limit
    this.outstanding = 0
    this.waiting = []
    this.peak = 0
  }

  take (bytes, go) {
    if (this.waiting.length === 0 && this.fits(bytes)) return this.grant(bytes, go)
    this.waiting.push({ bytes, go })
  }

  fits (bytes) {
    return this.outstanding === 0 || this.outstanding + bytes <= this.limit
  }

  grant (bytes, go) {
    this.outstanding += bytes
    if (this.outstanding > this.peak) this.peak = this.outstanding
    let given = false
    go(() => {
      if (given) return
      given = true
      this.outstanding -= bytes
      this.release()
    })
  }

  release () {
    while (this.waiting.length > 0 && this.fits(this.waiting[0].bytes)) {
      const { bytes, go } = this.waiting.shift()
      this.grant(bytes, go)
    }
  }
}

// The budget of `connection` (any object that lives as long as the
// connection: a node:http2 session), made on first use.
const budgets = new WeakMap()
function connectionBudget (connection, limit) {
  let budget = budgets.get(connection)
  if (!budget) budgets.set(connection, budget = new SendBudget(limit))
  return budget
}

module.exports = { sendPaced, connectionBudget, SendBudget, CHUNK }

'use strict'

const http2 = require('node:http2')
const { expressOnHttp2 } = require('../compat/express-on-http2')
const { sendPaced, connectionBudget } = require('../send-body')

// What one session may have handed to nghttp2 and not yet sent. nghttp2
// counts such data against the session's maxSessionMemory (default 10 MB)
// and refuses every new stream with RST_STREAM ENHANCE_YOUR_CALM while it is
// over; paced 256 KiB per stream, Chromium's 256 concurrent streams queued
// up to 64 MiB and lost up to 60 % of a heavy batch (a heavy batch in Chromium).
const SESSION_BUDGET = 4 * 1024 * 1024
const SESSION_CHUNK = 64 * 1024

// A request body no route takes (none does) is held back while the route
// runs: the app never reads it, so node:http2 opens no stream window beyond
// the first 65,535 bytes (nghttp2's default). Once the response is complete,
// node:http2 resets such a request with RST_STREAM NO_ERROR ("stop sending, no
// error", RFC 9113 §8.1; Http2Stream kMaybeDestroy, after the END_STREAM),
// but never when the response has no body, a HEAD's, a 204's or a 304's: the
// compatibility API asks for trailers on every response (waitForTrailers), a
// response whose headers end the stream is never asked for them, and the
// stream's has-trailers flag keeps kMaybeDestroy from closing it (measured on
// Node 20 and 26). The request then stayed open with its unread 64 KiB in the
// window, the client's upload stalled for good, and the stream held its slot
// (issue 34's fuzz: HEAD with a 500 KB body). And where node:http2 did reset
// the request, Node's own http2 client (20 to 24) at times left that stream
// open for good, answered, its queued body neither sent nor failed (the fuzz:
// 2 to 26 of 472 streams). So here, once the app answers (its headers):
//  - with a body: the rest of the request's body is read and dropped, as h1
//    (Node's HTTP/1.1 server, IncomingMessage _dump) and h2 (spdy fix 11) do,
//    and the stream ends when the client's side does; past DISCARD_LIMIT it is
//    reset with NO_ERROR;
//  - without one: reset with NO_ERROR, as node:http2 does for the others.
//    (Reading on did not work there: a HEAD stream whose body had filled its
//    window during the route's delay took 16 KiB more and then no window.)
// Either reset waits for the answer's END_STREAM to be out (the stream
// half-closed on our side), so that no response is cut short.
const DISCARD_LIMIT = 16 * 1024 * 1024
const { NGHTTP2_NO_ERROR, NGHTTP2_STREAM_STATE_OPEN, NGHTTP2_STREAM_STATE_HALF_CLOSED_LOCAL } = http2.constants
const BODILESS = new Set([204, 205, 304])
function endUnreadRequest (stream) {
  const respond = stream.respond
  stream.respond = function (headers, options) {
    const out = respond.call(this, headers, options)
    // Most requests have no body at all (their HEADERS ended the stream).
    if (this.endAfterHeaders || this.readableEnded || this.destroyed) return out
    if (this.headRequest || (options && options.endStream) || BODILESS.has(Number(headers && headers[':status']))) {
      resetWhenAnswered(this)
    } else {
      let dropped = 0
      this.on('data', chunk => {
        dropped += chunk.length
        if (dropped > DISCARD_LIMIT && dropped - chunk.length <= DISCARD_LIMIT) resetWhenAnswered(this)
      })
      this.resume()
    }
    return out
  }
}
// A turn at a time until nghttp2 has sent the answer's END_STREAM (a few turns at most).
function resetWhenAnswered (stream, turns = 100) {
  setImmediate(() => {
    if (stream.destroyed || stream.closed) return
    const state = stream.state.state
    if (state === NGHTTP2_STREAM_STATE_HALF_CLOSED_LOCAL) return stream.close(NGHTTP2_NO_ERROR)
    if (state === NGHTTP2_STREAM_STATE_OPEN && turns > 1) resetWhenAnswered(stream, turns - 1)
  })
}

function sendBody (res, body) {
  const stream = res.stream || res // a pushed stream is written directly
  // A stream closed meanwhile has no session: nothing will be sent anyway.
  if (!stream.session) return res.end()
  sendPaced(res, body, { budget: connectionBudget(stream.session, SESSION_BUDGET), chunk: SESSION_CHUNK })
}

// Lane h2n: Node's own nghttp2-based node:http2, ALPN h2 only, serving the
// same Express app, so protocol and implementation can be told apart.
module.exports = {
  name: 'h2n',
  label: 'HTTP/2 (node:http2)',
  protocol: 'h2',
  defaultPort: 3003,
  earlyHints: true, // res.writeEarlyHints sends :status 103 (Node >= 18.11)
  createServer (app, tls) {
    const server = http2.createSecureServer({ ...tls, allowHTTP1: false, ALPNProtocols: ['h2'] }, expressOnHttp2(app))
    // A client that did not negotiate h2: close at once (no HTTP/1.1 fallback).
    server.on('unknownProtocol', socket => socket.destroy())
    // Before the app's own listener, which may answer at once.
    server.prependListener('stream', endUnreadRequest)
    return server
  },
  sendBody,
  pushSupport (req) {
    if (!req.stream) return 'unsupported'
    return req.stream.pushAllowed ? 'enabled' : 'refused'
  },
  push (req, res, { path, headers, body }, onError) {
    req.stream.pushStream({ ':path': path }, (err, stream) => {
      if (err) return onError(err)
      stream.on('error', onError)
      stream.respond({ ':status': 200, ...headers })
      sendBody(stream, body)
    })
  }
}

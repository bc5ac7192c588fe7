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

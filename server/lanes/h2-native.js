'use strict'

const http2 = require('node:http2')
const { expressOnHttp2 } = require('../compat/express-on-http2')
const { sendPaced } = require('../send-body')

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
  sendBody: sendPaced,
  pushSupport (req) {
    if (!req.stream) return 'unsupported'
    return req.stream.pushAllowed ? 'enabled' : 'refused'
  },
  push (req, res, { path, headers, body }, onError) {
    req.stream.pushStream({ ':path': path }, (err, stream) => {
      if (err) return onError(err)
      stream.on('error', onError)
      stream.respond({ ':status': 200, ...headers })
      stream.end(body)
    })
  }
}

'use strict'

const spdy = require('../compat/spdy')
const { sendPaced } = require('../send-body')

// Lane h2: the `spdy` package, ALPN offering only h2, so a client that cannot
// speak h2 fails the handshake instead of silently getting HTTP/1.1.
module.exports = {
  name: 'h2',
  label: 'HTTP/2 (spdy)',
  protocol: 'h2',
  defaultPort: 3002,
  createServer (app, tls) {
    const server = spdy.createServer({ ...tls, spdy: { protocols: ['h2'], plain: false, ssl: true, connection: spdy.connectionOptions } }, app)
    // Node's HTTP/1.1 request timeouts (headersTimeout 60 s, requestTimeout
    // 300 s, checked every 30 s since Node 18) see each spdy stream as an
    // HTTP/1.1 request that never finished arriving, and reset it with
    // RST_STREAM CANCEL: every response still running after 60-90 s failed
    // in Chromium with ERR_HTTP2_PROTOCOL_ERROR (128 x 64 MiB: 33 of 128;
    // Chromium's net-log: "Server reset stream", code 8 CANCEL). Here they
    // only ever see spdy's per-stream sockets (this lane refuses anything but
    // h2), so they are off. node-spdy#392 (open) asks how to set them. (Since
    // server/compat/spdy-request.js no stream reaches Node's HTTP/1.1 server
    // as a connection any more; they stay off all the same.)
    server.headersTimeout = 0
    server.requestTimeout = 0
    // spdy hands a TLS connection that negotiated no ALPN at all to its
    // plain HTTP/1.1 handler: close it instead, so this lane never measures
    // HTTP/1.1 while claiming h2. spdy's own listener is wrapped, not raced.
    const [spdyOnConnection] = server.listeners('secureConnection')
    server.removeListener('secureConnection', spdyOnConnection)
    server.on('secureConnection', socket => {
      if (socket.alpnProtocol !== 'h2') return socket.destroy()
      spdyOnConnection.call(server, socket)
    })
    return server
  },
  sendBody: sendPaced,
  // The client's SETTINGS_ENABLE_PUSH, known once its SETTINGS frame arrived
  // (always before its first request).
  pushSupport (req) {
    if (!req.isSpdy) return 'unsupported'
    return req.spdyStream.connection._spdyState.framer.pushEnabled === false ? 'refused' : 'enabled'
  },
  // A refused or reset push emits 'error' on the push stream; unhandled, that
  // kills the process, so every push stream gets a listener.
  push (req, res, { path, headers, body }, onError) {
    const stream = res.push(path, { request: { accept: '*/*' }, response: headers })
    stream.on('error', onError)
    stream.end(body)
  }
}

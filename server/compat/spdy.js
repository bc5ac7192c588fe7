'use strict'

// Loads `spdy` 4.0.2 (last release April 2020) and makes it work on every Node
// this project supports, at node:http2's speed. Every fix of spdy (node-spdy)
// and its helpers lives here, cites its upstream issue and has a test that
// fails without it, in test/server/integration/: spdy-compat.test.js;
// abuse.test.js for the limits on abusive clients (9); request-bodies.test.js
// for requests the app does not take (12, 13). spdy's transport,
// spdy-transport 3.0.0, is a patched copy of its own, vendor/spdy-transport
// (package.json overrides it), with the fixes that were 5-8, 10 and 11 here
// and its speed-ups: see vendor/spdy-transport/H2BENCH.md. A stream reaches
// the app without node-spdy's per-stream socket (15, ./spdy-request.js), so
// handle-thing's writes (fixes 2 and 3, now gone) are no longer on the path.

// 1. `No such module: http_parser` on Node >= 24 (node-spdy#403,
//    http-deceiver#10). spdy's dependency http-deceiver reads the HTTP parser
//    through process.binding('http_parser'), which Node 24 removed. The same
//    parser class is exported by Node's `_http_common` module on every
//    supported version, so that one binding is answered from there, only
//    while spdy loads (http-deceiver reads it once, at load).
function withHttpParserBinding (load) {
  const binding = process.binding
  const { HTTPParser, methods } = require('node:_http_common')
  process.binding = function (name) {
    if (name === 'http_parser') return { HTTPParser, methods }
    return binding.apply(this, arguments)
  }
  try {
    return load()
  } finally {
    process.binding = binding
  }
}

const spdy = withHttpParserBinding(() => require('spdy'))

// 2. (Node 26: empty bodies, handle-thing's writeEnc) and 3. (every other
//    piece of a body dropped, handle-thing's writev, node-spdy#380): fixed
//    here until 15 took handle-thing off the lane's path; the tests stay
//    (spdy-compat, "bodies").

// 4. DEP0066 warning on every response ("OutgoingMessage.prototype._headers
//    is deprecated", node-spdy#366, open; PR #367 never merged): spdy's
//    writeHead reads res._headers to learn whether headers were set with
//    setHeader(). Here writeHead is spdy's without that read: headers set with
//    setHeader() and those passed to writeHead are rendered together, as
//    Node's own writeHead does. (The first form of this fix lent each
//    response a `_headers` getter and deleted it again around spdy's
//    writeHead: two map changes per response, and 5 % of the lane's CPU at
//    100 B with spdy's writeHead.)
//    Two of spdy's stores are left out where they change nothing, as each
//    store to a response is slow: Express gives every response a map of its
//    own (setPrototypeOf), and a first store of another value rewrites it
//    (these two lines were 3 % of the lane's CPU at 100 B). spdy set
//    statusMessage to 'unknown' when none was given; HTTP/2 has no reason
//    phrase, so it stays unset.
spdy.response.writeHead = function writeHead (statusCode, reason, obj) {
  if (typeof reason === 'string') {
    // writeHead(statusCode, reasonPhrase[, headers])
    this.statusMessage = reason
  } else {
    // writeHead(statusCode[, headers])
    obj = reason
  }
  if (this.statusCode !== statusCode) this.statusCode = statusCode
  if (obj) {
    for (const k of Object.keys(obj)) {
      if (k) this.setHeader(k, obj[k])
    }
  }
  const headers = this._renderHeaders()

  // RFC 9110 15.2, 15.3.5, 15.4.5: 1xx, 204 and 304 responses have no content.
  if (statusCode === 204 || statusCode === 304 || (statusCode >= 100 && statusCode <= 199)) this._hasBody = false

  // don't keep alive connections where the client expects 100 Continue
  // but we sent a final status; they may put extra bytes on the wire.
  if (this._expect_continue && !this._sent100) this.shouldKeepAlive = false

  // Implicit headers sent!
  this._header = true
  this._headerSent = true

  this.spdyStream.respond(this.statusCode, headers)
}

// 5. (WINDOW_UPDATE for a finished stream answered with RST_STREAM,
//    spdy-transport PR #40): fixed in vendor/spdy-transport, connection.js.
// 6. (Throughput and memory of response bodies, once ./spdy-send.js): in
//    vendor/spdy-transport (zero-copy DATA frames, one socket write per
//    turn, stream writes that wait for the socket); the sizes are below
//    (connectionOptions).

// 7. (A protocol error's GOAWAY) and 8. (the CONTINUATION flood): in
//    vendor/spdy-transport, connection.js _onParserError and
//    protocol/http2/parser.js.
// 9. HTTP/2 rapid reset (CVE-2023-44487): a client that opens streams and
//    resets them at once makes the server run a request for each.
//    a. The connection (vendor/spdy-transport, connection.js) sends GOAWAY
//       ENHANCE_YOUR_CALM after 1,000 RST_STREAMs (refilled at 33 a second),
//       as nghttp2 1.57.0 does.
//    b. With (a) alone the app still ran 1,000+ requests per attack, all of
//       one socket read's streams in one go (about 600 per 64 KiB read), so
//       the other connection's request still waited up to 4.8 s on a busy
//       machine. A new stream now reaches the app a turn later
//       (setImmediate), after the rest of the read was parsed: a stream the
//       client reset meanwhile never runs (3 of 1,000 did). Requests run in
//       the order they came; h2load measured no loss (100 B and 1 MiB).
//       Until then a stream's 'error' (a reset with a code other than
//       CANCEL) has a listener, as the request's socket gives it later.
//    (The request itself is made by 15, below.)
spdy.Server.prototype._onStream = function _onStream (stream) {
  const ignore = () => {}
  stream.on('error', ignore)
  setImmediate(() => {
    stream.off('error', ignore)
    if (stream._spdyState.aborted) return
    request(this, stream)
  })
}

// 10. (A lingering close for a client's graceful close) and 11. (an unread
//     request body dropped once answered): in vendor/spdy-transport,
//     connection.js _onStreamDrain and stream.js discardRequestBody(), which
//     ./spdy-request.js calls when the app did not read the request.

// 12. A request body nobody reads could hold 1 MiB per stream: spdy-transport
//     grants each stream a window of its `windowSize` (1 MiB by default) and
//     reopens it only as the stream is read, while the connection's window is
//     reopened as data arrives. 200 streams sending 1 MiB each to a delayed
//     route (/api/items/1?delay=3000) raised the server's memory by 236 MiB;
//     h2n, whose node:http2 keeps nghttp2's 65,535-byte stream window, by 20
//     MiB. No route takes a request body, so the window a client may fill is
//     nghttp2's default here too: 64 KiB per stream (and for the connection,
//     which spdy-transport sizes from the same option). It governs only what
//     clients send; what the lane sends is paced by the client's windows.
//     Test: test/server/integration/request-bodies.test.js.
const REQUEST_WINDOW = 65535

// 13. A HEAD request's response carried a body: spdy's response.end writes its
//     last chunk straight to the stream's socket, past Node's check that a
//     response to HEAD (or a 204, 304) has none (OutgoingMessage _hasBody;
//     res.write calls were already dropped by it). GET /option?size=100 as
//     HEAD went out as HEADERS (content-length: 100) and 100 bytes of DATA,
//     which nghttp2 takes for a malformed response: Node's client reset the
//     stream with PROTOCOL_ERROR (RFC 9110 §9.3.2: a HEAD response has no
//     content; issue 34's fuzz). Not reported upstream (node-spdy; November
//     2026). Test: test/server/integration/request-bodies.test.js. Fixed by
//     14, whose end() is Node's own, which drops such a chunk as it drops
//     res.write()'s.
// 14. A response never emitted 'finish' (node-spdy#327, "close event is
//     called before finish", open since 2017), and each request was aborted
//     with an ECONNRESET error once answered. spdy's response.end ended the
//     stream's socket first and called Node's end() only when that was done,
//     when the socket no longer took writes, so Node's 'finish' never came
//     and the HTTP server never saw the response done; the socket's close
//     then "aborted" the request still on its list (abortIncoming: an
//     ECONNRESET error with its stack trace per request, 6 % of the lane's
//     CPU at 100 B). Here end() is Node's own: the last chunk is written,
//     'finish' follows, and the stream's side ends then (./spdy-request.js
//     onFinish, as Node's HTTP server ends a socket after its last response).
//     Not otherwise reported upstream. Test: spdy-compat, "a response emits
//     'finish'".
const { OutgoingMessage } = require('node:http')
spdy.response.end = function end (data, encoding, callback) {
  if (!this._headerSent) this.writeHead(this.statusCode)
  return OutgoingMessage.prototype.end.call(this, data, encoding, callback)
}

// spdy's writeContinue, on the stream (it looked the stream up through the
// socket's handle, which 15 no longer makes).
spdy.response.writeContinue = function writeContinue (callback) {
  this._sent100 = true
  this.spdyStream.respond(100, {}, callback)
}

// 15. A stream becomes the app's request and response without node-spdy's
//     per-stream net.Socket, handle-thing handle, HTTP/1.1 server and
//     http-deceiver: ./spdy-request.js says why and how. Tests: spdy-compat,
//     "requests and responses", and every lane test.
const { createRequestPath } = require('./spdy-request')
const { transportFile } = require('./spdy-transport')
const request = createRequestPath(spdy, transportFile('stream').Stream)

// Connection options every spdy server of this project uses.
// Body bytes handed to the framer per step (it cuts them into frames of the
// client's maximum frame size; upstream: 8 KiB, one event-loop turn each),
// and what the connection's framer and socket may hold before a stream's
// write goes on (vendor/spdy-transport, stream.js _write): bench:server
// measured 2 and 8 MiB and 256 KiB steps no faster.
const MAX_CHUNK = 64 * 1024
const MAX_QUEUED = 512 * 1024
spdy.connectionOptions = { maxChunk: MAX_CHUNK, maxQueued: MAX_QUEUED, windowSize: REQUEST_WINDOW }

module.exports = spdy

'use strict'

// Loads `spdy` 4.0.2 (last release April 2020) and makes it work on every Node
// this project supports. Every fix lives here, cites its upstream issue and
// has a test that fails without it, in test/server/integration/:
// spdy-compat.test.js; abuse.test.js for the limits on abusive clients (7-9);
// request-bodies.test.js for requests the app does not take (11-13).

const path = require('node:path')

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
const { transportFile } = require('./spdy-transport')

// spdy's streams reach Node's http server through handle-thing, a fake
// libuv stream handle (spdy-http2/handle-thing 2.0.1, also unmaintained).
// Node's net.Socket calls its write methods with Node's internal protocol.
const Handle = require(require.resolve('handle-thing', { paths: [path.dirname(require.resolve('spdy'))] }))
// (handle-thing is declared in package.json at the version this patch targets; resolved from spdy's folder so the
// patch reaches the copy spdy loads)
const streamWrap = process.binding('stream_wrap')

// Starts one write (or writev) on the handle and reports its completion the
// way the calling Node expects:
//  - Node <= 25 passes a WriteWrap `req`, reads req.async/req.bytes and waits
//    for req.oncomplete(status, handle, req);
//  - Node >= 26 passes `req` = null and expects a number (done already) or a
//    request object whose `oncomplete` it attaches after the call returns;
//    completion before that is left in `writeStatus`. It also reads the
//    last-write error and byte count from the shared stream state.
// 2. Node 26 sent every spdy response with an empty body and threw
//    "Cannot set properties of null (setting 'async')" in handle-thing's
//    _writeEnc, which assumed the first form. Not reported upstream (no
//    node-spdy or handle-thing issue found, November 2026); node-spdy#350 is
//    the same kind of break, when Node 11 changed how handles are read.
function dispatchWrite (handle, req, bytes, write) {
  const modern = req === null
  if (modern) req = { writeStatus: null, oncomplete (status) { this.writeStatus = status } }
  req.async = true
  req.bytes = bytes
  const wrap = handle._queueReq('write', req)
  const start = () => {
    if (wrap.isEmpty()) return // the handle closed first; close() cancelled it
    write(() => {
      const pending = wrap.dequeue()
      if (pending) pending.oncomplete(0, handle, pending)
    })
  }
  if (handle._stream) start()
  else handle.once('stream', start)
  if (!modern) return 0
  streamWrap.streamBaseState[streamWrap.kLastWriteErr] = 0
  streamWrap.streamBaseState[streamWrap.kBytesWritten] = bytes
  return req
}

Handle.prototype.writeEnc = function writeEnc (req, data, enc) {
  const bytes = typeof data === 'string' ? Buffer.byteLength(data, enc || 'utf8') : data.length
  return dispatchWrite(this, req, bytes, done => this._stream.write(data, enc, done))
}

// 3. Bodies written in more than one piece lost every other piece: Node
//    passes writev a plain list of buffers when all chunks are buffers
//    (`allBuffers`) and [chunk, encoding, …] pairs otherwise; handle-thing
//    always read pairs, so it took each second buffer for an encoding and
//    dropped it. The stream then ended short of its Content-Length and the
//    browser reset it with ERR_HTTP2_PROTOCOL_ERROR: this is node-spdy#380
//    ("node-spdy incompatible with node >= v15", open), which bites whenever
//    a response is written with several res.write() calls.
Handle.prototype.writev = function writev (req, chunks, allBuffers) {
  const pieces = []
  if (allBuffers) {
    for (const chunk of chunks) pieces.push([chunk, null])
  } else {
    for (let i = 0; i < chunks.length; i += 2) pieces.push([chunks[i], chunks[i + 1]])
  }
  const bytes = pieces.reduce((n, [chunk, enc]) =>
    n + (typeof chunk === 'string' ? Buffer.byteLength(chunk, enc || 'utf8') : chunk.length), 0)
  return dispatchWrite(this, req, bytes, done => {
    pieces.forEach(([chunk, enc], i) => {
      this._stream.write(chunk, enc, i === pieces.length - 1 ? done : undefined)
    })
  })
}

// 4. DEP0066 warning on every response ("OutgoingMessage.prototype._headers
//    is deprecated", node-spdy#366, open; PR #367 never merged): spdy's
//    writeHead reads res._headers to learn whether headers were set with
//    setHeader(). Same logic with the public API.
const { writeHead } = spdy.response
spdy.response.writeHead = function (statusCode, reason, obj) {
  Object.defineProperty(this, '_headers', {
    configurable: true,
    get: () => this.getHeaderNames().length ? this.getHeaders() : null
  })
  try {
    return writeHead.call(this, statusCode, reason, obj)
  } finally {
    delete this._headers
  }
}

// 5. Streams read to their end, then reset: a client's WINDOW_UPDATE for a
//    stream spdy-transport has already finished (and dropped from its map,
//    its END_STREAM possibly still queued) was answered with RST_STREAM;
//    Node's http2 client then failed 264 of 300 100 KB responses and 18 of
//    20 pushed 290 KB scripts over one session. RFC 7540 6.9: such a
//    WINDOW_UPDATE "MUST NOT" be treated as an error. Ignored here, as
//    spdy-transport PR #40 (open since 2017) does.
const { Connection } = transportFile('connection')
const { _handleFrame } = Connection.prototype
Connection.prototype._handleFrame = function (frame) {
  if (frame.type === 'WINDOW_UPDATE' && frame.id !== 0 && !this._spdyState.stream.map[frame.id]) {
    this._spdyState.debug('id=0 WINDOW_UPDATE for finished stream=%d ignored', frame.id)
    return
  }
  return _handleFrame.call(this, frame)
}

// 6. Throughput and memory of response bodies: see ./spdy-send.js.
const { MAX_CHUNK } = require('./spdy-send')

// Limits on abusive clients. spdy-transport has none of the mitigations
// HTTP/2 servers shipped since 2023 ("TODO(indutny) handle stream limit",
// connection.js); these three make it end such a connection the way
// nghttp2, and so the h2n lane, does. Tests: test/server/integration/abuse.test.js.
const { ProtocolError } = transportFile('protocol/base/utils')
const h2constants = transportFile('protocol/http2/constants')
const Parser = Object.getPrototypeOf(transportFile('protocol/http2/parser').create({ isServer: true })).constructor

// How long a connection closed for a protocol error may take to flush its
// GOAWAY before its socket is destroyed (a client that reads nothing would
// otherwise hold it open).
const GOAWAY_GRACE = 1000

// 7. A connection error's GOAWAY never reached the client, and would have
//    said NO_ERROR. On a protocol error spdy-transport queues a GOAWAY in its
//    framer and emits 'error', which node-spdy's server answers with
//    socket.destroy() at once; and when the framer held frames the socket
//    had not taken yet (spdy-send keeps up to 512 KiB queued), its GOAWAY
//    path unpiped the framer before they, GOAWAY included, were written. The
//    code was also looked up by name with a number (constants.goaway[1] is
//    undefined). So a client that sent a header block too large saw only a
//    closed socket. Here the connection stops reading, the framer's queued
//    frames are dropped (the connection is over), and a GOAWAY naming the
//    error goes out after whatever the socket already holds, then the
//    socket ends; it is destroyed GOAWAY_GRACE later at the latest. No
//    upstream issue found (spdy-transport, node-spdy; November 2026).
//    Test: abuse, "CONTINUATION flood" and "rapid reset" (no GOAWAY seen
//    without this).
Connection.prototype._onParserError = function (err) {
  const state = this._spdyState
  state.parser.kill()
  if (!(err instanceof ProtocolError)) return this.emit('error', err)
  if (this._h2benchClosing) return // frames parsed before the first error
  this._h2benchClosing = true
  const code = typeof err.code === 'number' ? err.code : h2constants.error[err.code]
  const lastId = state.stream.lastId.both
  state.debug('id=0 protocol error %s: %s', h2constants.errorByCode[code], err.message)
  state.goaway = lastId // streams the client opens from now on are ignored
  const socket = this.socket
  state.framer.unpipe(socket)
  state.framer.resume() // its queue goes nowhere
  lingeringClose(socket, GOAWAY_GRACE, goawayFrame(lastId, code, err.message))
}

// Ends our side of `socket` (after `last`, if given) and keeps reading, so
// Node closes it once the client ended its side too; destroyed `graceMs`
// later at the latest.
function lingeringClose (socket, graceMs, last) {
  if (socket.destroyed) return
  const timer = setTimeout(() => socket.destroy(), graceMs)
  timer.unref()
  socket.once('close', () => clearTimeout(timer))
  socket.end(last)
}

function goawayFrame (lastId, code, message) {
  const debug = Buffer.from(message.slice(0, 200))
  const frame = Buffer.alloc(h2constants.FRAME_HEADER_SIZE + 8 + debug.length)
  frame.writeUIntBE(8 + debug.length, 0, 3)
  frame.writeUInt8(h2constants.frameType.GOAWAY, 3)
  frame.writeUInt32BE(lastId & 0x7fffffff, h2constants.FRAME_HEADER_SIZE)
  frame.writeUInt32BE(code, h2constants.FRAME_HEADER_SIZE + 4)
  debug.copy(frame, h2constants.FRAME_HEADER_SIZE + 8)
  return frame
}

// 8. CONTINUATION flood (CVE-2024-28182, fixed in nghttp2 1.61.0 and so in
//    Node's April 2024 security releases, beside CVE-2024-27983, a crash on
//    the same frames; Envoy's was CVE-2024-27919): spdy-transport bounds a
//    header block only by its bytes (80 KiB, queueHeaderBlock), which empty
//    CONTINUATION frames never grow, so a HEADERS without END_HEADERS
//    followed by zero-length CONTINUATIONs held the connection, burning CPU,
//    forever (100,000 frames in half a second, no error). nghttp2 answers
//    the 9th CONTINUATION of a block with GOAWAY (its max_continuations,
//    default 8: envoyproxy/envoy#33513, icing/mod_h2#279); the same limit
//    here, GOAWAY ENHANCE_YOUR_CALM. Eight 16 KiB frames are more than the
//    80 KiB the block may hold anyway. Test: abuse, "CONTINUATION flood".
const MAX_CONTINUATIONS = 8
const { onContinuationFrame } = Parser.prototype
Parser.prototype.onContinuationFrame = function (header, body, callback) {
  const block = this._lastHeaderBlock
  // Every HEADERS starts a new block object, so the count is per block.
  if (block && block.id === header.id && (block.continuations = (block.continuations || 0) + 1) > MAX_CONTINUATIONS) {
    return callback(this.error(h2constants.error.ENHANCE_YOUR_CALM, `more than ${MAX_CONTINUATIONS} CONTINUATION frames in one header block`))
  }
  return onContinuationFrame.call(this, header, body, callback)
}

// 9. HTTP/2 rapid reset (CVE-2023-44487): a client that opens streams and
//    resets them at once makes the server run a request for each. One
//    connection's 20,000 HEADERS + RST_STREAM pairs kept spdy busy for 5 to
//    10 s, the app ran all 20,000 requests, RSS rose up to 157 MiB and a
//    request on another connection waited 1.4 to 2.5 s, with no GOAWAY.
//    Two parts:
//    a. nghttp2 1.57.0 (the CVE fix; nodejs/node#56306 shows it at work)
//       gives a server connection a bucket of 1,000 received RST_STREAMs
//       refilled at 33 a second and sends GOAWAY when it is empty; the same
//       here, GOAWAY ENHANCE_YOUR_CALM. The page keeps at most 1,000
//       requests in flight, so stopping a batch stays within it.
//    b. With (a) alone the app still ran 1,000+ requests per attack, all of
//       one socket read's streams in one go (about 600 per 64 KiB read), so
//       the other connection's request still waited up to 4.8 s on a busy
//       machine. A new stream now reaches the app a turn later
//       (setImmediate), after the rest of the read was parsed: a stream the
//       client reset meanwhile never runs (3 of 1,000 did). Requests run in
//       the order they came; h2load measured no loss (100 B and 1 MiB).
//       Until then a stream's 'error' (a reset with a code other than
//       CANCEL) has a listener, as the request's socket gives it later.
const RESET_BURST = 1000
const RESET_RATE = 33 // per second
const { _handleFrame: handleFrameBeforeResets } = Connection.prototype
Connection.prototype._handleFrame = function (frame) {
  if (this._h2benchClosing) return
  if (frame.type === 'RST' && this._spdyState.isServer && !takeResetToken(this)) {
    return this._onParserError(new ProtocolError(h2constants.error.ENHANCE_YOUR_CALM, `more than ${RESET_BURST} RST_STREAM frames (${RESET_RATE} a second after)`))
  }
  return handleFrameBeforeResets.call(this, frame)
}
function takeResetToken (connection) {
  const now = Date.now()
  const bucket = connection._h2benchResets || (connection._h2benchResets = { tokens: RESET_BURST, at: now })
  bucket.tokens = Math.min(RESET_BURST, bucket.tokens + (now - bucket.at) * RESET_RATE / 1000)
  bucket.at = now
  if (bucket.tokens < 1) return false
  bucket.tokens -= 1
  return true
}
const { _onStream } = spdy.Server.prototype
spdy.Server.prototype._onStream = function (stream) {
  const ignore = () => {}
  stream.on('error', ignore)
  setImmediate(() => {
    stream.off('error', ignore)
    if (stream._spdyState.aborted) return
    _onStream.call(this, stream)
  })
}

// 10. A client's graceful close could leave it waiting forever behind a
//     lossy link. When the last stream is done after a GOAWAY (a client's
//     session.close() sends one, then ends its socket), spdy-transport's
//     _onStreamDrain called socket.destroySoon(): FIN, then the socket
//     destroyed as soon as the FIN was written, with the client's last bytes
//     (its TLS close_notify) unread, so the kernel sent RST after the FIN.
//     When both were lost (30 % loss: about 1 connection in 11) nothing
//     retransmitted them: the client sat in FIN-WAIT-2 with its socket open
//     and Node's http2 client, whose close() waits for the socket to close,
//     never finished (measured: 2 of 10 runs of test/bin/slow/h2bench-link.test.js's
//     client under quic-loss hung; tcpdump showed the lane's FIN and RST
//     0.2 ms apart). Now the connection ends its side and keeps reading until
//     the client's FIN, as nginx's lingering close does (lingering_timeout
//     5 s): the socket closes when both sides ended, LINGER later at the
//     latest. Not reported upstream (spdy-transport, November 2026).
//     Test: spdy-compat, "a client's graceful close".
const LINGER = 5000
Connection.prototype._onStreamDrain = function (error) {
  const state = this._spdyState
  state.debug('id=0 _onStreamDrain (lingering close)')
  state.framer.dump()
  state.framer.unpipe(this.socket)
  state.framer.resume()
  lingeringClose(this.socket, LINGER)
  this.emit('close', error)
}

// 11. A request whose body no route reads held its stream open for good once
//     answered. Node's HTTP server detaches a request's socket when the
//     response is done, so nobody reads that spdy stream again: its window
//     never reopened, the client's upload stalled there, and spdy never reset
//     the stream either. A client waiting for its upload to finish never did,
//     and one that limits its concurrent streams queued its next requests
//     behind such streams (issue 34: a POST of 20 MB to /option got its 404
//     at once, then sat at 1 MiB sent forever; h2n and h2e ended such a
//     stream). Now, as Node's HTTP/1.1 server does with an unread body
//     (IncomingMessage _dump), and h2n (server/lanes/h2-native.js): once the
//     response's END_STREAM has been handed on, the rest of the body is read
//     and dropped, so the stream ends when the client's side does; past
//     DISCARD_LIMIT it is reset with NO_ERROR instead (RFC 9113 §8.1, "stop
//     sending, no error"), which the scheduler puts after that last DATA frame.
//     Resetting every such stream at once (what h2n and Go do) was tried
//     first: Node's http2 client then left 26 of 423 fuzzed streams open for
//     good, answered, their queued bodies neither sent nor failed (a client
//     fault the fuzz now counts apart; reading on spares such clients).
//     Not reported upstream (node-spdy, spdy-transport; November 2026). Test:
//     test/server/integration/request-bodies.test.js.
const DISCARD_LIMIT = 16 * 1024 * 1024
const { Stream } = transportFile('stream')
Stream.prototype._onFinish = function _onFinish () {
  const state = this._spdyState
  if (!state.sent) {
    this.send() // a request of spdy's client: HEADERS with END_STREAM, as before
  } else if (state.corked !== 0) {
    state.corkQueue.push(() => this._onFinish())
    return
  } else {
    state.framer.dataFrame({ id: this.id, priority: state.priority.getPriority(), fin: true, data: Buffer.alloc(0) },
      () => this._h2benchDropUnreadRequest())
  }
  this._maybeClose()
}
Stream.prototype._h2benchDropUnreadRequest = function () {
  const state = this._spdyState
  if (state.aborted || state.request || !state.readable || this._readableState.ended) return
  // The request's socket (handle-thing) is done with the stream, and would
  // pause it again as it can no longer take data.
  this.removeAllListeners('data')
  let dropped = 0
  this.on('data', chunk => {
    dropped += chunk.length
    if (dropped > DISCARD_LIMIT) this.abort('NO_ERROR')
  })
  this.resume()
}

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
//     content; issue 34's fuzz). Such a response's last chunk is dropped here,
//     as Node drops the others. Not reported upstream (node-spdy; November
//     2026). Test: test/server/integration/request-bodies.test.js.
const { end: spdyEnd } = spdy.response
spdy.response.end = function end (data, encoding, callback) {
  if (!this._hasBody && data !== undefined && data !== null && typeof data !== 'function') {
    if (typeof encoding === 'function') return spdyEnd.call(this, encoding)
    return spdyEnd.call(this, null, null, callback)
  }
  return spdyEnd.call(this, data, encoding, callback)
}

// Connection options every spdy server of this project uses.
spdy.connectionOptions = { maxChunk: MAX_CHUNK, windowSize: REQUEST_WINDOW }

module.exports = spdy

'use strict'

// Loads `spdy` 4.0.2 (last release April 2020) and makes it work on every Node
// this project supports. Every fix lives here, cites its upstream issue and
// has a test in test/server/spdy-compat.test.js that fails without it.

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

// spdy's streams reach Node's http server through handle-thing, a fake
// libuv stream handle (spdy-http2/handle-thing 2.0.1, also unmaintained).
// Node's net.Socket calls its write methods with Node's internal protocol.
const Handle = require(require.resolve('handle-thing', { paths: [path.dirname(require.resolve('spdy'))] }))
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
const { Connection } = require(require.resolve('spdy-transport/lib/spdy-transport/connection', { paths: [path.dirname(require.resolve('spdy'))] }))
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

// Connection options every spdy server of this project uses.
spdy.connectionOptions = { maxChunk: MAX_CHUNK }

module.exports = spdy

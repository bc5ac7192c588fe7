'use strict'

// How a spdy stream becomes the app's request and response: the request
// path of node-spdy 4.0.2 (lib/spdy/server.js _onStream), without its fake
// socket. Applied by ./spdy.js (fix 15); test/server/integration/spdy-compat.test.js
// ("requests and responses") checks what the app sees.
//
// node-spdy gave every stream a net.Socket of its own around a fake libuv
// handle (handle-thing), ran Node's HTTP/1.1 server on it (its connection
// listener, a pooled HTTP parser, timers, a dozen listeners) and made that
// parser "parse" a request it never saw (http-deceiver calls the parser's
// callbacks by hand). At 100 B that machinery was most of the lane's CPU: a
// request cost 350 µs of server CPU against node:http2's 190 µs with the same
// app (h2load, 6 streams on one connection), and with the same transport and
// this path instead, about 200 µs (node:http2 does the same:
// Http2ServerRequest and Http2ServerResponse straight on the stream). Here Node's own
// IncomingMessage and ServerResponse are made on the stream, as Node's HTTP
// server makes them (_http_server.js parserOnIncoming), and the stream is
// their socket: the response writes its body to it, its end ends it.
//
// What the app sees is what node-spdy gave it: HTTP/1.1 request objects with
// `isSpdy`, `spdyVersion` and `spdyStream`, the headers with :authority as
// `host`, res.push(), res.writeContinue(), res.addTrailers(); `req.socket` is
// the stream, which answers for the connection's socket (remoteAddress,
// encrypted, alpnProtocol, …). What it also gets now: a response emits
// 'finish' (node-spdy#327; ./spdy.js 14), and no ECONNRESET error is made for
// each request once answered. Node's HTTP/1.1 request timeouts
// (headersTimeout, requestTimeout) no longer see spdy streams at all (they
// reset long responses: server/lanes/h2-spdy.js, node-spdy#392).

const http = require('node:http')
const { EventEmitter } = require('node:events')
const { IncomingMessage, ServerResponse } = http

// The response's "write returned false" flag, as Node's HTTP server reads it
// to pass the socket's 'drain' on (socketOnDrain).
const kNeedDrain = Object.getOwnPropertySymbols(new ServerResponse({ method: 'GET', httpVersionMajor: 1, httpVersionMinor: 1, headers: {} }))
  .find(s => s.description === 'kNeedDrain')

// As Node's HTTP server (_http_server.js continueExpression).
const CONTINUE = /(?:^|\W)100-continue(?:$|\W)/i

// The stream answers for its connection's socket where a request's socket
// is read (req.socket.remoteAddress, req.connection.encrypted, …). Getters
// on the stream class, so a stream costs nothing more.
function socketFacade (Stream) {
  const fromSocket = ['remoteAddress', 'remotePort', 'remoteFamily', 'localAddress', 'localPort',
    'encrypted', 'alpnProtocol', 'servername', 'authorized', 'authorizationError']
  for (const name of fromSocket) {
    if (name in Stream.prototype) continue
    Object.defineProperty(Stream.prototype, name, {
      configurable: true,
      get () { return this.connection.socket[name] }
    })
  }
  for (const name of ['getPeerCertificate', 'getCipher', 'getProtocol', 'getSession', 'isSessionReused', 'address']) {
    if (name in Stream.prototype) continue
    Stream.prototype[name] = function () {
      const socket = this.connection.socket
      return socket[name].apply(socket, arguments)
    }
  }
  for (const name of ['setNoDelay', 'setKeepAlive', 'ref', 'unref']) {
    if (!(name in Stream.prototype)) Stream.prototype[name] = function () { return this }
  }
}

// node-spdy's Handle _transformHeaders('request', …): pseudo-headers left
// out, :authority as host. → [headers, rawHeaders]
function requestHeaders (source) {
  const headers = {}
  const raw = []
  for (const key of Object.keys(source)) {
    const value = source[key]
    if (key === ':authority') {
      headers.host = value
      raw.push('host', value)
    }
    if (key.charCodeAt(0) === 0x3a /* : */) continue
    headers[key] = value
    raw.push(key, value)
  }
  return [headers, raw]
}

function onData (chunk) {
  // Backpressure as Node's parser gives it (parserOnBody → readStop);
  // IncomingMessage _read resumes its socket, the stream.
  if (!this._h2benchRequest.push(chunk)) this.pause()
}

function onEnd () {
  const req = this._h2benchRequest
  req.complete = true
  req.push(null)
}

function onTrailers (headers) {
  this._h2benchRequest.emit('trailers', headers)
}

function onDrain () {
  const res = this._httpMessage
  if (res && !res.finished && (kNeedDrain === undefined || res[kNeedDrain])) {
    if (kNeedDrain !== undefined) res[kNeedDrain] = false
    res.emit('drain')
  }
}

// A reset stream (RST_STREAM other than CANCEL) emits 'error', then 'close'.
function onStreamError () {}

// The stream closed (ended both ways, or reset): a request still arriving was
// aborted, as Node's HTTP server aborts it when its socket closes. The
// response still on the stream hears 'close' through the listener
// res.assignSocket() put there.
function onClose () {
  const req = this._h2benchRequest
  if (!req.complete && !req.destroyed) {
    let err
    if (req.listenerCount('error') !== 0) {
      err = new Error('aborted')
      err.code = 'ECONNRESET'
    }
    req.destroy(err)
  }
}

function emitCloseNT (res) {
  if (!res._closed) {
    res.destroyed = true
    res._closed = true
    res.emit('close')
  }
}

// Node's HTTP server on a response's 'finish' (resOnFinish), for a stream
// that carries one request: an unread request body is dumped, the response
// lets go of its socket and closes, and the stream's side ends (END_STREAM).
function onFinish () {
  const req = this.req
  const stream = this.spdyStream
  if (!req._consuming && !req._readableState.resumeScheduled) {
    req._dump()
    // What is left of the body is read and dropped by the stream, or the
    // stream reset past a limit (vendor/spdy-transport, stream.js; ./spdy.js 11).
    if (!req.complete) stream.discardRequestBody()
  }
  if (this.socket === stream) this.detachSocket(stream)
  process.nextTick(emitCloseNT, this)
  if (stream.writable) stream.end()
}

function addTrailers (headers) {
  this.spdyStream.sendHeaders(headers)
}

function createRequestPath (spdy, Stream) {
  socketFacade(Stream)

  return function request (server, stream) {
    const state = server._spdyState
    stream._h2benchRequest = null
    const req = new IncomingMessage(stream)
    stream._h2benchRequest = req
    req.method = stream.method
    req.url = stream.path
    req.httpVersionMajor = 1
    req.httpVersionMinor = 1
    req.httpVersion = '1.1'
    const [headers, rawHeaders] = requestHeaders(stream.headers)
    if (state.options['x-forwarded-for']) {
      const xForwardedFor = stream.connection.getXForwardedFor()
      if (xForwardedFor !== null) headers['x-forwarded-for'] = xForwardedFor
    }
    req.headers = headers
    req.rawHeaders = rawHeaders
    req.isSpdy = true
    req.spdyVersion = stream.connection.getVersion()
    req.spdyStream = stream

    const res = new ServerResponse(req, {
      highWaterMark: stream.writableHighWaterMark,
      rejectNonStandardBodyWrites: server.rejectNonStandardBodyWrites
    })
    res.shouldKeepAlive = false
    res.isSpdy = true
    res.spdyVersion = req.spdyVersion
    res.spdyStream = stream
    res._req = req
    res.writeHead = spdy.response.writeHead
    res.end = spdy.response.end
    res.push = spdy.response.push
    res.writeContinue = spdy.response.writeContinue
    res.addTrailers = addTrailers
    res.assignSocket(stream)
    res.on('finish', onFinish)

    stream.on('data', onData)
    stream.on('end', onEnd)
    stream.on('headers', onTrailers)
    stream.on('drain', onDrain)
    stream.on('error', onStreamError)
    stream.on('close', onClose)

    // As Node's HTTP server (parserOnIncoming) treats an HTTP/1.1 request.
    if (server.requireHostHeader && headers.host === undefined) {
      res.writeHead(400, { connection: 'close' })
      res.end()
      return
    }
    const emit = EventEmitter.prototype.emit
    if (headers.expect !== undefined) {
      if (CONTINUE.test(headers.expect)) {
        res._expect_continue = true
        if (server.listenerCount('checkContinue') > 0) {
          emit.call(server, 'checkContinue', req, res)
        } else {
          res.writeContinue()
          emit.call(server, 'request', req, res)
        }
      } else if (server.listenerCount('checkExpectation') > 0) {
        emit.call(server, 'checkExpectation', req, res)
      } else {
        res.writeHead(417)
        res.end()
      }
      return
    }
    emit.call(server, 'request', req, res)
  }
}

module.exports = { createRequestPath }

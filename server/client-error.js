'use strict'

const { STATUS_CODES } = require('node:http')

// A request Node's HTTP/1.1 parser refuses (llhttp: an unknown method such as
// `BREW`, a head over 16 KiB, a malformed line, body bytes sent without a
// Content-Length that then read as the next request) gets a 4xx that the
// client can read, and the connection then ends cleanly.
//
// Node's own answer (its 'clientError' default, _http_server.js socketOnError)
// writes the status line and destroys the socket at once. When the client is
// still sending (a request body, the rest of an oversized head), the kernel
// answers those unread bytes with a TCP RST, which can reach the client before
// it has read the 400: it sees ECONNRESET instead of an answer. Behind the edge
// it was worse: Caddy forwards any method token, the app refused it, and Caddy,
// cut off while still sending the body, answered a client's `APHN` request with
// 502 Bad Gateway (or reset the HTTP/3 stream with H3_INTERNAL_ERROR when the
// cut came mid-response): a 5xx for a client's input (issue 34's fuzz,
// test/server/integration/fuzz.test.js).
//
// Here: the same statuses, with a Content-Length and a JSON body saying what
// was wrong, then a lingering close (as nginx's lingering_close): our side
// ends, the client's remaining bytes are read and dropped until it ends its
// side, LINGER_MS at most. Timeouts (408, slow clients: see server/lanes/h1.js)
// and a connection whose response is already under way keep Node's behaviour.

const LINGER_MS = 2000
const REFUSED = Symbol('h2bench refused a request on this connection')

// The status Node gives each parser error (all others: 400).
const STATUS = {
  HPE_HEADER_OVERFLOW: 431,
  HPE_CHUNK_EXTENSIONS_OVERFLOW: 413,
  ERR_HTTP_REQUEST_TIMEOUT: 408
}

function responseFor (err) {
  const status = STATUS[err.code] || 400
  const reason = `${err.code || 'parse error'}${err.reason ? `: ${err.reason}` : ''}`
  const body = JSON.stringify({
    error: `${STATUS_CODES[status].toLowerCase()}: this HTTP/1.1 request cannot be read (${reason}); the connection is closed`,
    param: null,
    code: err.code || null
  })
  return {
    status,
    bytes: Buffer.from(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nConnection: close\r\nContent-Type: application/json; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`, 'latin1')
  }
}

function onClientError (err, socket) {
  if (socket[REFUSED]) return // the rest of a request already answered: its bytes are being dropped
  if (!socket.writable || err.code === 'ECONNRESET') return socket.destroy()
  const { status, bytes } = responseFor(err)
  // Node's internal: the response the connection is busy with, if any.
  const busy = socket._httpMessage && !socket._httpMessage.writableFinished
  if (status === 408 || busy) {
    if (!busy || !socket._httpMessage.headersSent) socket.write(bytes)
    return socket.destroy(err)
  }
  socket[REFUSED] = true
  lingeringEnd(socket, bytes)
}

// Ends our side of `socket` after `last`, and reads on (dropping what comes)
// until the client ends its side; destroyed LINGER_MS later at the latest.
function lingeringEnd (socket, last) {
  const timer = setTimeout(() => socket.destroy(), LINGER_MS)
  timer.unref()
  socket.once('close', () => clearTimeout(timer))
  socket.on('error', () => {})
  socket.end(last)
  socket.resume()
}

// Installs the answer on an HTTP/1.1 server (node:http or node:https); returns it.
function answerClientErrors (server) {
  server.on('clientError', onClientError)
  return server
}

module.exports = { answerClientErrors, responseFor, LINGER_MS }

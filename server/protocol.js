'use strict'

// The protocol the server really spoke for this request. `req.httpVersion` is
// '1.1' under spdy, so spdy's own flags are read first (spdy-transport calls
// HTTP/2 version 4, after SPDY/3.1); node:http2 says '2.0'.
function protocolOf (req) {
  if (req.isSpdy) return req.spdyVersion === 4 ? 'h2' : `spdy/${req.spdyVersion}`
  if (req.httpVersionMajor === 2) return 'h2'
  return `http/${req.httpVersion}`
}

module.exports = { protocolOf }

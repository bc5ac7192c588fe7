'use strict'

const { edgeProtocol, EDGE_PROTOCOL_HEADER } = require('./edge/caddy')

// The protocol the server really spoke for this request. `req.httpVersion` is
// '1.1' under spdy, so spdy's own flags are read first (spdy-transport calls
// HTTP/2 version 4, after SPDY/3.1); node:http2 says '2.0'. Behind an edge
// (lane.edge), what the edge spoke to the client, which it tells the app in
// a header of its own (server/edge/caddy.js); the edge sets it on every
// request, so a client cannot.
function protocolOf (req, lane = null) {
  if (lane && lane.edge) return edgeProtocol(req.headers[EDGE_PROTOCOL_HEADER]) || 'unknown (no edge header)'
  if (req.isSpdy) return req.spdyVersion === 4 ? 'h2' : `spdy/${req.spdyVersion}`
  if (req.httpVersionMajor === 2) return 'h2'
  return `http/${req.httpVersion}`
}

module.exports = { protocolOf }

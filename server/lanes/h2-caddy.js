'use strict'

const { edgeLane } = require('./edge')

// Lane h2e: HTTP/2 over TCP at the same Caddy edge as h3, so HTTP/3 and
// HTTP/2 can be compared within one implementation (as h2 and h2n separate
// spdy from node:http2). Caddy 2.6 offers h2 only beside HTTP/1.1 in ALPN.
module.exports = edgeLane({
  name: 'h2e',
  label: 'HTTP/2 (Caddy)',
  protocol: 'h2',
  defaultPort: 3005,
  protocols: ['h1', 'h2']
})

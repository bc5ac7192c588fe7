'use strict'

const { edgeLane } = require('./edge')

// Lane h3: HTTP/3 over QUIC at a Caddy edge. The same port also answers
// HTTP/1.1 and HTTP/2 over TCP (and advertises h3 in Alt-Svc), so a client
// without QUIC still gets an answer, which the page then flags as a
// fallback; Chromium is told to use QUIC for this origin from the start.
module.exports = edgeLane({
  name: 'h3',
  label: 'HTTP/3 (Caddy, QUIC)',
  protocol: 'h3',
  defaultPort: 3004,
  protocols: ['h1', 'h2', 'h3']
})

'use strict'

const https = require('node:https')
const { sendPaced } = require('../send-body')
const { answerClientErrors } = require('../client-error')

// How long a client may take, set explicitly rather than left to Node's
// defaults (headers 60 s, request 300 s, checked only every 30 s, so a
// slowloris connection, a request head sent one byte at a time, lived up to
// 90 s: test/server/integration/abuse.test.js). A GET's head takes milliseconds; the
// server's own delay (up to 60 s) and the response do not count against
// these, only receiving the request does.
const TIMEOUTS = Object.freeze({
  headersTimeout: 20000, // the whole request head, from its first byte (408 after)
  requestTimeout: 60000, // the whole request
  keepAliveTimeout: 5000, // an idle connection between requests (Node's default)
  // How often the first two are checked (Node: 30 s), so a connection is
  // closed within a second or two of its deadline.
  connectionsCheckingInterval: 1000
})
// A socket with no traffic either way for this long is destroyed (Node:
// never): a connection that never sends a request, or a client that stopped
// reading its response. Longer than the longest server delay (60 s).
const IDLE_TIMEOUT = 120000

// Lane h1: Node's https, ALPN offering only http/1.1.
module.exports = {
  name: 'h1',
  label: 'HTTP/1.1 (node:https)',
  protocol: 'http/1.1',
  defaultPort: 3001,
  timeouts: { ...TIMEOUTS, idle: IDLE_TIMEOUT },
  createServer (app, tls) {
    const server = https.createServer({ ...tls, ...TIMEOUTS, ALPNProtocols: ['http/1.1'] }, app)
    server.setTimeout(IDLE_TIMEOUT) // no callback: Node destroys the socket
    // A request the parser refuses: its 4xx, then a lingering close (server/client-error.js).
    return answerClientErrors(server)
  },
  sendBody: sendPaced,
  pushSupport: () => 'unsupported',
  push () { throw new Error('lane h1 cannot push') }
}

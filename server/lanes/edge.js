'use strict'

const http = require('node:http')
const { sendPaced } = require('../send-body')
const { answerClientErrors } = require('../client-error')
// The h1 lane's request timeouts (its idle timeout is set below).
const { headersTimeout, requestTimeout, connectionsCheckingInterval } = require('./h1').timeouts
const TIMEOUTS = { headersTimeout, requestTimeout, connectionsCheckingInterval }

// An edge lane: Caddy (server/edge/caddy.js) speaks the lane's protocol to
// the client and reverse-proxies every request, streaming, to the lane's
// own copy of the shared app, which listens on plain HTTP/1.1 on loopback.
// Routes, headers, bytes and delays are the app's; the protocol, its
// implementation (Go's net/http, quic-go) and the extra hop are the edge's.
// createServer makes that app's server; server/start.js starts Caddy.
function edgeLane ({ name, label, protocol, defaultPort, protocols }) {
  return {
    name,
    label,
    protocol,
    defaultPort,
    // The protocols Caddy offers on the lane's port (Caddy 2.6 enables h2
    // only together with h1; h3 listens on UDP beside TCP on the same port).
    edge: { protocols },
    createServer (app) {
      // Longer than Caddy's upstream idle timeout (60 s), so Caddy, never
      // the app, closes an idle connection between requests.
      const server = http.createServer({ ...TIMEOUTS, keepAliveTimeout: 120000 }, app)
      server.setTimeout(120000)
      // Caddy passes on any method token; the app's parser refuses those it
      // does not know (a 400, read by Caddy and passed on: server/client-error.js).
      return answerClientErrors(server)
    },
    sendBody: sendPaced,
    // Caddy's HTTP/2 server pushes only from its own `push` handler, and
    // HTTP/3 push is implemented by neither quic-go nor any browser.
    pushSupport: () => 'unsupported',
    push () { throw new Error(`lane ${name} cannot push`) }
  }
}

module.exports = { edgeLane }

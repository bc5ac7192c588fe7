'use strict'

// The connection ledger: on which client connection each request of a load
// run arrived, as the server saw it, so `h2bench load` can print connections
// and requests per connection from an observer that is not the load tool.
// A request joins ledger ID when its query carries ledger=ID (h2bench load
// puts it in the URL it gives every tool); GET /ledger/ID tells the counts.
// A connection is the client's address and port: the socket's on the Node
// lanes, the one the edge saw behind Caddy (for QUIC the connection's UDP
// port; server/edge/caddy.js sets the header, overwriting any client's).
const { InputError } = require('../common/errors')
const { EDGE_CLIENT_HEADER } = require('./edge/caddy')

const ID = /^[A-Za-z0-9_-]{1,64}$/
const MAX_LEDGERS = 64 // the oldest is forgotten past this
const MAX_CONNECTIONS = 100000 // per ledger; more are counted, not told apart

function clientPeer (req, lane) {
  if (lane.edge) return req.headers[EDGE_CLIENT_HEADER] || 'unknown'
  const socket = req.socket || {}
  return `${socket.remoteAddress}:${socket.remotePort}`
}

function newLedgers () {
  const ledgers = new Map() // id → { requests, peers: Map(peer → requests), overflow }

  function record (id, peer) {
    let ledger = ledgers.get(id)
    if (!ledger) {
      if (ledgers.size >= MAX_LEDGERS) ledgers.delete(ledgers.keys().next().value)
      ledger = { requests: 0, peers: new Map(), overflow: 0 }
      ledgers.set(id, ledger)
    }
    ledger.requests++
    if (ledger.peers.has(peer)) ledger.peers.set(peer, ledger.peers.get(peer) + 1)
    else if (ledger.peers.size < MAX_CONNECTIONS) ledger.peers.set(peer, 1)
    else ledger.overflow++
  }

  // → { requests, connections, perConnection: { min, median, max } } (zeros for an unknown id)
  function summary (id) {
    const ledger = ledgers.get(id)
    if (!ledger) return { requests: 0, connections: 0, perConnection: null, truncated: false }
    const counts = [...ledger.peers.values()].sort((a, b) => a - b)
    return {
      requests: ledger.requests,
      connections: counts.length,
      perConnection: counts.length ? { min: counts[0], median: counts[Math.floor((counts.length - 1) / 2)], max: counts[counts.length - 1] } : null,
      truncated: ledger.overflow > 0
    }
  }

  return { record, summary }
}

function checkId (raw) {
  if (typeof raw !== 'string' || !ID.test(raw)) {
    throw new InputError(`ledger: "${String(raw).slice(0, 80)}" is not a ledger id; allowed: 1…64 letters, digits, "-" or "_"`, { param: 'ledger' })
  }
  return raw
}

// The app's middleware (records) and route (GET /ledger/:id).
function ledgerRoutes (lane, ledgers = newLedgers()) {
  return {
    record (req, res, next) {
      if (req.query.ledger === undefined) return next()
      try {
        ledgers.record(checkId(req.query.ledger), clientPeer(req, lane))
      } catch (err) {
        return next(err)
      }
      next()
    },
    show (req, res, next) {
      try {
        res.json({ lane: lane.name, ledger: checkId(req.params.id), ...ledgers.summary(req.params.id) })
      } catch (err) {
        next(err)
      }
    }
  }
}

module.exports = { newLedgers, ledgerRoutes, clientPeer, MAX_LEDGERS }

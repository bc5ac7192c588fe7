'use strict'

const http = require('node:http')
const net = require('node:net')
const dgram = require('node:dgram')
const debug = require('debug')('h2bench:start')
const { LANES } = require('./lanes')
const { createApp } = require('./app')
const { createPageApp } = require('./page')
const { payloadBlock, LIMITS } = require('./payload')
const { unavailableReason } = require('../link/namespace')
const { startCaddy, edgeUnavailableReason, EDGE_APP_BACKLOG } = require('./edge/caddy')
const { UserError } = require('../common/errors')
const { answerClientErrors } = require('./client-error')

// A port in use or a host that is not this machine's: the flag to change is in the message.
class PortError extends UserError {
  constructor (message, options = {}) {
    super(message, { status: 409, code: 'H2B_PORT_UNAVAILABLE', ...options })
  }
}

function urlHost (host) {
  if (host === '0.0.0.0') return '127.0.0.1'
  if (host === '::') return '[::1]'
  return host.includes(':') ? `[${host}]` : host
}

// `backlog`: the listen queue's length (Node's default 511 unless given).
function listen (server, port, host, what, backlog) {
  return new Promise((resolve, reject) => {
    const onError = err => {
      if (err.code === 'EADDRINUSE' || err.code === 'EACCES') {
        const why = err.code === 'EADDRINUSE' ? 'is in use' : 'needs privileges'
        reject(new PortError(`port ${port} ${why} (${what.name}): choose another with --${what.flag} or ${what.env}, or 0 for any free port`))
      } else if (err.code === 'EADDRNOTAVAIL' || err.code === 'ENOTFOUND' || err.code === 'EAI_AGAIN') {
        reject(new PortError(`cannot listen on host ${host} (${what.name}): no such address on this machine (${err.code}); ` +
          'choose one with --host or H2BENCH_HOST, e.g. 127.0.0.1 or 0.0.0.0'))
      } else {
        reject(new PortError(`cannot listen on ${host} port ${port} (${what.name}): ${err.message}`))
      }
    }
    server.once('error', onError)
    server.listen({ port, host, ...(backlog ? { backlog } : {}) }, () => {
      server.off('error', onError)
      resolve(server.address().port)
    })
  })
}

// Tracks sockets so close() can end keep-alive and h2 connections at once.
function trackSockets (server) {
  const sockets = new Set()
  const add = s => { sockets.add(s); s.once('close', () => sockets.delete(s)) }
  server.on('connection', add)
  return () => { for (const s of sockets) s.destroy() }
}

// A port given for an edge lane, checked here (TCP, and UDP for QUIC) so a
// taken one gets the same message as any lane's; 0 is left to Caddy's start.
async function checkEdgePort (lane, port, host, what) {
  if (!port) return
  const probe = net.createServer()
  await listen(probe, port, host, what)
  await closeServer(probe)
  if (!lane.edge.protocols.includes('h3')) return
  await new Promise((resolve, reject) => {
    const u = dgram.createSocket(host.includes(':') ? 'udp6' : 'udp4')
    u.once('error', err => { u.close(); reject(new PortError(`UDP port ${port} ${err.code === 'EADDRINUSE' ? 'is in use' : `cannot be used (${err.code})`} (${what.name}, QUIC): choose another with --${what.flag} or ${what.env}, or 0 for any free port`)) })
    u.bind(port, host, () => u.close(resolve))
  })
}

const edgeRecord = edge => edge && { pid: edge.pid, executable: edge.executable, version: edge.version, warning: edge.warning }

function closeServer (server) {
  return new Promise(resolve => server.close(() => resolve()))
}

// Starts every lane and the page server. `tls` is { key, cert, spki };
// `link`, when the lanes are behind a packet-level link, its control;
// `qlogDir`, a folder for Caddy's qlogs of its QUIC connections (traces);
// `edgeIdleTimeoutS`, when the edge closes a connection without requests
// (Caddy's default is 5 min; h2bench load sets a few seconds).
// Returns { page: {url}, lanes: [{name,label,protocol,url,port,server,app}],
// unavailable: [{name,label,reason}] (edge lanes without Caddy), edge, close() }.
// `page: false` (npm start -- --lanes-only): the lanes only, for clients elsewhere; every lane then serves the
// manifest (GET /lanes.json). `config.token`: the lanes' internals and the page server's link need it (server/access.js).
async function startAll (config, tls, { lanes = LANES, link = null, qlogDir = null, edgeIdleTimeoutS = null, page = true } = {}) {
  const started = []
  let edge = null
  const closeAll = async () => {
    await Promise.all([
      ...started.map(({ server, destroySockets }) => {
        const closing = closeServer(server)
        destroySockets()
        return closing
      }),
      edge && edge.close()
    ])
  }
  // The shared payload block, made now rather than during the first
  // measured request (about 0.5 s of a blocked event loop).
  payloadBlock()
  // Edge lanes need Caddy: without it they are left out, each with the
  // reason, and every other lane starts.
  const edgeMissing = edgeUnavailableReason()
  const unavailable = edgeMissing ? lanes.filter(l => l.edge).map(l => ({ name: l.name, label: l.label, reason: edgeMissing })) : []
  const starting = lanes.filter(l => !(l.edge && edgeMissing))
  try {
    const laneInfo = []
    const edgeServers = []
    // Every lane's port and protocol, with the host the client reached (it may not be the one listened on: 0.0.0.0).
    const manifest = req => ({
      lanes: laneInfo.filter(l => l.port).map(({ name, label, protocol, port }) => ({ name, label, protocol, url: `https://${urlHost(req.hostname)}:${port}` })),
      unavailable,
      spki: tls.spki,
      limits: { maxSizeBytes: LIMITS.maxSize, maxDelayMs: LIMITS.maxDelay },
      tokenRequired: Boolean(config.token)
    })
    for (const lane of starting) {
      const app = createApp(lane, { token: config.token || null, manifest })
      const flag = `${lane.name}-port`
      const what = { name: `lane ${lane.name}`, flag, env: `H2BENCH_${lane.name.toUpperCase()}_PORT` }
      const port = config[`${lane.name}Port`] || 0
      if (lane.edge) {
        // The app behind the edge: plain HTTP on loopback, for Caddy only.
        const server = lane.createServer(app)
        started.push({ server, destroySockets: trackSockets(server) })
        const appPort = await listen(server, 0, '127.0.0.1', { ...what, name: `lane ${lane.name}'s app` }, EDGE_APP_BACKLOG)
        await checkEdgePort(lane, port, config.host, what)
        edgeServers.push({ name: lane.name, host: config.host, port, protocols: lane.edge.protocols, upstream: `127.0.0.1:${appPort}`, idleTimeoutS: edgeIdleTimeoutS })
        laneInfo.push({ name: lane.name, label: lane.label, protocol: lane.protocol, server, app, appPort })
        continue
      }
      const server = lane.createServer(app, { key: tls.key, cert: tls.cert })
      // A TLS handshake gone wrong (a browser rejecting the certificate,
      // a scanner) is logged, never thrown.
      server.on('tlsClientError', err => debug('%s TLS client error: %s', lane.name, err.message))
      started.push({ server, destroySockets: trackSockets(server) })
      const listening = await listen(server, port, config.host, what)
      laneInfo.push({ name: lane.name, label: lane.label, protocol: lane.protocol, port: listening, server, app })
    }
    if (edgeServers.length) {
      edge = await startCaddy(edgeServers, tls, { qlogDir })
      for (const info of laneInfo) if (edge.ports[info.name]) info.port = edge.ports[info.name]
    }
    for (const info of laneInfo) info.url = `https://${urlHost(config.host)}:${info.port}`
    if (!page) return { page: null, lanes: laneInfo, unavailable, edge: edgeRecord(edge), close: closeAll }
    const publicLanes = laneInfo.map(({ name, label, protocol, url }) => ({ name, label, protocol, url }))
    const pageApp = createPageApp({
      lanes: publicLanes,
      unavailableLanes: unavailable,
      spki: tls.spki,
      link,
      linkUnavailable: link ? null : unavailableReason(),
      token: config.token || null,
      caddyPid: () => (edge ? edge.pid : null)
    })
    const pageServer = answerClientErrors(http.createServer(pageApp))
    started.push({ server: pageServer, destroySockets: trackSockets(pageServer) })
    const pageInfo = await listenPage(pageServer, config)
    return {
      page: pageInfo,
      lanes: laneInfo,
      unavailable,
      edge: edgeRecord(edge),
      close: closeAll
    }
  } catch (err) {
    await closeAll()
    throw err
  }
}

async function listenPage (server, config) {
  const port = await listen(server, config.port, config.host, { name: 'page server', flag: 'port', env: 'H2BENCH_PORT' })
  return { url: `http://${urlHost(config.host)}:${port}`, port, server }
}

// The page server alone, for lanes that run elsewhere (the runner's --lanes-at: harness/remote-lanes.js):
// `lanes` [{ name, label, protocol, url }], their certificate's `spki`. → { page, lanes, unavailable, edge: null, close }.
async function startPage ({ host = '127.0.0.1', port = 0, lanes, unavailable = [], spki }) {
  const server = answerClientErrors(http.createServer(createPageApp({
    lanes, unavailableLanes: unavailable, spki, link: null, linkUnavailable: 'the lanes run on another machine: their network is the real path', lanesHere: false
  })))
  const destroySockets = trackSockets(server)
  const page = await listenPage(server, { host, port })
  return { page, lanes, unavailable, edge: null, close: () => { const closing = closeServer(server); destroySockets(); return closing } }
}

module.exports = { startAll, startPage, PortError }

'use strict'

const http = require('node:http')
const debug = require('debug')('h2bench:start')
const { LANES } = require('./lanes')
const { createApp } = require('./app')
const { createPageApp } = require('./page')
const { payloadBlock } = require('./payload')
const { unavailableReason } = require('../link/namespace')

class PortError extends Error {}

function urlHost (host) {
  if (host === '0.0.0.0') return '127.0.0.1'
  if (host === '::') return '[::1]'
  return host.includes(':') ? `[${host}]` : host
}

function listen (server, port, host, what) {
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
    server.listen(port, host, () => {
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

function closeServer (server) {
  return new Promise(resolve => server.close(() => resolve()))
}

// Starts every lane and the page server. `tls` is { key, cert, spki };
// `link`, when the lanes are behind a packet-level link, its control.
// Returns { page: {url}, lanes: [{name,label,protocol,url,server,app}], close() }.
async function startAll (config, tls, { lanes = LANES, link = null } = {}) {
  const started = []
  const closeAll = async () => {
    await Promise.all(started.map(({ server, destroySockets }) => {
      const closing = closeServer(server)
      destroySockets()
      return closing
    }))
  }
  // The shared payload block, made now rather than during the first
  // measured request (about 0.5 s of a blocked event loop).
  payloadBlock()
  try {
    const laneInfo = []
    for (const lane of lanes) {
      const app = createApp(lane)
      const server = lane.createServer(app, { key: tls.key, cert: tls.cert })
      // A TLS handshake gone wrong (a browser rejecting the certificate,
      // a scanner) is logged, never thrown.
      server.on('tlsClientError', err => debug('%s TLS client error: %s', lane.name, err.message))
      started.push({ server, destroySockets: trackSockets(server) })
      const flag = `${lane.name}-port`
      const port = await listen(server, config[`${lane.name}Port`], config.host,
        { name: `lane ${lane.name}`, flag, env: `H2BENCH_${lane.name.toUpperCase()}_PORT` })
      laneInfo.push({ name: lane.name, label: lane.label, protocol: lane.protocol, url: `https://${urlHost(config.host)}:${port}`, port, server, app })
    }
    const publicLanes = laneInfo.map(({ name, label, protocol, url }) => ({ name, label, protocol, url }))
    const pageServer = http.createServer(createPageApp({ lanes: publicLanes, spki: tls.spki, link, linkUnavailable: link ? null : unavailableReason() }))
    started.push({ server: pageServer, destroySockets: trackSockets(pageServer) })
    const pagePort = await listen(pageServer, config.port, config.host, { name: 'page server', flag: 'port', env: 'H2BENCH_PORT' })
    return { page: { url: `http://${urlHost(config.host)}:${pagePort}`, port: pagePort, server: pageServer }, lanes: laneInfo, close: closeAll }
  } catch (err) {
    await closeAll()
    throw err
  }
}

module.exports = { startAll, PortError }

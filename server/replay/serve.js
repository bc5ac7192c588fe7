'use strict'

// Starts a replay: every recorded origin served by the one replay handler
// (server/replay/app.js) over the protocol asked for, each on its own
// loopback address and its recorded port (server/replay/origins.js), with a
// leaf of a CA made for this replay (server/replay/ca.js):
//   h1       node:https, ALPN http/1.1 only (lane h1's server)
//   h2       node:http2, ALPN h2 only (lane h2n's server)
//   h2-spdy  spdy, ALPN h2 only (lane h2's server, server/compat/spdy.js)
//   h3       Caddy (server/edge/caddy.js) on each origin's address and port,
//            QUIC on UDP (and h2/http/1.1 on TCP, as the h3 lane), one Caddy
//            per certificate, proxying to one plain HTTP/1.1 replay server
//            on 127.0.0.1; Caddy passes the client's :authority on as Host.
//   h2e      h3's edge, the same Caddy in the same configuration (QUIC on UDP
//            too): the browser is kept off QUIC (bench/cells/replay-plan.js
//            FORCED), so it speaks HTTP/2 over TCP to the server that serves
//            h3, as lane h2e does to lane h3's: h3 against h2e differs in
//            protocol only.
// Behind a packet-level link the listeners take the link's addresses instead
// (`addresses`: link/namespace.js addServerAddresses, origins.js addressCount
// of them), so the browser in the link's namespace reaches every origin
// through the link; the recorded ports stay, and hostResolverRules follow.
// Binding 127.0.1.x:443 belongs in a network namespace of h2bench's own: in
// the host's the replay refuses (link/namespace.js mayBuildHere, as the link
// does) unless every origin is moved to an explicit port >= 1024 (`ports`).
// `variant` says how the server behaves (server/replay/app.js; VARIANT_NOTES
// below says what each does per protocol): plain (the protocol server's own
// scheduling), fifo, rfc9218 (server/replay/schedule.js), early-hints
// (server/replay/early-hints.js). For h3 and h2e Caddy passes each request's client
// address (X-H2bench-Client: the QUIC or TCP peer), so the upstream can
// schedule per client connection; the app removes it before answering.
const { once } = require('node:events')
const { UserError } = require('../../common/errors')
const { mayBuildHere } = require('../../link/namespace')
const { planReplay } = require('./origins')
const { makeReplayCertificates } = require('./ca')
const { createReplayApp } = require('./app')

const PROTOCOLS = ['h1', 'h2', 'h2-spdy', 'h2e', 'h3']
const ALPN = { h1: 'http/1.1', h2: 'h2', 'h2-spdy': 'h2', h2e: 'h2', h3: 'h3' }
// The protocols the Caddy edge serves (startEdge), in one configuration for both.
const EDGE_PROTOCOLS = ['h2e', 'h3']
const VARIANTS = ['plain', 'fifo', 'rfc9218', 'early-hints']
// The request header Caddy names the client's connection in (proxyTo), for the upstream's scheduler.
const CLIENT_HEADER = 'x-h2bench-client'

// What a variant does over a protocol where a report must say more than its name (null: it does what it says).
function variantNote (variant, protocol) {
  if ((variant === 'fifo' || variant === 'rfc9218') && protocol === 'h1') {
    return `${variant} changes nothing over HTTP/1.1: a connection carries one response at a time; answered as plain`
  }
  if (variant === 'rfc9218' && protocol === 'h3') {
    return 'rfc9218 at the edge\'s upstream, per client connection; quic-go (Caddy) schedules by the same Priority header itself, also in plain'
  }
  if ((variant === 'fifo' || variant === 'rfc9218') && protocol === 'h2e') return `${variant} at the edge's upstream, per client connection (the browser's TCP connection to Caddy)`
  if (variant === 'early-hints' && protocol === 'h1') return 'early-hints over HTTP/1.1: 103s are sent, but Chromium acts on them only over HTTP/2 and HTTP/3'
  return null
}

// Why `variant` cannot run over `protocol`, or null.
function variantRefusal (variant, protocol) {
  if (!VARIANTS.includes(variant)) return `variant ${JSON.stringify(variant)} is not one of ${VARIANTS.join(', ')}`
  if (variant === 'early-hints' && protocol === 'h2-spdy') {
    return 'variant early-hints cannot run over h2-spdy: spdy has no HTTP/2 103 (its writeEarlyHints writes the hint as HTTP/1.1 text ' +
      'into the response body); it runs over h1, h2, h2e and h3'
  }
  return null
}

// The replay cannot start: a bad protocol, the host's namespace, a port taken.
class ReplayError extends UserError {
  constructor (message, options = {}) {
    super(message, { status: 500, code: 'H2B_REPLAY', ...options })
  }
}

// Why the replay may not bind its addresses here, or null.
function namespaceRefusal (plan, ports, may = mayBuildHere()) {
  if (may) return null
  const low = plan.listeners.filter(l => l.port < 1024)
  if (ports && !low.length) return null
  return 'refusing to replay in the host\'s network namespace: its origins listen on their recorded ports ' +
    `(${[...new Set(plan.listeners.map(l => l.port))].join(', ')}) at 127.0.1.x addresses, which belong in a private namespace. ` +
    'Start it through h2bench\'s commands (which run themselves in one), or, for a test, give every origin a port >= 1024 (ports)'
}

async function listen (server, port, host) {
  server.listen({ port, host })
  const [err] = await Promise.race([once(server, 'listening').then(() => []), once(server, 'error')])
  if (err) {
    throw new ReplayError(`cannot listen on ${host}:${port} (${err.code || err.message})` +
      (err.code === 'EADDRINUSE' ? ': something else serves there' : ''), { status: err.code === 'EADDRINUSE' ? 409 : 500, cause: err })
  }
  return server
}

// Every socket a server accepted, so close() ends them too.
function tracked (server) {
  const sockets = new Set()
  server.on('connection', s => { sockets.add(s); s.once('close', () => sockets.delete(s)) })
  return () => new Promise(resolve => {
    server.close(() => resolve())
    for (const s of sockets) s.destroy()
  })
}

// The Node server of `protocol` for one listener, with `handler` and `tls` { key, cert }.
function nodeServer (protocol, handler, tls) {
  if (protocol === 'h1') return require('../lanes/h1').createServer(handler, tls)
  if (protocol === 'h2') return require('../lanes/h2-native').createServer((req, res) => handler(req, res), tls)
  return require('../lanes/h2-spdy').createServer(handler, tls)
}

// archive (server/replay/archive.js) → { protocol, variant, variantNote, origins, hostResolverRules, spki, caPem,
// certificates, app, plan, edge, close() }.
// options: protocol 'h1'|'h2'|'h2-spdy'|'h2e'|'h3'; ports: { origin: port } or origin => port (see namespaceRefusal);
// addresses: the addresses to listen on, in order, instead of 127.0.1.x (a link's); certificates: replayCertificates'
// of the same archive, to serve the same leaves again (a cell starts a replay per repeat and protocol), else new ones;
// variant: 'plain' (default) | 'fifo' | 'rfc9218' | 'early-hints' (VARIANTS; the result's variantNote says what it
// does over this protocol where that is not just its name, and app.variantStats() counts what it did); time: 'shifted'
// (default: Date, Expires and Last-Modified moved to each answer's time) | 'recorded' (server/replay/app.js).
async function startReplay (archive, { protocol = 'h2', ports = null, addresses = null, certificates = null, variant = 'plain', time = 'shifted' } = {}) {
  if (!PROTOCOLS.includes(protocol)) throw new ReplayError(`protocol ${JSON.stringify(protocol)} is not one of ${PROTOCOLS.join(', ')}`, { status: 400 })
  const refused = variantRefusal(variant, protocol)
  if (refused) throw new ReplayError(refused, { status: 400 })
  let plan
  try {
    plan = planReplay(archive, { ports, addresses })
  } catch (err) {
    if (err instanceof RangeError) throw new ReplayError(err.message, { status: 500, cause: err })
    throw err
  }
  const why = namespaceRefusal(plan, ports)
  if (why) throw new ReplayError(why, { status: 503 })
  const certs = certificates || await makeReplayCertificates(plan.certs)
  if (certs.leaves.length !== plan.certs.length) {
    throw new ReplayError(`certificates for ${certs.leaves.length} recorded certificates given; this archive has ${plan.certs.length}`, { status: 500 })
  }
  // A request's :authority/Host → its recorded origin, also where `ports` moved the origin.
  const byServed = new Map(plan.origins.map(o => [`${o.host}:${o.port}`, o.origin]))
  const resolveOrigin = authority => {
    try {
      const u = new URL(`https://${authority}`)
      const host = u.hostname.replace(/^\[(.*)\]$/, '$1')
      return byServed.get(`${host}:${Number(u.port) || 443}`) || u.origin
    } catch {
      return null
    }
  }
  const app = createReplayApp(archive, {
    resolveOrigin,
    schedule: (variant === 'fifo' || variant === 'rfc9218') && protocol !== 'h1' ? variant : null,
    earlyHints: variant === 'early-hints',
    time,
    clientHeader: EDGE_PROTOCOLS.includes(protocol) ? CLIENT_HEADER : null
  })
  const closers = []
  const close = () => Promise.all(closers.splice(0).map(c => c()))
  let edge = null
  try {
    if (EDGE_PROTOCOLS.includes(protocol)) {
      edge = await startEdge(plan, certs, app, closers)
    } else {
      for (const l of plan.listeners) {
        const server = nodeServer(protocol, app, certs.leaves[l.certIndex])
        closers.push(tracked(server))
        await listen(server, l.port, l.address)
      }
    }
  } catch (err) {
    await close()
    throw err
  }
  return {
    protocol,
    variant,
    variantNote: variantNote(variant, protocol),
    origins: plan.origins.map(o => ({ origin: o.origin, host: o.host, address: o.address, port: o.port, protocol: ALPN[protocol] })),
    hostResolverRules: plan.hostResolverRules,
    spki: certs.spki,
    caPem: certs.caPem,
    certificates: certs.leaves.map(l => ({ names: l.names, spki: l.spki, cert: l.cert })),
    app,
    plan,
    edge,
    close
  }
}

// archive → the certificates a replay of it serves (makeReplayCertificates of its plan): made once, given to each
// startReplay of the archive as `certificates`, so every replay of one cell shows the same leaves.
const replayCertificates = archive => makeReplayCertificates(planReplay(archive).certs)

// Caddy's reverse proxy as the edge lanes use it (server/edge/caddy.js), but
// leaving the recorded response as it is: no Via added, and no compression
// of its own (by default Go's transport asks the upstream for gzip when the
// client did not, and un-gzips the answer, dropping its Content-Encoding).
// The Host header passes through unchanged (Caddy's default), so the replay
// handler sees the recorded name. (Go's server adds a Date where the
// recording had none.) X-H2bench-Client carries the client's address and
// port ({http.request.remote}: one QUIC connection, or one TCP connection of
// the fallback), the app's key for a connection's scheduler; the app takes
// it off the request. Caddy passes the upstream's 1xx on (its
// reverse_proxy's Got1xxResponse), so a 103 reaches the client.
const proxyTo = dial => [
  // The proxy adds its Via to the response it writes, after its own header
  // operations: so a deferred delete of the server's, applied as the head is written.
  { handler: 'headers', response: { delete: ['Via'], deferred: true } },
  {
    handler: 'reverse_proxy',
    flush_interval: -1,
    upstreams: [{ dial }],
    transport: { protocol: 'http', compression: false },
    headers: { request: { set: { 'X-H2bench-Client': ['{http.request.remote}'] } } }
  }
]

// h3 and h2e: the replay handler on one plain HTTP/1.1 server on 127.0.0.1, and one
// Caddy per certificate on its listeners' addresses and ports, offering h1, h2 and h3 whichever was asked (h2e's
// browser is kept off QUIC, and so speaks h2 over TCP to the same server).
async function startEdge (plan, certs, app, closers) {
  const { startCaddy, EDGE_APP_BACKLOG } = require('../edge/caddy')
  const upstream = require('../lanes/h3-caddy').createServer(app)
  closers.push(tracked(upstream))
  upstream.listen({ port: 0, host: '127.0.0.1', backlog: EDGE_APP_BACKLOG })
  await once(upstream, 'listening')
  const dial = `127.0.0.1:${upstream.address().port}`
  const caddys = []
  for (const cert of plan.certs) {
    const servers = plan.listeners.filter(l => l.certIndex === cert.certIndex)
      .map((l, i) => ({ name: `replay${cert.certIndex}-${i}`, host: l.address, port: l.port, protocols: ['h1', 'h2', 'h3'], handle: proxyTo(dial) }))
    const caddy = await startCaddy(servers, certs.leaves[cert.certIndex])
    closers.push(() => caddy.close())
    caddys.push(caddy)
  }
  return { upstream: dial, caddys: caddys.map(c => ({ pid: c.pid, version: c.version, warning: c.warning })) }
}

module.exports = { startReplay, replayCertificates, namespaceRefusal, variantRefusal, variantNote, ReplayError, PROTOCOLS, EDGE_PROTOCOLS, VARIANTS }

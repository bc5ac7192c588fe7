'use strict'

// A web-like on/off cross flow (cross=web): fetch an object, think, repeat.
// The shape is the classic one of web traffic models: Mah's empirical HTTP
// model (INFOCOM '97: objects fetched, then the user's "think time" before the
// next page) and the 3GPP2 / IEEE 802.16m web-browsing model (lognormal object
// sizes, an exponential reading time, 30 s on average there). The numbers are
// ours, sized for benchmark runs of seconds, not a user's session of minutes:
// objects lognormal with a median of 64 KB and sigma 1.2 (mean ≈ 131 KB),
// drawn again outside 1 KB … 4 MB; think times exponential with a mean of 1 s,
// capped at 10 s. One keep-alive HTTP/1.1 connection, as a browser keeps to a
// site, so an object after a pause starts in TCP's restart after idle.
//
// The server is an HTTP server in this process at the link's server address
// (down: it sends each object; up: it counts what arrives), the client is
// harness/cross-traffic/web-client.js run by Node in the client namespace. The receiver
// counts: the client down, this server up.

const http = require('node:http')
const path = require('node:path')
const { waitExit, followCounts } = require('./processes')

const WEB_MODEL = {
  sizes: { medianBytes: 64 * 1024, sigma: 1.2, minBytes: 1024, maxBytes: 4 * 1024 * 1024 },
  think: { meanMs: 1000, maxMs: 10000 }
}
const CLIENT = path.join(__dirname, 'web-client.js')
const CHUNK = Buffer.alloc(64 * 1024, 0x62)
const MAX_OBJECT = WEB_MODEL.sizes.maxBytes
const STOP_TIMEOUT_MS = 3000

// The server of one web flow: GET /object?bytes=N sends N bytes, POST /object counts the body.
function webServer (host) {
  const counted = { bytes: 0 }
  const server = http.createServer((req, res) => {
    const url = new URL(req.url, 'http://x')
    if (url.pathname !== '/object') return res.writeHead(404).end()
    if (req.method === 'POST') {
      req.on('data', d => { counted.bytes += d.length })
      req.once('end', () => res.writeHead(204).end())
      return
    }
    const bytes = Number(url.searchParams.get('bytes'))
    if (!Number.isInteger(bytes) || bytes < 0 || bytes > MAX_OBJECT) return res.writeHead(400).end()
    res.writeHead(200, { 'content-length': bytes, 'content-type': 'application/octet-stream', 'cache-control': 'no-store' })
    let left = bytes
    const pump = () => {
      while (left > 0) {
        const n = Math.min(left, CHUNK.length)
        left -= n
        if (!res.write(n === CHUNK.length ? CHUNK : CHUNK.subarray(0, n))) return res.once('drain', pump)
      }
      res.end()
    }
    pump()
  })
  server.keepAliveTimeout = 2 * WEB_MODEL.think.maxMs // longer than any pause: the connection stays
  server.on('clientError', (err, socket) => socket.destroy(err))
  return new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, host, () => resolve({ server, counted, port: server.address().port }))
  })
}

async function startWebFlow ({ opened, group }, { kind, direction, seed }) {
  const { server, counted, port } = await webServer(opened.serverAddress)
  const params = { host: opened.serverAddress, port, direction, seed, model: WEB_MODEL }
  const client = group.spawnInside(process.execPath, [CLIENT, JSON.stringify(params)], { stdio: ['pipe', 'pipe', 'pipe'] })
  const counts = followCounts(client)
  const startedAt = Date.now()
  return {
    kind,
    direction,
    tcp: { side: direction === 'down' ? 'inside' : 'outside', port }, // where the receiver's sockets are (harness/cross-traffic/tcp-info.js)
    pids: () => [client.pid],
    stop () {
      const serverBytes = counted.bytes // up: what arrived by now, when every flow is stopped
      const stoppedAt = Date.now()
      client.stdin.end()
      return (async () => {
        await Promise.race([counts.finished, new Promise(resolve => setTimeout(resolve, STOP_TIMEOUT_MS))])
        const last = counts.last()
        if (!await waitExit(client, 1000)) client.kill('SIGKILL')
        server.closeAllConnections()
        await new Promise(resolve => server.close(() => resolve()))
        let error = null
        if (!last) error = `the web client printed nothing: ${client.stderrTail.trim() || 'no reason given'}`
        else if (last.error) error = last.error
        else if (!last.objects) error = `no object fetched${last.lastError ? `: ${last.lastError}` : ''}`
        const bytes = direction === 'up' ? serverBytes : (last && !last.error ? last.bytes : 0)
        return {
          bytes,
          // An on/off flow's throughput is over its whole life, pauses included: what it took from the link.
          seconds: last && last.ms ? last.ms / 1000 : (stoppedAt - startedAt) / 1000,
          onSeconds: last && last.onMs !== undefined ? last.onMs / 1000 : null,
          objects: last ? last.objects || 0 : 0,
          error,
          wallSeconds: (Date.now() - startedAt) / 1000
        }
      })()
    }
  }
}

module.exports = { startWebFlow, webServer, WEB_MODEL }

'use strict'

// A TLS server that is NOT an h2bench lane, for h2bench load --url's tests:
// node:http2 with HTTP/1.1 allowed (ALPN h2 and http/1.1), its own throw-away
// certificate (test/support/certificate.js), no /lane, no ?ledger=, no
// /lanes.json: every path answers 404 but `path`, a fixed body. On 127.0.0.1
// only. `h1Only`: ALPN http/1.1 alone (node:https), as many a server.
const https = require('node:https')
const http2 = require('node:http2')
const { testCertificate } = require('./certificate')

async function startPlainServer ({ path = '/hello', body = 'x'.repeat(1000), h1Only = false } = {}) {
  const tls = await testCertificate()
  let requests = 0
  const handler = (req, res) => {
    const url = new URL(req.url, 'https://x')
    if (url.pathname !== path) {
      res.writeHead(404, { 'content-type': 'text/plain' })
      return res.end('not here\n')
    }
    requests++
    res.writeHead(200, { 'content-type': 'text/plain', 'content-length': Buffer.byteLength(body) })
    res.end(body)
  }
  const options = { key: tls.key, cert: tls.cert }
  const server = h1Only ? https.createServer(options, handler) : http2.createSecureServer({ ...options, allowHTTP1: true }, handler)
  const sockets = new Set()
  server.on('secureConnection', s => { sockets.add(s); s.once('close', () => sockets.delete(s)) })
  await new Promise(resolve => server.listen(0, '127.0.0.1', resolve))
  const port = server.address().port
  return {
    url: `https://127.0.0.1:${port}${path}`,
    port,
    ca: tls.ca,
    get requests () { return requests },
    close: () => new Promise(resolve => { for (const s of sockets) s.destroy(); server.close(() => resolve()) })
  }
}

module.exports = { startPlainServer }

'use strict'

const https = require('node:https')
const http2 = require('node:http2')
const tls = require('node:tls')

// Minimal real clients for the lanes: node:https for HTTP/1.1 and
// node:http2 for h2. Both verify the test certificate (no rejectUnauthorized
// shortcuts), so a wrong SAN or chain fails the test.

function h1Get (url, { ca, headers = {} } = {}) {
  return new Promise((resolve, reject) => {
    const req = https.get(url, { ca, ALPNProtocols: ['http/1.1'], headers, agent: false }, res => {
      const chunks = []
      res.on('data', c => chunks.push(c))
      res.on('end', () => resolve({
        status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks), alpn: res.socket.alpnProtocol
      }))
      res.on('error', reject)
    })
    req.on('error', reject)
  })
}

// An h2 session that can make several requests; `enablePush` is what the
// client announces in SETTINGS_ENABLE_PUSH.
function h2Session (origin, { ca, enablePush = false } = {}) {
  const session = http2.connect(origin, { ca, settings: { enablePush } })
  const pushes = []
  session.on('stream', (stream, headers) => {
    const chunks = []
    const push = { headers, body: null, done: null }
    push.done = new Promise((resolve, reject) => {
      stream.on('push', h => { push.responseHeaders = h })
      stream.on('data', c => chunks.push(c))
      stream.on('end', () => { push.body = Buffer.concat(chunks); resolve(push) })
      stream.on('error', reject)
    })
    pushes.push(push)
  })
  function get (path, headers = {}) {
    return new Promise((resolve, reject) => {
      const req = session.request({ ':path': path, ...headers })
      const chunks = []
      let responseHeaders
      req.on('response', h => { responseHeaders = h })
      req.on('data', c => chunks.push(c))
      req.on('end', () => resolve({
        status: responseHeaders[':status'], headers: responseHeaders, body: Buffer.concat(chunks), alpn: session.alpnProtocol
      }))
      req.on('error', reject)
      req.end()
    })
  }
  const close = () => new Promise(resolve => session.close(resolve))
  return { session, get, pushes, close }
}

async function h2Get (url, opts = {}) {
  const u = new URL(url)
  const s = h2Session(u.origin, opts)
  try {
    return await s.get(u.pathname + u.search)
  } finally {
    await s.close()
  }
}

// What protocol a TLS handshake that offers `protocols` ends with: the ALPN
// result, or the error when the server refuses the handshake.
function alpnHandshake (url, protocols, { ca } = {}) {
  const u = new URL(url)
  return new Promise(resolve => {
    const socket = tls.connect({ host: u.hostname, port: Number(u.port), ca, ALPNProtocols: protocols, servername: 'localhost' })
    socket.once('secureConnect', () => { resolve({ alpn: socket.alpnProtocol }); socket.destroy() })
    socket.once('error', err => resolve({ error: err.code || err.message }))
  })
}

// Connects without offering ALPN at all and sends an HTTP/1.1 request:
// resolves with what came back ('' when the server just closed).
function noAlpnRequest (url, { ca } = {}) {
  const u = new URL(url)
  return new Promise(resolve => {
    const socket = tls.connect({ host: u.hostname, port: Number(u.port), ca, servername: 'localhost' })
    let reply = ''
    socket.once('secureConnect', () => socket.write('GET /lane HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n'))
    socket.on('data', d => { reply += d })
    socket.on('close', () => resolve(reply))
    socket.on('error', () => {})
  })
}

// GET over the protocol the lane speaks.
function laneGet (lane, path, opts) {
  return lane.protocol === 'h2' ? h2Get(lane.url + path, opts) : h1Get(lane.url + path, opts)
}

module.exports = { h1Get, h2Get, h2Session, alpnHandshake, noAlpnRequest, laneGet }

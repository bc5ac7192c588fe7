'use strict'

const https = require('node:https')
const http2 = require('node:http2')
const tls = require('node:tls')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const crypto = require('node:crypto')
const { execFile } = require('node:child_process')
const { ensureH3get } = require('../../tools/h3get/build')

// Minimal real clients for the lanes: node:https for HTTP/1.1, node:http2
// for h2, and h3get (tools/h3get: quic-go's http3 client, built on first
// use) for HTTP/3 over QUIC. All verify the test certificate (no
// rejectUnauthorized shortcuts), so a wrong SAN or chain fails the test.

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
      req.on('end', () => {
        // A stream can end without a response (the server reset it, or went away).
        if (!responseHeaders) return reject(new Error(`h2 GET ${path}: the stream ended without a response`))
        resolve({ status: responseHeaders[':status'], headers: responseHeaders, body: Buffer.concat(chunks), alpn: session.alpnProtocol })
      })
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

// The CA as a file for h3get (--ca FILE): one per certificate, removed at exit.
const caFiles = new Map()
let caDir = null
function caFile (ca) {
  const pem = Buffer.from(ca)
  const key = crypto.createHash('sha256').update(pem).digest('hex')
  if (!caFiles.has(key)) {
    if (!caDir) {
      caDir = fs.mkdtempSync(path.join(os.tmpdir(), 'h2bench-h3get-'))
      process.once('exit', () => fs.rmSync(caDir, { recursive: true, force: true }))
    }
    const file = path.join(caDir, `${key.slice(0, 16)}.pem`)
    fs.writeFileSync(file, pem)
    caFiles.set(key, file)
  }
  return caFiles.get(key)
}

// Runs h3get with `args` (its modes: --repeat, --cancel, --alpn, …) for
// `url`, asynchronously (the servers run in this process). Resolves with
// its JSON result, which is { error } when h3get failed (exit code 1);
// rejects only when h3get did not run or printed no JSON.
async function h3get (url, args = [], { ca, headers = {}, timeoutMs = 30000 } = {}) {
  const binary = await ensureH3get()
  const argv = [...(ca ? ['--ca', caFile(ca)] : []), '--timeout', `${timeoutMs}ms`,
    ...Object.entries(headers).flatMap(([name, value]) => ['-H', `${name}: ${value}`]), ...args, url]
  return new Promise((resolve, reject) => {
    // The body comes base64 in the JSON: 16 MiB is about 22 MB of output.
    execFile(binary, argv, { maxBuffer: 256 * 1024 * 1024, timeout: timeoutMs + 5000 }, (err, stdout, stderr) => {
      let result
      try {
        result = JSON.parse(stdout)
      } catch {
        return reject(new Error(`h3get ${argv.join(' ')}: ${err ? err.message : 'no JSON'} ${String(stderr).trim()}`))
      }
      if (err && !result.error) return reject(new Error(`h3get ${argv.join(' ')}: ${err.message}`))
      resolve(result)
    })
  })
}

// Registers a before() hook that builds h3get if needed (the first build
// fetches quic-go through Go's module proxy: about 30-45 s on 2 cores), so no
// test's own timeout pays for it. Call it in a describe() before useServers().
function useH3Client () {
  before(function () {
    this.timeout(11 * 60 * 1000)
    return ensureH3get()
  })
}

// One GET over HTTP/3 (QUIC), in h1Get's and h2Get's shape, plus `proto`
// ("HTTP/3.0") and `timings`; alpn is what the QUIC handshake negotiated.
async function h3Get (url, opts = {}) {
  const r = await h3get(url, [], opts)
  if (r.error) throw new Error(`HTTP/3 GET ${url}: ${r.error}`)
  return { status: r.status, headers: r.headers, body: Buffer.from(r.body, 'base64'), alpn: r.alpn, proto: r.proto, timings: r.timings }
}

// GET over the protocol the lane speaks.
function laneGet (lane, path, opts) {
  if (lane.protocol === 'h3') return h3Get(lane.url + path, opts)
  return lane.protocol === 'h2' ? h2Get(lane.url + path, opts) : h1Get(lane.url + path, opts)
}

module.exports = { h1Get, h2Get, h3Get, h3get, useH3Client, h2Session, alpnHandshake, noAlpnRequest, laneGet }

'use strict'

// The clients of the fuzz test (fuzz.test.js). Each sends one burst of
// requests (fuzz-requests.js) at once, waits for every one, then sends a plain
// request on the same connection, and reports in one shape:
//   { outcomes: [{ status, ms, reset? } | { kind, code, ms }], plain: { status, reused } | { kind, … },
//     closed: null | { how, count, goaway, clean }, resets: { CODE: n } }
// kind, for a request without an answer: 'reset' (the server reset the stream:
// `code`), 'refused' (above a GOAWAY's last stream), 'closed' (the connection
// ended), 'timeout' (nothing within the bound), 'client' (the client library
// would not send it: not counted as sent); for one answered: 'open' (the
// stream still open at the bound: the server held the upload), 'truncated'
// (fewer bytes than its Content-Length), 'client-stuck' (see h2Request).
// `resets` counts the stream resets the client saw, by code (NO_ERROR ones
// after an answer are not visible to these clients: fuzz.test.js counts those
// at the Node lanes' servers).
//   HTTP/2: Node's http2 client.
//   HTTP/1.1: node:https (node:http for the page server), a keep-alive agent.
//   HTTP/3: h3fuzz/ (quic-go's http3, built with Go like tools/h3get).

const http = require('node:http')
const https = require('node:https')
const http2 = require('node:http2')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { execFile } = require('node:child_process')

const H2_ERRORS = ['NO_ERROR', 'PROTOCOL_ERROR', 'INTERNAL_ERROR', 'FLOW_CONTROL_ERROR', 'SETTINGS_TIMEOUT', 'STREAM_CLOSED',
  'FRAME_SIZE_ERROR', 'REFUSED_STREAM', 'CANCEL', 'COMPRESSION_ERROR', 'CONNECT_ERROR', 'ENHANCE_YOUR_CALM',
  'INADEQUATE_SECURITY', 'HTTP_1_1_REQUIRED']
// nghttp2's state of a stream it no longer has (Node reports it so), and of a closed one.
const STREAM_GONE = http2.constants.NGHTTP2_STREAM_STATE_IDLE
const { NGHTTP2_STREAM_STATE_CLOSED } = http2.constants
const h2Error = code => H2_ERRORS[code] || `0x${code.toString(16)}`
// RFC 9114 §8.1 (and RFC 9204's QPACK codes).
const H3_ERRORS = {
  0x100: 'H3_NO_ERROR', 0x101: 'H3_GENERAL_PROTOCOL_ERROR', 0x102: 'H3_INTERNAL_ERROR', 0x103: 'H3_STREAM_CREATION_ERROR',
  0x104: 'H3_CLOSED_CRITICAL_STREAM', 0x105: 'H3_FRAME_UNEXPECTED', 0x106: 'H3_FRAME_ERROR', 0x107: 'H3_EXCESSIVE_LOAD',
  0x108: 'H3_ID_ERROR', 0x109: 'H3_SETTINGS_ERROR', 0x10a: 'H3_MISSING_SETTINGS', 0x10b: 'H3_REQUEST_REJECTED',
  0x10c: 'H3_REQUEST_CANCELLED', 0x10d: 'H3_REQUEST_INCOMPLETE', 0x10e: 'H3_MESSAGE_ERROR', 0x10f: 'H3_CONNECT_ERROR',
  0x110: 'H3_VERSION_FALLBACK', 0x200: 'QPACK_DECOMPRESSION_FAILED', 0x201: 'QPACK_ENCODER_STREAM_ERROR', 0x202: 'QPACK_DECODER_STREAM_ERROR'
}
const h3Error = code => H3_ERRORS[code] || `0x${code.toString(16)}`
// The codes that blame the server itself: never the answer to a client's input.
const INTERNAL = new Set(['INTERNAL_ERROR', 'H3_INTERNAL_ERROR'])

// Request bodies are views of one block (a fuzz burst sends up to 200 MB).
const BODY = Buffer.alloc(2 * 1024 * 1024, 'x')
const bodyOf = r => r.text !== null && r.text !== undefined ? Buffer.from(r.text) : BODY.subarray(0, r.body)

const count = (map, key, n = 1) => { map[key] = (map[key] || 0) + n }

// One HTTP/2 session to `url`, and what the server said of it (its GOAWAY).
// maxSessionMemory: the client's own guard is not under test. Node's client
// counts the request bodies it has queued and not yet sent against it (10 MB
// by default), refuses every response while over (resetting those streams
// itself, INTERNAL_ERROR and ENHANCE_YOUR_CALM), and never gives back what a
// stream reset before sending held: 100 × 100 KB at once poisoned its session
// for good (issue 34's first case: request-bodies.test.js shows it).
// Its socket is Node's own TLS socket: wrapped in a stream of JavaScript (to
// read the server's frames on the way), the client left far more streams
// open after a NO_ERROR reset (see h2Request), which would blame no server.
function h2Connect (url, ca) {
  const session = http2.connect(new URL(url).origin, { ca, servername: 'localhost', maxSessionMemory: 1 << 20 })
  const seen = { goaway: null, ended: false }
  session.on('error', () => {})
  session.on('goaway', (code, lastId, opaque) => { seen.goaway = { code: h2Error(code), lastId, debug: opaque ? opaque.toString() : '' } })
  session.on('close', () => { seen.ended = true })
  return { session, seen, close: () => session.destroy() }
}

// One request on `session`; resolves { status, ms } once its stream closed
// (`reset`: the code of a RST_STREAM that ended it after the answer), or with
// `kind` when it got no answer. Node's client reports a stream's end as its
// rstCode, 0 for a normal end too, so a RST_STREAM NO_ERROR (RFC 9113 §8.1:
// "stop sending, no error") is not told apart here: fuzz.test.js counts those
// at the Node lanes' servers.
function h2Request (conn, r, { within, origin }) {
  const { session, seen } = conn
  const started = Date.now()
  return new Promise(resolve => {
    let req
    const headers = { ':method': r.method, ':path': r.path, ':authority': new URL(origin).host }
    for (const [name, value] of r.headers) headers[name] = value
    const hasBody = r.body > 0 || r.text !== null
    try {
      req = session.request(headers, { endStream: !hasBody })
    } catch (err) {
      return resolve({ kind: 'client', error: err.code || err.message })
    }
    let status = null
    let expected = null // the response's Content-Length, when it has a body
    let received = 0
    let done = false
    let refusedByClient = null
    let poll = null
    const finish = outcome => {
      if (done) return
      done = true
      clearTimeout(timer)
      clearInterval(poll)
      resolve({ ...outcome, ms: Date.now() - started })
    }
    const timer = setTimeout(() => {
      finish(status === null ? { kind: 'timeout' } : { status, kind: 'open', error: `answered ${status}, but the stream was still open after ${within} ms` })
      req.close(http2.constants.NGHTTP2_CANCEL)
    }, within)
    req.on('response', h => {
      status = h[':status']
      const length = h['content-length']
      if (length !== undefined && r.method !== 'HEAD' && status !== 204 && status !== 304) expected = Number(length)
      // Answered, and the stream gone from the client's nghttp2 (the server
      // reset it after a complete answer: `closed`), yet no 'close' for a
      // second: Node's client at times neither writes nor fails a request body
      // it still held then (RFC 9113 §8.1 allows the reset), and its stream
      // waits for that write for good, never destroyed. The server did its
      // part; counted apart, not as a stream the server kept open.
      let seenGone = 0
      poll = setInterval(() => {
        const state = req.destroyed ? undefined : req.state.state
        seenGone = state === STREAM_GONE || state === NGHTTP2_STREAM_STATE_CLOSED ? seenGone + 1 : 0
        if (seenGone >= 4 && !req.destroyed) {
          finish({ status, kind: 'client-stuck', error: `answered ${status}; the server ended the stream, Node's client never closed it (${req.writableLength} B of its body still queued)` })
          req.destroy()
        }
      }, 250)
    })
    req.on('data', chunk => { received += chunk.length })
    req.on('frameError', (type, code) => { refusedByClient = `frame type ${type} not sent (${code})` })
    req.on('error', () => {})
    req.resume()
    req.on('close', () => {
      if (refusedByClient) return finish({ kind: 'client', error: refusedByClient })
      const code = h2Error(req.rstCode || 0)
      if (status !== null) {
        if (expected !== null && received !== expected) return finish({ status, kind: 'truncated', code, error: `answered ${status} with ${received} of its ${expected} bytes, then ${code}` })
        return finish({ status, ...(req.rstCode ? { reset: code } : {}) })
      }
      if (seen.goaway && req.id > seen.goaway.lastId) return finish({ kind: 'refused', code: seen.goaway.code })
      if (req.rstCode) return finish({ kind: 'reset', code })
      if (session.destroyed || seen.ended || seen.goaway) return finish({ kind: 'closed', code: seen.goaway ? seen.goaway.code : null })
      finish({ kind: 'client', error: `closed with no answer and no code (rstCode ${req.rstCode})` })
    })
    if (hasBody) req.end(bodyOf(r))
  })
}

async function h2Burst (url, ca, requests, { within, plainPath }) {
  const conn = h2Connect(url, ca)
  await new Promise(resolve => { conn.session.once('connect', resolve); conn.session.once('close', resolve) })
  const outcomes = await Promise.all(requests.map(r => h2Request(conn, r, { within, origin: url })))
  const resets = {}
  for (const o of outcomes) if (o.reset || o.kind === 'reset') count(resets, o.reset || o.code)
  let closed = null
  let plain
  if (!conn.session.destroyed && !conn.session.closed && !conn.seen.goaway && !conn.seen.ended) {
    plain = await h2Request(conn, { method: 'GET', path: plainPath, headers: [], body: 0, text: null }, { within, origin: url })
    plain.reused = true
  }
  if (!plain || plain.kind) {
    // The connection ended: cleanly when the server said why with a GOAWAY
    // (INTERNAL_ERROR blames the server) or closed it after every answer.
    const goaway = conn.seen.goaway
    const how = goaway ? `GOAWAY ${goaway.code}${goaway.debug ? ` ("${goaway.debug}")` : ''}` : 'closed without a GOAWAY'
    closed = { how, count: 1, goaway: goaway ? goaway.code : null, clean: goaway ? !INTERNAL.has(goaway.code) : outcomes.every(o => o.status !== undefined) }
    if (plain && plain.kind) closed.plainOnIt = plain
    conn.close()
    const fresh = h2Connect(url, ca)
    plain = await h2Request(fresh, { method: 'GET', path: plainPath, headers: [], body: 0, text: null }, { within, origin: url })
    plain.reused = false
    fresh.close()
  } else {
    conn.close()
  }
  return { outcomes, plain, closed, resets, goaway: conn.seen.goaway && conn.seen.goaway.code }
}

// HTTP/1.1: `requests` over an agent of `sockets` keep-alive connections.
async function h1Burst (url, ca, requests, { within, plainPath, sockets }) {
  const mod = url.startsWith('https:') ? https : http
  const agent = new mod.Agent({ keepAlive: true, maxSockets: sockets, ...(ca ? { ca } : {}) })
  const conns = new Set()
  const one = r => new Promise(resolve => {
    const started = Date.now()
    let done = false
    const finish = outcome => {
      if (done) return
      done = true
      clearTimeout(timer)
      resolve({ ...outcome, ms: Date.now() - started })
    }
    let req
    const headers = Object.fromEntries(r.headers)
    // Framed, always: Node's client sends a GET, HEAD, DELETE, OPTIONS or
    // TRACE body with neither Content-Length nor chunked encoding, so the
    // server reads it as the next request (a 400 and a closed connection,
    // for the requests queued behind it too).
    const body = r.body > 0 || r.text !== null ? bodyOf(r) : null
    if (body) headers['content-length'] = String(body.length)
    try {
      req = mod.request(url + r.path, { method: r.method, agent, headers, ...(ca ? { ca, servername: 'localhost', ALPNProtocols: ['http/1.1'] } : {}) }, res => {
        res.resume()
        res.on('end', () => finish({ status: res.statusCode, reused: req.reusedSocket }))
        res.on('error', err => finish({ status: res.statusCode, kind: 'closed', error: err.code || err.message }))
      })
    } catch (err) {
      return resolve({ kind: 'client', error: err.code || err.message })
    }
    const timer = setTimeout(() => { finish({ kind: 'timeout' }); req.destroy() }, within)
    req.on('socket', s => conns.add(s))
    req.on('error', err => finish({ kind: 'closed', error: err.code || err.message }))
    req.end(body || undefined)
  })
  const outcomes = await Promise.all(requests.map(one))
  // The connections still open must each serve a plain request; those the
  // server closed must have answered everything first.
  const open = Object.values(agent.freeSockets).flat().length
  const plains = await Promise.all(Array.from({ length: Math.max(open, 1) }, () => one({ method: 'GET', path: plainPath, headers: [], body: 0, text: null })))
  const closedConns = [...conns].filter(s => s.destroyed).length
  const plain = plains.find(p => p.kind || p.status !== 200 || (open > 0 && !p.reused)) || plains[0]
  agent.destroy()
  return {
    outcomes,
    plain: { ...plain, reused: open > 0 ? plains.every(p => p.reused) : false },
    closed: closedConns ? { how: `${closedConns} of ${conns.size} connections closed by the server`, count: closedConns, goaway: null, clean: outcomes.every(o => o.status !== undefined) } : null,
    resets: {},
    connections: conns.size
  }
}

// HTTP/3: h3fuzz, built once (test/support/h3fuzz.js; test/run.js builds it before the tests' namespace).
const { ensureH3fuzz } = require('../../support/h3fuzz')

let caPath = null
function caFileOf (ca) {
  if (!caPath) {
    caPath = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'h2bench-fuzz-')), 'ca.pem')
    process.once('exit', () => fs.rmSync(path.dirname(caPath), { recursive: true, force: true }))
  }
  fs.writeFileSync(caPath, ca)
  return caPath
}

async function h3Burst (url, ca, requests, { within, plainPath }) {
  const binary = await ensureH3fuzz()
  const burst = {
    url,
    timeoutMs: within,
    plain: plainPath,
    requests: requests.map(r => ({ method: r.method, path: r.path, headers: r.headers, body: r.body }))
  }
  const out = await new Promise((resolve, reject) => {
    const child = execFile(binary, ['--ca', caFileOf(ca)], { maxBuffer: 64 * 1024 * 1024, timeout: 4 * within }, (err, stdout, stderr) => {
      try {
        const parsed = JSON.parse(stdout)
        if (parsed.error) return reject(new Error(`h3fuzz: ${parsed.error}`))
        resolve(parsed)
      } catch {
        reject(new Error(`h3fuzz: ${err ? err.message : 'no JSON'} ${String(stderr).trim()}`))
      }
    })
    child.stdin.end(JSON.stringify(burst))
  })
  const resets = {}
  const outcome = o => {
    if (o.status && !o.error) return { status: o.status, ms: o.ms }
    const code = o.code === undefined ? null : h3Error(o.code)
    if (o.status) {
      // Answered, then the stream was reset: after a complete response, that is how an unread request body ends.
      if (code) count(resets, code)
      return { status: o.status, ms: o.ms, ...(o.kind === 'timeout' ? { kind: 'open', error: o.error } : {}) }
    }
    if (o.kind === 'stream' && code) count(resets, code)
    const kind = { stream: 'reset', connection: 'closed', timeout: 'timeout' }[o.kind] || 'client'
    return { kind, code, error: o.error, ms: o.ms }
  }
  const outcomes = out.results.map(outcome)
  const closed = out.closed
    ? {
        how: `connection closed: ${out.closed.code !== undefined ? h3Error(out.closed.code) : ''} ${out.closed.error}`.trim(),
        count: 1,
        goaway: out.closed.code !== undefined ? h3Error(out.closed.code) : null,
        clean: out.closed.code !== undefined && !INTERNAL.has(h3Error(out.closed.code))
      }
    : null
  return { outcomes, plain: { ...outcome(out.plain), reused: out.connections === 1 }, closed, resets }
}

module.exports = { h2Burst, h1Burst, h3Burst, ensureH3fuzz, h2Connect, h2Request, INTERNAL, h2Error }

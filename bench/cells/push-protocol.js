'use strict'

// Server push measured at the protocol level: browsers refuse push today
// (SETTINGS_ENABLE_PUSH=0), but Node's http2.connect() accepts it. Each
// sample loads a page and its N scripts on a fresh session, either pushed
// with the page or requested after the page arrived, under a server delay
// that applies to the page and to every requested script (server/routes/push.js).
const http2 = require('node:http2')
const { performance } = require('node:perf_hooks')
const stats = require('../../shared/stats')
const { LANES } = require('../../server/lanes')

const SAMPLE_TIMEOUT = 60000
// Chromium's receive windows (6 MiB per stream, 15 MiB per connection): the
// question is what a browser would get if it accepted push. Node's 64 KiB
// default would add window round trips no browser has.
const STREAM_WINDOW = 6 * 1024 * 1024
const CONNECTION_WINDOW = 15 * 1024 * 1024
// Pushed streams the client keeps reserved at once. Node's default, 200,
// refuses the rest: a REST collection of 500 items got 200 pushed (measured).
// Room for the largest push a lane makes (1,000 items).
const MAX_RESERVED_PUSHES = 2000

function checkLanes (lanes) {
  if (!Array.isArray(lanes) || lanes.length === 0) {
    throw new TypeError('runPushProtocol needs lanes: a non-empty array of started lanes { name, url }')
  }
  for (const lane of lanes) {
    const protocol = lane.protocol ?? LANES.find(l => l.name === lane.name)?.protocol
    if (protocol !== 'h2') {
      throw new Error(`lane ${lane.name} is not an HTTP/2 lane (${protocol ?? 'unknown protocol'}): push exists only in HTTP/2; give h2 lanes such as h2, h2n`)
    }
    if (!/^https:\/\//.test(lane.url ?? '')) throw new Error(`lane ${lane.name} needs the https:// url it listens on; got "${lane.url}"`)
  }
}

// A fresh session, ready once the server's SETTINGS arrived, so the
// handshake is never part of a sample. Self-signed certificate: no check.
function connect (url) {
  return new Promise((resolve, reject) => {
    const session = http2.connect(url, {
      rejectUnauthorized: false,
      maxReservedRemoteStreams: MAX_RESERVED_PUSHES,
      settings: { enablePush: true, initialWindowSize: STREAM_WINDOW }
    })
    session.once('connect', () => session.setLocalWindowSize(CONNECTION_WINDOW))
    session.once('remoteSettings', () => { session.off('error', reject); resolve(session) })
    session.once('error', reject)
  })
}

// Resolves with { status, body } once the stream ended. `responseEvent` is
// 'response' for a request and 'push' for a pushed stream.
function read (stream, responseEvent) {
  return new Promise((resolve, reject) => {
    const chunks = []
    let status = null
    stream.once(responseEvent, h => { status = h[':status'] })
    stream.on('data', c => chunks.push(c))
    stream.once('end', () => resolve({ status, body: Buffer.concat(chunks) }))
    stream.once('error', reject)
    stream.once('close', () => reject(new Error(`stream closed before its end (code ${stream.rstCode})`)))
  })
}

function expectAsset (res, path, size) {
  if (res.status !== 200) throw new Error(`${path}: status ${res.status}`)
  if (res.body.length !== size) throw new Error(`${path}: ${res.body.length} bytes, expected ${size}`)
}

// The script URLs as the page references them (EJS escapes & as &amp;).
function assetPaths (html) {
  return [...html.matchAll(/<script src="([^"]*\/asset\/[^"]*)"/g)].map(m => m[1].replace(/&amp;/g, '&'))
}

// One timed load on a fresh session (its handshake not timed): the request
// `headers`, then every path `pathsOf(body)` names, each taken by push when
// the server promised it, else requested; `check(res, path)` each. Promises
// arrive on the first stream before its end, so what is not promised by then
// will not be pushed. → { ms, pushed }
async function loadWithPush (url, { headers, pathsOf, check, what }) {
  const session = await connect(url)
  const timer = setTimeout(() => session.destroy(new Error(`no complete ${what} within ${SAMPLE_TIMEOUT} ms`)), SAMPLE_TIMEOUT)
  // Session errors also fail the streams, where they are counted.
  session.on('error', () => {})
  const pushed = new Map()
  session.on('stream', (stream, pushHeaders) => {
    const arrived = read(stream, 'push')
    arrived.catch(() => {}) // handled when awaited; a push nobody awaits must not crash
    pushed.set(pushHeaders[':path'], arrived)
  })
  try {
    const t0 = performance.now()
    const first = await read(session.request(headers).end(), 'response')
    if (first.status !== 200) throw new Error(`${what}: status ${first.status}: ${first.body.toString().slice(0, 200)}`)
    const paths = pathsOf(first.body)
    let byPush = 0
    await Promise.all(paths.map(async path => {
      const wasPushed = pushed.has(path)
      const res = await (wasPushed ? pushed.get(path) : read(session.request({ ':path': path }).end(), 'response'))
      check(res, path)
      if (wasPushed) byPush++
    }))
    const ms = performance.now() - t0
    await new Promise(resolve => session.close(resolve))
    return { ms, pushed: byPush }
  } finally {
    clearTimeout(timer)
    if (!session.destroyed) session.destroy()
  }
}

// One page load: ms from the page request until the page and every script
// have fully arrived, and how many scripts came by push.
function sample (url, { mode, assets, size, delay }) {
  const serverMode = mode === 'push' ? 'push' : 'none'
  return loadWithPush(url, {
    what: 'page',
    headers: { ':path': `/push?assets=${assets}&size=${size}&mode=${serverMode}&delay=${delay}` },
    pathsOf (body) {
      const paths = assetPaths(body.toString())
      if (paths.length !== assets) throw new Error(`page references ${paths.length} scripts, expected ${assets}`)
      return paths
    },
    check: (res, path) => expectAsset(res, path, size)
  })
}

async function runPushProtocol ({ lanes, delays = [0, 10, 30, 100], assets = 6, size = 290 * 1024, repeats = 5, onProgress } = {}) {
  checkLanes(lanes)
  const rows = []
  const total = lanes.length * delays.length * repeats * 2
  let done = 0
  for (const lane of lanes) {
    // One unrecorded load per mode first: one-time server costs (view
    // compile, the payload block, JIT) would otherwise land in one sample.
    for (const mode of ['push', 'request']) await sample(lane.url, { mode, assets, size, delay: 0 }).catch(() => {})
    for (const delay of delays) {
      const per = { push: { samples: [], pushed: 0, failures: 0 }, request: { samples: [], pushed: 0, failures: 0 } }
      for (let r = 0; r < repeats; r++) {
        // Alternate which mode goes first, so neither always runs on a
        // server that just did the other's work.
        for (const mode of r % 2 === 0 ? ['push', 'request'] : ['request', 'push']) {
          const progress = { lane: lane.name, delay, mode, repeat: r + 1, repeats }
          try {
            const s = await sample(lane.url, { mode, assets, size, delay })
            per[mode].samples.push(s.ms)
            per[mode].pushed = s.pushed // of the last sample that completed
            progress.ms = s.ms
          } catch (err) {
            per[mode].failures++
            progress.error = err.message
          }
          if (onProgress) onProgress({ ...progress, done: ++done, total })
        }
      }
      for (const mode of ['push', 'request']) {
        const { samples, pushed, failures } = per[mode]
        rows.push({ experiment: 'push-protocol', lane: lane.name, delay, assets, size, mode, samples, summary: stats.summary(samples), pushed, failures })
      }
    }
  }
  return rows
}

module.exports = { runPushProtocol, assetPaths, loadWithPush, checkLanes }

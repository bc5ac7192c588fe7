'use strict'

// The client of a web-like cross flow (harness/cross-traffic/web.js), run by Node in the
// link's client namespace: fetch an object (down: GET it; up: POST it), think,
// repeat, on one keep-alive HTTP/1.1 connection, with object sizes and think
// times drawn from the model web.js passes (seeded: the same seed, the
// same sequence). Prints one JSON line a second and a last one when its stdin
// closes: { bytes, objects, onMs, ms, final, lastError }, bytes being the body
// bytes it received (down) or sent (up; the server counts what arrived).
//   node web-client.js '{"host", "port", "direction", "seed", "model"}'

const http = require('node:http')

// mulberry32: a small seeded generator, enough for sizes and pauses.
function random (seed) {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6D2B79F5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

// Object sizes: lognormal (median, sigma), drawn again outside [min, max] (truncated); think times: exponential, capped.
function sampler ({ sizes, think }, seed) {
  const rand = random(seed)
  const normal = () => Math.sqrt(-2 * Math.log(1 - rand())) * Math.cos(2 * Math.PI * rand())
  return {
    size () {
      for (;;) {
        const bytes = Math.round(sizes.medianBytes * Math.exp(sizes.sigma * normal()))
        if (bytes >= sizes.minBytes && bytes <= sizes.maxBytes) return bytes
      }
    },
    thinkMs: () => Math.min(think.maxMs, -think.meanMs * Math.log(1 - rand()))
  }
}

const CHUNK = Buffer.alloc(64 * 1024, 0x61)

function fetchObject (agent, { host, port, direction }, bytes, counter) {
  return new Promise((resolve, reject) => {
    const up = direction === 'up'
    const req = http.request({
      host,
      port,
      agent,
      method: up ? 'POST' : 'GET',
      path: up ? '/object' : `/object?bytes=${bytes}`,
      headers: up ? { 'content-length': bytes, 'content-type': 'application/octet-stream' } : {}
    }, res => {
      res.on('data', d => { if (!up) counter.bytes += d.length })
      res.once('end', () => (res.statusCode < 300 ? resolve() : reject(new Error(`HTTP ${res.statusCode}`))))
      res.once('error', reject)
    })
    req.once('error', reject)
    if (!up) return req.end()
    let left = bytes
    const pump = () => {
      while (left > 0) {
        const n = Math.min(left, CHUNK.length)
        left -= n
        counter.bytes += n
        if (!req.write(n === CHUNK.length ? CHUNK : CHUNK.subarray(0, n))) return req.once('drain', pump)
      }
      req.end()
    }
    pump()
  })
}

async function main (params) {
  const start = process.hrtime.bigint()
  const sinceStart = () => Number(process.hrtime.bigint() - start) / 1e6
  const counter = { bytes: 0, objects: 0, onMs: 0, lastError: null }
  const line = final => JSON.stringify({ bytes: counter.bytes, objects: counter.objects, onMs: Math.round(counter.onMs), ms: Math.round(sinceStart()), final, lastError: counter.lastError }) + '\n'
  process.stdin.resume()
  process.stdin.once('end', () => process.stdout.write(line(true), () => process.exit(0)))
  process.stdin.once('error', () => process.exit(0))
  setInterval(() => process.stdout.write(line(false)), 1000).unref()
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 })
  const draw = sampler(params.model, params.seed)
  for (;;) {
    const t0 = sinceStart()
    try {
      await fetchObject(agent, params, draw.size(), counter)
      counter.objects++
    } catch (err) {
      counter.lastError = err.message
    }
    counter.onMs += sinceStart() - t0
    await new Promise(resolve => setTimeout(resolve, draw.thinkMs()))
  }
}

if (require.main === module) {
  main(JSON.parse(process.argv[2])).catch(err => {
    process.stdout.write(JSON.stringify({ error: err.message }) + '\n')
    process.exit(1)
  })
}

module.exports = { sampler, random }

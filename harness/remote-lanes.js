'use strict'

// Lanes on another machine (npm start -- --lanes-only there): the manifest any
// of them serves (GET /lanes.json: each lane's URL, the certificate's SPKI
// hash, the limits, whether a token is needed), and the round trip to them,
// measured by TCP connects. Used by h2bench load --lanes-at and the runner's
// --lanes-at. The lanes' own checks (GET /lane) are the caller's.
const net = require('node:net')
const { getJson } = require('./lane-json')
const { UserError } = require('../common/errors')
const { median } = require('../shared/stats')

class RemoteLanesError extends UserError {
  constructor (message, options = {}) {
    super(message, { status: 400, code: 'H2B_REMOTE_LANES', ...options })
  }
}

// → { at, manifest, lanes: [{ name, label, protocol, url }] (those of `names`, or all), spki, rttMs, rttSamples }.
async function readRemoteLanes ({ at, names = null, token = null, flag = '--lanes-at' }) {
  let u
  try {
    u = new URL(at)
  } catch {
    throw new RemoteLanesError(`${flag} "${at}" is not a URL; give a lane's https:// URL on the other machine, e.g. https://192.0.2.7:3001`)
  }
  if (u.protocol !== 'https:') throw new RemoteLanesError(`${flag} ${at}: lanes speak https:// only`)
  const base = `${u.protocol}//${u.host}`
  let answer
  try {
    // Over HTTP/2 when HTTP/1.1 fails (an h2-only lane); when both fail, HTTP/1.1's error says why (connection refused, …).
    answer = await getJson(base, '/lanes.json', { timeoutMs: 5000 }).catch(first => getJson(base, '/lanes.json', { timeoutMs: 5000, h2: true }).catch(() => { throw first }))
  } catch (err) {
    throw new RemoteLanesError(`${flag} ${at}: no lane manifest there (${err.message.split('\n')[0]}); start the lanes with npm start -- --lanes-only --host <address> on that machine`)
  }
  const manifest = answer.json
  if (answer.status !== 200 || !manifest || !Array.isArray(manifest.lanes)) throw new RemoteLanesError(`${flag} ${at}: GET /lanes.json answered status ${answer.status}, not a lane manifest`)
  if (manifest.tokenRequired && !token) throw new RemoteLanesError(`${flag} ${at}: those lanes listen beyond loopback and their ledgers need the token they printed at start: add --token <token>`)
  const missing = (names || []).filter(n => !manifest.lanes.some(l => l.name === n))
  if (missing.length) throw new RemoteLanesError(`${flag} ${at}: no lane ${missing.join(', ')} there; it runs ${manifest.lanes.map(l => l.name).join(', ')}`)
  const lanes = manifest.lanes.filter(l => !names || names.includes(l.name))
  if (!lanes.length) throw new RemoteLanesError(`${flag} ${at}: the manifest lists no lane`)
  const rttSamples = await connectTimes(u.hostname, Number(new URL(lanes[0].url).port))
  return { at: base, manifest, lanes, spki: manifest.spki, rttMs: +median(rttSamples).toFixed(2), rttSamples: rttSamples.map(x => +x.toFixed(2)) }
}

// Five TCP connects to host:port, one after another: each is one round trip (SYN, SYN-ACK). → ms each.
async function connectTimes (host, port, n = 5) {
  const out = []
  for (let i = 0; i < n; i++) {
    out.push(await new Promise((resolve, reject) => {
      const t0 = process.hrtime.bigint()
      const socket = net.connect({ host, port }, () => { socket.destroy(); resolve(Number(process.hrtime.bigint() - t0) / 1e6) })
      socket.setTimeout(5000, () => socket.destroy(new RemoteLanesError(`no TCP connection to ${host}:${port} within 5 s`)))
      socket.once('error', reject)
    }))
  }
  return out
}

// What a TCP connect timed by connectTimes costs with no path at all: the shortest of `n` connects to a listener of
// this process's own on 127.0.0.1 (loopback's handshake, some microseconds, and this event loop's turn to see it).
// A connect to a far origin costs its round trip plus about this; a bound made of round trips takes it off
// (bench/cells/site-url.js ttfbBound).
async function connectOverheadMs (n = 5) {
  const server = net.createServer(socket => socket.destroy())
  await new Promise((resolve, reject) => server.listen(0, '127.0.0.1', resolve).once('error', reject))
  try {
    return +Math.min(...await connectTimes('127.0.0.1', server.address().port, n)).toFixed(3)
  } finally {
    await new Promise(resolve => server.close(resolve))
  }
}

// The one line that says where the lanes are and the round trip to them (the runner's log, npm start's banner).
const remoteLine = remote => `lanes at ${remote.at}: round trip ${remote.rttMs} ms (median of ${remote.rttSamples.length} TCP connects)`


module.exports = { readRemoteLanes, connectTimes, connectOverheadMs, remoteLine, RemoteLanesError }

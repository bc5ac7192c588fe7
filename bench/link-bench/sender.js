'use strict'

// The load generator of npm run bench:link, run in a path's client namespace:
//
//   node sender.js '{"mode":"udp","host":…,"port":…,"rateBps":…,"size":1472,"warmupMs":…,"durationMs":…}'
//
// udp: datagrams of `size` bytes (1472 → 1500-byte IP packets), paced to
//      rateBps at IP level by a token bucket that sleeps at least
//      MIN_SLEEP_NS between sends (bursts of up to BURST packets: at 1 Gbit/s
//      about 8 packets every 100 µs, which leaves the CPU a spinning sender
//      would take to the forwarder and the sink), or as fast as it can when
//      rateBps is 0. Each carries the
//      CLOCK_MONOTONIC time it was sent (process.hrtime.bigint(), the same
//      clock in every namespace) and a sequence number, for the sink's
//      one-way delays.
// tcp: a bulk transfer, 1 MiB writes as fast as the connection takes them.
//
// Prints a JSON line {"event":"start","t0":"<ns>"} when it starts sending and
// {"event":"done",…} when it has sent for warmupMs + durationMs: what it sent
// in the measured window [t0 + warmupMs, t0 + warmupMs + durationMs).
const dgram = require('node:dgram')
const net = require('node:net')

const IP_UDP_HEADERS = 28
const BURST = 32
const MIN_SLEEP_NS = 100_000
const RING = 4096 // buffers in flight: an asynchronous send keeps a reference to its buffer
const SLICE_NS = 20_000_000n // back to the event loop this often
const hr = process.hrtime.bigint

const opts = JSON.parse(process.argv[2])
const warmupNs = BigInt(Math.round(opts.warmupMs * 1e6))
const durationNs = BigInt(Math.round(opts.durationMs * 1e6))
const sleeper = new Int32Array(new SharedArrayBuffer(4))
const sleepNs = ns => Atomics.wait(sleeper, 0, 0, ns / 1e6)

let t0 = 0n
let windowStart = 0n
let windowEnd = 0n
const counts = { sent: 0, sentInWindow: 0, bytesInWindow: 0, errors: 0 }

function begin () {
  t0 = hr()
  windowStart = t0 + warmupNs
  windowEnd = windowStart + durationNs
  console.log(JSON.stringify({ event: 'start', t0: String(t0) }))
}

function done () {
  console.log(JSON.stringify({ event: 'done', ...counts }))
  process.exit(0)
}

function udp () {
  const sock = dgram.createSocket({ type: 'udp4', sendBufferSize: 4 * 1024 * 1024 })
  sock.on('error', () => { counts.errors++ })
  const ring = Array.from({ length: RING }, () => Buffer.alloc(opts.size))
  const packetBits = (opts.size + IP_UDP_HEADERS) * 8
  const intervalNs = opts.rateBps ? packetBits * 1e9 / opts.rateBps : 0
  let tokens = 1
  let last = 0n
  const sendOne = () => {
    const buf = ring[counts.sent % RING]
    const stamp = hr()
    buf.writeBigUInt64LE(stamp, 0)
    buf.writeUInt32LE(counts.sent % 4294967296, 8)
    sock.send(buf)
    counts.sent++
    if (stamp >= windowStart && stamp < windowEnd) {
      counts.sentInWindow++
      counts.bytesInWindow += opts.size + IP_UDP_HEADERS
    }
    return stamp
  }
  const pump = () => {
    let now = hr()
    const sliceEnd = now + SLICE_NS
    while (now < sliceEnd) {
      if (now >= windowEnd) return done()
      if (!intervalNs) {
        for (let i = 0; i < 64; i++) sendOne()
      } else {
        tokens = Math.min(BURST, tokens + Number(now - last) / intervalNs)
        last = now
        for (; tokens >= 1; tokens--) sendOne()
        sleepNs(Math.max(MIN_SLEEP_NS, (1 - tokens) * intervalNs))
      }
      now = hr()
    }
    setImmediate(pump)
  }
  sock.connect(opts.port, opts.host, () => {
    begin()
    last = t0
    pump()
  })
}

function tcp () {
  const chunk = Buffer.alloc(1024 * 1024)
  const sock = net.connect({ host: opts.host, port: opts.port })
  sock.on('error', err => {
    console.error(`sender: ${err.message}`)
    process.exit(1)
  })
  let writing = true
  const pump = () => {
    while (writing && sock.write(chunk)) { /* until the socket's buffer is full */ }
    if (writing) sock.once('drain', pump)
  }
  const at = (t, fn) => setTimeout(fn, Math.max(0, Math.ceil(Number(t - hr()) / 1e6)))
  sock.on('connect', () => {
    begin()
    pump()
    let writtenAtStart = 0
    at(windowStart, () => { writtenAtStart = sock.bytesWritten })
    at(windowEnd, () => {
      writing = false
      // Bytes the application handed over, some still in the socket's buffer.
      counts.bytesInWindow = sock.bytesWritten - writtenAtStart
      sock.destroy()
      done()
    })
  })
}

if (opts.mode === 'udp') udp()
else if (opts.mode === 'tcp') tcp()
else throw new Error(`sender: unknown mode ${opts.mode}`)

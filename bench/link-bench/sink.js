'use strict'

// The receiving end of npm run bench:link, a child process (fork, IPC) on the
// server side, so that the parent's timers and the sink's receive loop do not
// delay each other. Messages:
//
//   { id, cmd: 'udp', address }   → { id, port }   a UDP socket that records,
//        for every datagram, the sender's stamp and the one-way delay
//        (arrival on CLOCK_MONOTONIC minus the stamp, in ns)
//   { id, cmd: 'tcp', address }   → { id, port }   a TCP server that drains
//   { id, cmd: 'report', start, end } → { id, … }  delays of the datagrams
//        stamped in [start, end) (ns strings), and closes the sockets
const dgram = require('node:dgram')
const net = require('node:net')

const hr = process.hrtime.bigint
let sockets = []
let stamps = new Float64Array(1 << 16)
let delays = new Float64Array(1 << 16)
let n = 0
let bytes = 0

function record (stamp, delay) {
  if (n === stamps.length) {
    const grow = a => { const b = new Float64Array(a.length * 2); b.set(a); return b }
    stamps = grow(stamps)
    delays = grow(delays)
  }
  stamps[n] = stamp
  delays[n++] = delay
}

function udp (address) {
  return new Promise((resolve, reject) => {
    const sock = dgram.createSocket({ type: 'udp4', recvBufferSize: 4 * 1024 * 1024 })
    sock.on('message', msg => {
      const now = hr()
      bytes += msg.length
      if (msg.length >= 16) {
        const stamp = msg.readBigUInt64LE(0)
        record(Number(stamp), Number(now - stamp))
      }
    })
    sock.once('error', reject)
    sock.bind(0, address, () => {
      sockets.push(sock)
      resolve({ port: sock.address().port })
    })
  })
}

function tcp (address) {
  return new Promise((resolve, reject) => {
    const server = net.createServer(conn => {
      sockets.push(conn)
      conn.on('data', d => { bytes += d.length })
      conn.on('error', () => {})
    })
    server.once('error', reject)
    server.listen(0, address, () => {
      sockets.push(server)
      resolve({ port: server.address().port })
    })
  })
}

// Percentiles as forwarder.c's: the value of rank ceil(q·n).
function summary (values) {
  if (!values.length) return { n: 0, p50: null, p90: null, p99: null, max: null, min: null }
  values.sort()
  const pct = q => values[Math.max(1, Math.ceil(q * values.length)) - 1]
  return { n: values.length, min: values[0], p50: pct(0.5), p90: pct(0.9), p99: pct(0.99), max: values[values.length - 1] }
}

function report (start, end) {
  const from = Number(start)
  const to = Number(end)
  const inWindow = []
  for (let i = 0; i < n; i++) if (stamps[i] >= from && stamps[i] < to) inWindow.push(delays[i])
  const result = { received: n, receivedBytes: bytes, delayNs: summary(Float64Array.from(inWindow)) }
  for (const s of sockets) s.close ? s.close() : s.destroy()
  sockets = []
  n = 0
  bytes = 0
  return result
}

process.on('message', async msg => {
  try {
    let result
    if (msg.cmd === 'udp') result = await udp(msg.address)
    else if (msg.cmd === 'tcp') result = await tcp(msg.address)
    else if (msg.cmd === 'report') result = report(msg.start, msg.end)
    else throw new Error(`unknown command ${msg.cmd}`)
    process.send({ id: msg.id, ...result })
  } catch (err) {
    process.send({ id: msg.id, error: err.message })
  }
})
process.on('disconnect', () => process.exit(0))

'use strict'

// One measurement of npm run bench:link on one path (paths.js): the sender
// (sender.js) in the path's client namespace, the sink (sink.js) on this
// side; over the window [t0 + warmup, t0 + warmup + duration) of the
// sender's clock, the IP-level bytes and packets the server-side device
// received, the CPU time of the forwarder, sender and sink, the forwarder's
// own lateness figures and the sink's one-way delays.
const fs = require('node:fs')
const path = require('node:path')
const readline = require('node:readline')
const { fork, execFileSync } = require('node:child_process')

const SENDER = path.join(__dirname, 'sender.js')
const SINK = path.join(__dirname, 'sink.js')
const PAYLOAD = 1472 // + 28 bytes of IP and UDP headers: 1500-byte packets
const hr = process.hrtime.bigint

const CLK_TCK = (() => {
  try { return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100 } catch { return 100 }
})()

const sleep = ms => new Promise(resolve => setTimeout(resolve, ms))
const until = t => sleep(Math.max(0, Math.ceil(Number(t - hr()) / 1e6)))

// utime + stime of a process, in seconds; null when it is gone.
function cpuSeconds (pid) {
  if (!pid) return null
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8')
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ') // fields from the 3rd on
    return (Number(fields[11]) + Number(fields[12])) / CLK_TCK
  } catch {
    return null
  }
}

// All CPUs: busy and total jiffies.
function systemCpu () {
  const line = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0]
  const v = line.trim().split(/\s+/).slice(1).map(Number)
  const idle = v[3] + (v[4] || 0)
  const total = v.slice(0, 8).reduce((a, b) => a + b, 0)
  return { busy: total - idle, total }
}

// UDP datagrams dropped for a full receive buffer, in this namespace.
function udpRcvbufErrors () {
  const lines = fs.readFileSync('/proc/net/snmp', 'utf8').split('\n').filter(l => l.startsWith('Udp:'))
  const names = lines[0].split(/\s+/)
  const values = lines[1].split(/\s+/)
  return Number(values[names.indexOf('RcvbufErrors')])
}

// A device's receive counters in this process's network namespace: /proc/self/net/dev
// (/sys/class/net is the namespace's that mounted /sys, not necessarily ours).
function deviceCounters (dev) {
  for (const line of fs.readFileSync('/proc/self/net/dev', 'utf8').split('\n')) {
    const [name, rest] = line.split(':')
    if (!rest || name.trim() !== dev) continue
    // Receive: bytes packets errs drop fifo frame compressed multicast | Transmit: …
    const v = rest.trim().split(/\s+/).map(Number)
    return { rxPackets: v[1], rxBytes: v[0], rxDropped: v[3] }
  }
  throw new Error(`no device ${dev} in /proc/self/net/dev`)
}

class Sink {
  constructor () {
    this.child = fork(SINK, [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] })
    this.pending = new Map()
    this.nextId = 1
    this.child.on('message', msg => {
      const p = this.pending.get(msg.id)
      this.pending.delete(msg.id)
      if (!p) return
      if (msg.error) p.reject(new Error(`sink: ${msg.error}`))
      else p.resolve(msg)
    })
    this.child.once('exit', code => {
      for (const p of this.pending.values()) p.reject(new Error(`the sink exited (code ${code})`))
      this.pending.clear()
    })
  }

  request (msg) {
    const id = this.nextId++
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject })
      this.child.send({ id, ...msg })
    })
  }

  close () {
    if (this.child.connected) this.child.disconnect()
  }
}

// Starts the sender; resolves { child, t0, done } once it has started sending.
function startSender (p, options) {
  const child = p.spawnInside(process.execPath, [SENDER, JSON.stringify(options)], { stdio: ['ignore', 'pipe', 'pipe'] })
  let stderr = ''
  child.stderr.on('data', d => { stderr = (stderr + d).slice(-2000) })
  const lines = readline.createInterface({ input: child.stdout })
  let onStart
  const started = new Promise((resolve, reject) => { onStart = { resolve, reject } })
  const done = new Promise((resolve, reject) => {
    lines.on('line', line => {
      let msg
      try { msg = JSON.parse(line) } catch { return }
      if (msg.event === 'start') onStart.resolve(BigInt(msg.t0))
      else if (msg.event === 'done') resolve(msg)
    })
    child.once('exit', code => {
      const err = new Error(`the sender exited (code ${code}) before it finished${stderr ? `: ${stderr.trim()}` : ''}`)
      onStart.reject(err)
      reject(err)
    })
  })
  done.catch(() => {}) // awaited later; a failure to start shows through `started`
  return started.then(t0 => ({ child, t0, done }))
}

// One measurement. mode: 'udp' (rateBps; 0 = as fast as the sender can) or
// 'tcp' (bulk). delayMs: the one-way delay configured on the path.
async function measure (p, sink, { mode, rateBps = 0, warmupMs, durationMs, delayMs = 0 }) {
  const { port } = await sink.request({ cmd: mode, address: p.serverAddress })
  const sender = await startSender(p, { mode, host: p.serverAddress, port, rateBps, size: PAYLOAD, warmupMs, durationMs })
  const start = sender.t0 + BigInt(Math.round(warmupMs * 1e6))
  const end = start + BigInt(Math.round(durationMs * 1e6))
  const snapshot = () => ({
    t: hr(),
    dev: deviceCounters(p.serverDev),
    forwarderCpu: cpuSeconds(p.forwarderPid),
    senderCpu: cpuSeconds(sender.child.pid), // setpriv and nsenter exec: this is node
    sinkCpu: cpuSeconds(sink.child.pid),
    system: systemCpu(),
    rcvbufErrors: udpRcvbufErrors()
  })
  await until(start)
  await p.reset()
  const a = snapshot()
  await until(end)
  const b = snapshot()
  const sent = await sender.done
  // The packets still in flight, then the forwarder's lateness and the sink's
  // delays of the packets sent in the window (asked for only now: a Python
  // forwarder's percentiles take a while, and would delay the packets held).
  await sleep(delayMs + 200)
  const stats = await p.stats()
  const received = await sink.request({ cmd: 'report', start: String(start), end: String(end) })
  const seconds = Number(b.t - a.t) / 1e9
  const rate = (x, y) => x === null || y === null ? null : (y - x) / seconds
  const packets = b.dev.rxPackets - a.dev.rxPackets
  // IP level: veth counts Ethernet frames (14 bytes more), TUN devices IP packets.
  const ipBytes = b.dev.rxBytes - a.dev.rxBytes - packets * (p.l2HeaderBytes || 0)
  const up = stats ? stats.up : null
  const ms = ns => ns === null ? null : ns / 1e6
  const d = received.delayNs
  return {
    mode,
    offeredMbps: mode === 'udp' ? sent.bytesInWindow * 8 / (durationMs / 1000) / 1e6 : null,
    sentPackets: mode === 'udp' ? sent.sentInWindow : null,
    deliveredMbps: ipBytes * 8 / seconds / 1e6,
    deliveredPps: packets / seconds,
    meanPacketBytes: packets ? ipBytes / packets : null,
    receivedPackets: mode === 'udp' ? d.n : null,
    lossPercent: mode === 'udp' && sent.sentInWindow ? 100 * (1 - d.n / sent.sentInWindow) : null,
    // Where: the sink's receive buffer (any UDP socket here, in the window), or
    // before (the forwarder's counters tell in and out).
    sinkDrops: b.rcvbufErrors - a.rcvbufErrors,
    cpuPercent: {
      forwarder: p.forwarderPid ? 100 * rate(a.forwarderCpu, b.forwarderCpu) : null,
      sender: 100 * rate(a.senderCpu, b.senderCpu),
      sink: 100 * rate(a.sinkCpu, b.sinkCpu),
      system: 100 * (b.system.busy - a.system.busy) / (b.system.total - a.system.total) // of all CPUs
    },
    oneWayDelayMs: mode === 'udp' ? { n: d.n, min: ms(d.min), p50: ms(d.p50), p90: ms(d.p90), p99: ms(d.p99), max: ms(d.max) } : null,
    addedDelayMs: mode === 'udp' && d.n
      ? { p50: ms(d.p50) - delayMs, p90: ms(d.p90) - delayMs, p99: ms(d.p99) - delayMs, max: ms(d.max) - delayMs }
      : null,
    forwarderLateMs: up ? up.late_ms : null,
    forwarder: up ? { inPackets: up.in_packets, outPackets: up.out_packets, writeErrors: up.write_errors } : null,
    seconds
  }
}

module.exports = { measure, Sink, PAYLOAD, CLK_TCK }

'use strict'

// Probes for the packet-level link tests (test/link/slow/emulation.test.js): small
// senders and receivers that observe the link independently of the forwarder's
// own counters. Each one runs either in the test process (the server side, the
// root namespace) or, through `startInside`, as this very file run by Node in
// the client namespace (`node link-probe.js TASK PARAMS_JSON`), talking JSON
// lines on stdout and taking commands on stdin.
//
// Datagrams carry [seq u32][send time u64, CLOCK_MONOTONIC ns][filler]; the
// monotonic clock is the same in every network namespace, so a receiver's
// hrtime minus the sender's is the one-way delay.

const { execFileSync, spawn } = require('node:child_process')
const dgram = require('node:dgram')
const fs = require('node:fs')
const net = require('node:net')
const readline = require('node:readline')

const HEADER_BYTES = 12
const ms = ns => Number(ns) / 1e6
const sleep = t => new Promise(resolve => setTimeout(resolve, t))

// ---- the probes ---------------------------------------------------------------

// When this process was kept from running while it measured: a 1 ms ticker
// notes every gap between two ticks longer than 2 ms as a stall from 2 ms
// after the earlier tick to the later one (CLOCK_MONOTONIC ms, as the
// datagrams' stamps; libuv keeps timers on a millisecond clock, so a tick
// may come up to 2 ms after the last on an idle loop). A process descheduled, a GC pause or a stolen virtual CPU
// delays a timestamp by as much: a delay measured across a stall may hold
// that much of the machine, not of the link. stop() gives { stalls: [[from,
// to], …], stallMs: the longest }.
function stallMeter () {
  const stamp = () => Number(process.hrtime.bigint() / 1000n) / 1000
  const stalls = []
  let last = stamp()
  const note = now => {
    if (now - last > 2) stalls.push([last + 2, now])
    last = now
  }
  const ticker = setInterval(() => note(stamp()), 1)
  ticker.unref()
  return {
    stop () {
      clearInterval(ticker)
      note(stamp())
      return { stalls: stalls.slice(), stallMs: Math.max(0, ...stalls.map(([from, to]) => to - from)) }
    }
  }
}

// How much of [from, to] (ms) falls in any of the stalls (stallMeter's).
function stalledWithin (stalls, from, to) {
  let ms = 0
  for (const [a, b] of stalls) ms += Math.max(0, Math.min(b, to) - Math.max(a, from))
  return ms
}

// Sends `count` numbered datagrams to host:port, `burst` at a time every
// `intervalMs` (on schedule: a late timer sends what is due). The socket is
// bound and connected first, so each send is written at once, right after its
// timestamp (an unconnected send waits a tick for its address lookup, an
// unbound one for its bind). Resolves { sent }, and each datagram's send time
// (CLOCK_MONOTONIC ms) with `sendTimes`, and its stalls and stallMs
// (stallMeter). onStart runs once the first is sent.
function udpSend ({ host, port, count, size = 200, burst = 1, intervalMs = 1, sendTimes = false }, onStart = () => {}) {
  const socket = dgram.createSocket('udp4')
  const times = sendTimes ? [] : null
  const stalls = stallMeter()
  return new Promise((resolve, reject) => {
    let next = 0
    let acked = 0
    let failed = null
    let start
    const done = () => {
      socket.close()
      const measured = stalls.stop()
      if (failed) reject(failed)
      else resolve({ sent: count, ...measured, ...(times ? { sendTimes: times } : {}) })
    }
    const pump = () => {
      const due = Math.min(count, burst * (Math.floor(ms(process.hrtime.bigint() - start) / intervalMs) + 1))
      for (; next < due; next++) {
        const buf = Buffer.alloc(size)
        const now = process.hrtime.bigint()
        buf.writeUInt32BE(next, 0)
        buf.writeBigUInt64BE(now, 4)
        if (times) times.push(Number(now / 1000n) / 1000)
        socket.send(buf, err => {
          if (err && !failed) failed = err
          if (++acked === count) done()
        })
      }
      if (next < count) setTimeout(pump, intervalMs / 2)
    }
    socket.once('error', reject)
    socket.connect(port, host, () => {
      start = process.hrtime.bigint()
      pump()
      onStart()
    })
  })
}

// Receives numbered datagrams. Resolves { port, report(), close() }; report()
// gives, in arrival order, each datagram's seq and one-way delay (ms), the
// socket's own drop count (a full receive buffer would look like loss), and
// the sink's stalls and stallMs (stallMeter) from its bind to the report.
function udpSink ({ address = '0.0.0.0', port = 0 } = {}) {
  const socket = dgram.createSocket('udp4')
  const stalls = stallMeter()
  const seqs = []
  const delays = []
  const arrivals = [] // CLOCK_MONOTONIC ms, as process.hrtime in any process
  socket.on('message', msg => {
    const now = process.hrtime.bigint()
    if (msg.length < HEADER_BYTES) return
    seqs.push(msg.readUInt32BE(0))
    delays.push(Number((now - msg.readBigUInt64BE(4)) / 1000n) / 1000)
    arrivals.push(Number(now / 1000n) / 1000)
  })
  return new Promise((resolve, reject) => {
    socket.once('error', reject)
    socket.bind(port, address, () => {
      socket.setRecvBufferSize(4 * 1024 * 1024)
      const bound = socket.address().port
      resolve({
        port: bound,
        report: () => ({ seqs: seqs.slice(), delays: delays.slice(), arrivals: arrivals.slice(), drops: socketDrops(bound), ...stalls.stop() }),
        close: () => new Promise(resolve => { stalls.stop(); socket.close(resolve) })
      })
    })
  })
}

// The kernel's drop counter of the UDP socket bound to `port` in this
// process's namespace (last column of /proc/net/udp), or null.
function socketDrops (port) {
  const hex = port.toString(16).toUpperCase().padStart(4, '0')
  for (const line of fs.readFileSync('/proc/self/net/udp', 'utf8').split('\n').slice(1)) {
    const f = line.trim().split(/\s+/)
    if (f[1] && f[1].endsWith(`:${hex}`)) return Number(f[f.length - 1])
  }
  return null
}

// `count` TCP connects in a row; each time is from connect() to 'connect'
// (the SYN's and the SYN-ACK's trip: one RTT). Resolves { times } in ms.
async function connectTimes ({ host, port, count = 5 }) {
  const times = []
  for (let i = 0; i < count; i++) {
    times.push(await new Promise((resolve, reject) => {
      const t0 = process.hrtime.bigint()
      const socket = net.connect({ host, port })
      socket.once('connect', () => {
        const t = ms(process.hrtime.bigint() - t0)
        socket.destroy()
        resolve(t)
      })
      socket.once('error', reject)
    }))
    await sleep(20)
  }
  return { times }
}

// Connects and reads until the peer ends. Calls onConnect, resolves { bytes }.
function tcpReceive ({ host, port }, onConnect = () => {}) {
  return new Promise((resolve, reject) => {
    let bytes = 0
    const socket = net.connect({ host, port }, () => onConnect())
    socket.on('data', d => { bytes += d.length })
    socket.once('end', () => { socket.destroy(); resolve({ bytes }) })
    socket.once('error', reject)
  })
}

// Writes as fast as the socket takes it until stop() (or the peer goes away).
// Returns { stop, written: () => bytes }.
function bulkWriter (socket) {
  const chunk = Buffer.alloc(64 * 1024, 0x5a)
  let stopped = false
  let written = 0
  const pump = () => {
    while (!stopped && !socket.destroyed) {
      written += chunk.length
      if (!socket.write(chunk)) return
    }
  }
  socket.on('drain', pump)
  socket.on('error', () => { stopped = true })
  pump()
  return {
    written: () => written,
    stop: () => { stopped = true; socket.end() }
  }
}

// Connects and writes until told to stop (stdin "stop"); see startInside.
function tcpSend ({ host, port }, onConnect) {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host, port }, () => {
      const writer = bulkWriter(socket)
      onConnect(() => {
        writer.stop()
        socket.once('close', () => resolve({ written: writer.written() }))
      })
    })
    socket.once('error', reject)
  })
}

// Tries each target ({ proto: 'tcp'|'udp', host, port }); reports what happened:
// { target, outcome: 'connected'|'sent'|'error', code }.
async function tryTargets ({ targets }) {
  const results = []
  for (const target of targets) {
    results.push(await new Promise(resolve => {
      const done = (outcome, code = null) => resolve({ ...target, outcome, code })
      if (target.proto === 'udp') {
        const socket = dgram.createSocket('udp4')
        socket.once('error', err => { socket.close(); done('error', err.code) })
        socket.send(Buffer.from('h2bench leak probe'), target.port, target.host, err => {
          if (err) { socket.close(); done('error', err.code) } else setTimeout(() => { socket.close(); done('sent') }, 50)
        })
      } else {
        const socket = net.connect({ host: target.host, port: target.port })
        const timer = setTimeout(() => { socket.destroy(); done('timeout') }, 1500)
        socket.once('connect', () => { clearTimeout(timer); socket.destroy(); done('connected') })
        socket.once('error', err => { clearTimeout(timer); done('error', err.code) })
      }
    }))
  }
  return { results }
}

// ---- the test side ------------------------------------------------------------

// Probes that time packets run at a real-time priority when the system allows
// it (chrt -f): on a loaded machine a Node process can wait tens of ms for a
// CPU, and that wait would count as the link's delay. They are not busy (timers
// and socket events), so they cannot hog a CPU.
let realtime = null
function realtimePrefix () {
  if (realtime === null) {
    try {
      execFileSync('chrt', ['-f', '10', 'true'], { stdio: 'ignore' })
      realtime = ['chrt', '-f', '10']
    } catch {
      realtime = []
    }
  }
  return realtime
}
const TIMING_TASKS = ['udp-send', 'udp-sink', 'connect']

// Whether a link's forwarder runs at the same real-time priority (the link
// raises it where allowed: link/forwarder/index.js): the tests check what the
// emulation does, not how busy the machine is.
function prioritizeForwarder (link) {
  return /^real-time/.test(link.forwarder.priority || '') // link/forwarder/index.js raises it, where allowed
}

// A probe task in its own process: this file, run by Node. message() resolves
// the next JSON line it prints; send() writes a command line to it.
class Agent {
  constructor (spawnFn, task, params, { priority = TIMING_TASKS.includes(task) } = {}) {
    const [cmd, ...args] = [...(priority ? realtimePrefix() : []), process.execPath, __filename, task, JSON.stringify(params)]
    this.task = task
    this.child = spawnFn(cmd, args, { stdio: ['pipe', 'pipe', 'pipe'] })
    this.queue = []
    this.waiting = []
    this.stderr = ''
    this.child.stderr.on('data', d => { this.stderr = (this.stderr + d).slice(-4000) })
    readline.createInterface({ input: this.child.stdout }).on('line', line => {
      let msg
      try { msg = JSON.parse(line) } catch { msg = { text: line } }
      const w = this.waiting.shift()
      if (w) w.resolve(msg)
      else this.queue.push(msg)
    })
    this.child.once('close', (code, signal) => {
      this.ended = new Error(`probe "${task}" exited (${signal || `code ${code}`}) early: ${this.stderr.trim()}`)
      for (const w of this.waiting.splice(0)) w.reject(this.ended)
    })
  }

  message (timeoutMs = 15000) {
    if (this.queue.length) return Promise.resolve(this.queue.shift())
    if (this.ended) return Promise.reject(this.ended)
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no message from probe "${this.task}" within ${timeoutMs} ms; stderr: ${this.stderr}`)), timeoutMs)
      this.waiting.push({
        resolve: m => { clearTimeout(timer); resolve(m) },
        reject: e => { clearTimeout(timer); reject(e) }
      })
    })
  }

  // The task's result: its next line, which must not be an error.
  async result (timeoutMs) {
    const msg = await this.message(timeoutMs)
    if (msg.error) throw new Error(`probe "${this.task}" failed: ${msg.error}`)
    return msg
  }

  send (line) {
    this.child.stdin.write(`${line}\n`)
  }

  kill () {
    if (this.child.exitCode === null && !this.child.signalCode) this.child.kill('SIGKILL')
  }
}

// A probe in the client namespace (killed when the link closes).
const startInside = (link, task, params, options) => new Agent(link.spawnInside, task, params, options)

// A probe on the server side (this namespace), killed if we die.
const startOutside = (task, params, options) =>
  new Agent((cmd, args, opts) => spawn('setpriv', ['--pdeathsig', 'KILL', '--', cmd, ...args], opts), task, params, options)

// Runs a one-shot task in the client namespace and resolves its result.
async function runInside (link, task, params, timeoutMs = 15000) {
  const agent = startInside(link, task, params)
  try {
    return await agent.result(timeoutMs)
  } finally {
    agent.kill()
  }
}

async function runOutside (task, params, timeoutMs = 15000) {
  const agent = startOutside(task, params)
  try {
    return await agent.result(timeoutMs)
  } finally {
    agent.kill()
  }
}

// Kernel counters of a network namespace, by the pid of a process in it
// (/proc/PID/net/* shows PID's namespace: the same as `nsenter --net=… cat`):
// `snmp` (Ip, Tcp, Udp…) or `netstat` (TcpExt, IpExt: InCEPkts…).
function readSnmp (pid = 'self', file = 'snmp') {
  const out = {}
  const lines = fs.readFileSync(`/proc/${pid}/net/${file}`, 'utf8').trim().split('\n')
  for (let i = 0; i + 1 < lines.length; i += 2) {
    const names = lines[i].split(/\s+/)
    const values = lines[i + 1].split(/\s+/)
    const group = names[0].replace(/:$/, '')
    out[group] = {}
    for (let j = 1; j < names.length; j++) out[group][names[j]] = Number(values[j])
  }
  return out
}

// { rxBytes, rxPackets, txBytes, txPackets } of a device as its namespace sees it.
function readDev (pid, device) {
  for (const line of fs.readFileSync(`/proc/${pid}/net/dev`, 'utf8').split('\n')) {
    const [name, rest] = line.split(':')
    if (rest && name.trim() === device) {
      const f = rest.trim().split(/\s+/).map(Number)
      return { rxBytes: f[0], rxPackets: f[1], txBytes: f[8], txPackets: f[9] }
    }
  }
  throw new Error(`no device ${device} in /proc/${pid}/net/dev`)
}

function percentile (values, q) {
  const sorted = values.slice().sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]
}

const median = values => percentile(values, 0.5)

// Is a process gone (no /proc entry, or a zombie: it has let go of its
// namespace and devices, only its exit status waits for a parent)?
function processGone (pid) {
  try {
    return /^State:\s+Z/m.test(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))
  } catch {
    return true
  }
}

async function waitFor (predicate, timeoutMs, stepMs = 20) {
  const until = Date.now() + timeoutMs
  for (;;) {
    if (await predicate()) return true
    if (Date.now() > until) return false
    await sleep(stepMs)
  }
}

// ---- run as a probe in the client namespace -------------------------------------

async function agentMain (task, params) {
  const print = obj => process.stdout.write(`${JSON.stringify(obj)}\n`)
  const commands = readline.createInterface({ input: process.stdin })
  commands.once('close', () => process.exit(0)) // whoever ran us is gone
  const nextCommand = () => new Promise(resolve => commands.once('line', resolve))
  if (task === 'udp-send') print(await udpSend(params, () => { if (params.announce) print({ started: true }) }))
  else if (task === 'connect') print(await connectTimes(params))
  else if (task === 'try-targets') print(await tryTargets(params))
  else if (task === 'udp-sink') {
    const sink = await udpSink(params)
    print({ port: sink.port })
    for (let cmd = await nextCommand(); cmd !== 'report'; cmd = await nextCommand());
    print(sink.report())
  } else if (task === 'tcp-receive') {
    print(await tcpReceive(params, () => print({ connected: true })))
  } else if (task === 'tcp-send') {
    print(await tcpSend(params, stop => {
      print({ connected: true })
      nextCommand().then(stop)
    }))
  } else {
    throw new Error(`unknown probe task ${task}`)
  }
  exitAfterOutput(0)
}

// Exits once stdout has taken everything written: a pipe's writes may be
// asynchronous, and process.exit() at once cut a 220 KB report short.
const exitAfterOutput = code => process.stdout.write('', () => process.exit(code))

if (require.main === module) {
  agentMain(process.argv[2], JSON.parse(process.argv[3] || '{}')).catch(err => {
    process.stdout.write(`${JSON.stringify({ error: `${err.code || ''} ${err.message}`.trim() })}\n`)
    exitAfterOutput(1)
  })
}

module.exports = {
  udpSend,
  udpSink,
  stalledWithin,
  connectTimes,
  tcpReceive,
  bulkWriter,
  tryTargets,
  startInside,
  startOutside,
  runInside,
  runOutside,
  prioritizeForwarder,
  readSnmp,
  readDev,
  percentile,
  median,
  processGone,
  waitFor,
  sleep
}

'use strict'

// The CPU the browser and the lanes' servers use, read by the page server on
// the same machine (GET /cpu.json, server/routes/cpu.js): the page asks at a
// batch's start and end, and divides the difference by the time between.
//
// The browser is found from the request's own TCP connection: the other end
// of the page server's socket is a socket of this machine (/proc/net/tcp{,6},
// ours or another network namespace's: a browser inside a packet-level link's
// namespace), the process that holds it (/proc/<pid>/fd) is one of the
// browser's, and its root is, for Chromium, the first process up the ppid
// chain without --type= (the browser process; its network service holds the
// socket), for Firefox the topmost process of the same executable (the parent
// process). Its whole process tree is read (/proc/<pid>/stat utime + stime,
// in clock ticks: 10 ms). When it cannot be found (a browser on another
// machine, not Linux, another user's processes), the reading says why.
//
// And the whole machine's busy CPU (/proc/stat), whoever used it.
// The servers: the Node lanes (and the edge lanes' apps) run in this
// process (process.cpuUsage(), microseconds; the readings' own CPU is left
// out), the edge lanes (h3, h2e) in Caddy (`caddyPid`, with its children).
const path = require('node:path')
const { performance } = require('node:perf_hooks')
const proc = require('../common/proc')

// What to call a browser by its executable.
function browserName (exe) {
  const base = path.basename(exe || '')
  if (/^chromium/.test(base)) return 'Chromium'
  if (/headless.shell/.test(base)) return 'Chrome Headless Shell'
  if (/^(google-)?chrome/.test(base)) return 'Chrome'
  if (/^firefox/.test(base)) return 'Firefox'
  return base || 'unknown'
}

// Which of a browser's processes, as a noun: Chromium's by --type= (and the
// utility process's sub-type), Firefox's by the type its -contentproc
// arguments end with; `rootKind` the root's (findBrowser's kind), null for the others.
const CHROMIUM_TYPES = { renderer: 'renderer', 'gpu-process': 'GPU process', zygote: 'zygote', 'crashpad-handler': 'crash handler', ppapi: 'plugin process' }
const CHROMIUM_UTILITIES = { 'network.mojom.NetworkService': 'network service', 'storage.mojom.StorageService': 'storage service', 'audio.mojom.AudioService': 'audio service' }
const FIREFOX_TYPES = { tab: 'content process', socket: 'socket process', rdd: 'media decoder process', gpu: 'GPU process', utility: 'utility process', gmplugin: 'media plugin process', forkserver: 'fork server', vr: 'VR process' }
function processType (cmdline, rootKind = null) {
  if (rootKind === 'chromium') return 'browser process'
  if (rootKind === 'firefox') return 'parent process'
  if (!cmdline) return 'process (gone)'
  const type = cmdline.find(a => a.startsWith('--type='))
  if (type) {
    const kind = type.slice('--type='.length)
    if (kind !== 'utility') return CHROMIUM_TYPES[kind] || `${kind} process`
    const sub = cmdline.find(a => a.startsWith('--utility-sub-type='))
    const name = sub && sub.slice('--utility-sub-type='.length)
    return name ? CHROMIUM_UTILITIES[name] || `utility process (${name})` : 'utility process'
  }
  if (cmdline.includes('-contentproc')) {
    const last = [...cmdline].reverse().find(a => a in FIREFOX_TYPES)
    return last ? FIREFOX_TYPES[last] : 'content process'
  }
  return path.basename(cmdline[0] || '') || 'process'
}

const isChromiumChild = cmdline => Boolean(cmdline && cmdline.some(a => a.startsWith('--type=')))
const isFirefox = (pid, options) => {
  const exe = proc.exeOf(pid, options)
  const cmdline = proc.cmdlineOf(pid, options)
  return /^firefox/.test(path.basename(exe || '')) || Boolean(cmdline && cmdline.includes('-contentproc'))
}

// The browser's root process above `holder`, the process holding its socket. → { root, kind }
function rootAbove (holder, options) {
  const parent = pid => {
    const s = proc.procStat(pid, options)
    return s && s.ppid > 1 ? s.ppid : null
  }
  if (isChromiumChild(proc.cmdlineOf(holder, options))) {
    let pid = holder
    for (let up = parent(pid); up && isChromiumChild(proc.cmdlineOf(pid, options)); up = parent(pid)) pid = up
    return { root: pid, kind: 'chromium' }
  }
  if (isFirefox(holder, options)) {
    const exe = proc.exeOf(holder, options)
    let pid = holder
    for (let up = parent(pid); up && proc.exeOf(up, options) === exe; up = parent(pid)) pid = up
    return { root: pid, kind: 'firefox' }
  }
  return { root: holder, kind: 'process' }
}

// The other end of a connection to this server: { remoteAddress, remotePort,
// localAddress, localPort } as the server's socket has them. → { root, kind,
// name, holders, how } or { reason }.
function findBrowser (peer, options = {}) {
  const where = `${peer.remoteAddress}:${peer.remotePort}`
  if (!proc.procStat('self', options)) return { reason: `no /proc here (${process.platform}): the browser's CPU is read on Linux only` }
  const remote = proc.canonicalAddress(peer.remoteAddress)
  const local = proc.canonicalAddress(peer.localAddress)
  // The browser's end: its local address is our remote one, and the other way round.
  const match = s => s.local.port === peer.remotePort && s.remote.port === peer.localPort &&
    s.local.address === remote && s.remote.address === local
  let socket = proc.tcpSockets('self', options).find(match)
  let namespace = 'this'
  if (!socket) {
    // A browser in another network namespace (inside a packet-level link): the namespaces this user may see.
    const ours = proc.netNamespaceOf('self', options)
    for (const [ns, pid] of proc.netNamespaces(options)) {
      if (ns === ours) continue
      socket = proc.tcpSockets(pid, options).find(match)
      if (socket) {
        namespace = `another (${ns})`
        break
      }
    }
  }
  if (!socket) {
    return { reason: `no socket on this machine is the other end of this page's connection (from ${where}): the browser runs on another machine, or in a network namespace this server cannot see` }
  }
  const holders = proc.socketHolders(socket.inode, options)
  if (!holders.length) {
    const other = typeof process.getuid === 'function' && process.getuid() !== 0 && socket.uid !== process.getuid()
    return {
      reason: `the browser's end of this page's connection (${where}) is held by no process this server may read` +
        (other ? ` (it belongs to user ${socket.uid}, this server runs as ${process.getuid()})` : '')
    }
  }
  const found = holders.map(h => ({ holder: h, ...rootAbove(h, options) }))
  const { root, kind, holder } = found[0]
  const name = kind === 'process' && root === process.pid ? 'this page server' : browserName(proc.exeOf(root, options))
  const held = holder === root ? `${name}'s process ${root} itself` : `${name}'s ${processType(proc.cmdlineOf(holder, options))} (pid ${holder}), under its ${processType(proc.cmdlineOf(root, options), kind)} ${root}`
  return { root, kind, name, holders, how: `the page's connection from ${where} (${namespace} network namespace) is held by ${held}` }
}

// The page server's meter: read(socket) → { at, tickMs, machine, browser, servers }:
// `machine` the whole machine's busy CPU time (every process's, ours and
// anyone's: /proc/stat) or null.
// `caddyPid()`: Caddy's pid, or null (no edge lanes); `lanesHere`: false when
// the lanes run on another machine (the page server alone: no server CPU).
function cpuMeter ({ caddyPid = () => null, lanesHere = true, proc: procDir = proc.PROC } = {}) {
  const options = { proc: procDir }
  const found = new WeakMap() // socket → findBrowser's answer, with its processes' types
  let ownUs = 0 // the CPU these readings took, left out of this process's
  const tickMs = 1000 / proc.ticksPerSecond()
  const cpuMsOf = (pids, table) => pids.reduce((n, pid) => n + table.get(pid).ticks, 0) * tickMs

  function browserOf (socket, table) {
    let known = found.get(socket)
    if (!known || (known.root && !table.has(known.root))) {
      known = findBrowser(socket, options)
      known.types = new Map()
      found.set(socket, known)
    }
    if (!known.root) return { cpuMs: null, reason: known.reason }
    const pids = proc.treeOf([known.root], table)
    const processes = pids.map(pid => {
      if (!known.types.has(pid)) known.types.set(pid, processType(proc.cmdlineOf(pid, options), pid === known.root ? known.kind : null))
      return { pid, type: known.types.get(pid), cpuMs: table.get(pid).ticks * tickMs }
    })
    return { name: known.name, root: known.root, found: known.how, cpuMs: cpuMsOf(pids, table), pids, processes }
  }

  return {
    read (socket) {
      const before = process.cpuUsage()
      const table = proc.processTable(options)
      let browser
      try {
        browser = browserOf(socket, table)
      } catch (err) {
        browser = { cpuMs: null, reason: `reading the browser's processes failed: ${err.message}` }
      }
      const machine = proc.machineTicks(options)
      let caddy = null
      const edge = caddyPid()
      if (edge && table.has(edge)) caddy = cpuMsOf(proc.treeOf([edge], table), table)
      const after = process.cpuUsage()
      ownUs += (after.user + after.system) - (before.user + before.system)
      const node = lanesHere ? (after.user + after.system - ownUs) / 1000 : null
      return {
        at: performance.now(),
        tickMs,
        machine: machine && { busyMs: machine.busy * tickMs, cpus: machine.cpus },
        browser,
        servers: lanesHere
          ? { node, caddy, pid: process.pid, caddyPid: edge || null, reason: edge ? null : 'no Caddy (no edge lane)' }
          : { node: null, caddy: null, reason: 'the lanes run on another machine: their CPU is not read here' }
      }
    }
  }
}

module.exports = { cpuMeter, findBrowser, browserName, processType }

'use strict'

// Linux's /proc, read: a process's CPU ticks and parent, every process, a
// process tree, a process's command line and executable, the TCP sockets of
// a network namespace, and the processes that hold a socket. Pure readers,
// shared by the harness's cost meter (harness/cell-costs.js) and the page
// server's CPU readings (server/cpu.js). Each takes `proc`, the folder to
// read as /proc (a test's constructed fixture); each answers null or an empty
// list, never throws, where a process has gone or may not be read.
const fs = require('node:fs')
const os = require('node:os')
const { execFileSync } = require('node:child_process')

const PROC = '/proc'

let clockTicks = null
// Clock ticks per second of /proc/<pid>/stat's utime and stime (100 on Linux, almost always).
function ticksPerSecond () {
  if (clockTicks === null) {
    try {
      clockTicks = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100
    } catch {
      clockTicks = 100
    }
  }
  return clockTicks
}

const read = file => {
  try {
    return fs.readFileSync(file, 'utf8')
  } catch {
    return null
  }
}

const link = file => {
  try {
    return fs.readlinkSync(file)
  } catch {
    return null
  }
}

// /proc/<pid>/stat → { ppid, ticks (utime + stime), childTicks (cutime + cstime:
// the children it has waited for) } or null when it is gone.
// The command name (field 2) may hold spaces and brackets: fields are read after its last ')'.
function procStat (pid, { proc = PROC } = {}) {
  const text = read(`${proc}/${pid}/stat`)
  if (text === null) return null
  const rest = text.slice(text.lastIndexOf(')') + 2).split(' ')
  // rest[0] is field 3 (state): ppid is field 4, utime 14, stime 15, cutime 16, cstime 17.
  return { ppid: Number(rest[1]), ticks: Number(rest[11]) + Number(rest[12]), childTicks: Number(rest[13]) + Number(rest[14]) }
}

// Every process id now.
function processIds ({ proc = PROC } = {}) {
  try {
    return fs.readdirSync(proc).filter(name => /^\d+$/.test(name)).map(Number)
  } catch {
    return []
  }
}

// Every process now: pid → { ppid, ticks, childTicks }.
function processTable ({ proc = PROC } = {}) {
  const table = new Map()
  for (const pid of processIds({ proc })) {
    const s = procStat(pid, { proc })
    if (s) table.set(pid, s)
  }
  return table
}

// `roots` and every descendant of them in `table`.
function treeOf (roots, table) {
  const children = new Map()
  for (const [pid, { ppid }] of table) {
    if (!children.has(ppid)) children.set(ppid, [])
    children.get(ppid).push(pid)
  }
  const out = new Set()
  const stack = roots.filter(pid => table.has(pid))
  while (stack.length) {
    const pid = stack.pop()
    if (out.has(pid)) continue
    out.add(pid)
    stack.push(...(children.get(pid) || []))
  }
  return [...out]
}

// The whole machine's CPU time so far (/proc/stat's first line, in clock
// ticks, summed over its CPUs): { busy (user, nice, system, irq, softirq,
// steal: time no process of ours could have), total (busy and idle, iowait),
// cpus (the cpuN lines) }, or null.
function machineTicks ({ proc = PROC } = {}) {
  const text = read(`${proc}/stat`)
  if (text === null) return null
  const lines = text.split('\n')
  const f = (lines.find(l => /^cpu\s/.test(l)) || '').trim().split(/\s+/).slice(1).map(Number)
  if (f.length < 4 || f.some(x => !Number.isFinite(x))) return null
  const [user, nice, system, idle, iowait = 0, irq = 0, softirq = 0, steal = 0] = f
  const busy = user + nice + system + irq + softirq + steal
  return { busy, total: busy + idle + iowait, cpus: lines.filter(l => /^cpu\d+\s/.test(l)).length }
}

// /proc/<pid>/cmdline → its arguments, or null (gone; a zombie's is empty).
// A process that rewrote its title (Chromium's children: setproctitle) has
// one string of space-separated arguments: split there too.
function cmdlineOf (pid, { proc = PROC } = {}) {
  const text = read(`${proc}/${pid}/cmdline`)
  if (text === null) return null
  const args = text.split('\0').filter((arg, i, all) => arg !== '' || i < all.length - 1)
  return args.length === 1 && / --?[a-z]/i.test(args[0]) ? args[0].split(' ').filter(Boolean) : args
}

// The executable a process runs (/proc/<pid>/exe), or null (gone, or another user's).
function exeOf (pid, { proc = PROC } = {}) {
  const target = link(`${proc}/${pid}/exe`)
  return target === null ? null : target.replace(/ \(deleted\)$/, '')
}

// The network namespace a process is in ('net:[4026531840]'), or null.
function netNamespaceOf (pid, { proc = PROC } = {}) {
  return link(`${proc}/${pid}/ns/net`)
}

// One process of each network namespace this user may see: namespace → pid (the lowest).
function netNamespaces ({ proc = PROC } = {}) {
  const out = new Map()
  for (const pid of processIds({ proc }).sort((a, b) => a - b)) {
    const ns = netNamespaceOf(pid, { proc })
    if (ns && !out.has(ns)) out.set(ns, pid)
  }
  return out
}

// /proc/net/tcp's addresses are hex in the host's byte order, 32 bits at a time.
const LITTLE = os.endianness() === 'LE'
function hexWords (hex) {
  const bytes = []
  for (let w = 0; w < hex.length; w += 8) {
    const word = []
    for (let b = 0; b < 8; b += 2) word.push(parseInt(hex.slice(w + b, w + b + 2), 16))
    bytes.push(...(LITTLE ? word.reverse() : word))
  }
  return bytes
}

// An address as one canonical text: IPv4 dotted ('127.0.0.1', an IPv4-mapped IPv6 one too), IPv6 as eight full groups.
function canonicalAddress (address) {
  let text = String(address).toLowerCase().replace(/%.*$/, '')
  if (/^\d+\.\d+\.\d+\.\d+$/.test(text) || !text.includes(':')) return text
  // A dotted tail ('::ffff:127.0.0.1') as its two groups.
  text = text.replace(/(\d+)\.(\d+)\.(\d+)\.(\d+)$/, (m, a, b, c, d) => `${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`)
  const [head, tail] = text.includes('::') ? text.split('::') : [text, null]
  const left = head ? head.split(':') : []
  const right = tail ? tail.split(':') : []
  const groups = (tail === null ? left : [...left, ...new Array(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right]).map(g => g.padStart(4, '0'))
  if (groups.slice(0, 5).every(g => g === '0000') && groups[5] === 'ffff') {
    const [hi, lo] = [parseInt(groups[6], 16), parseInt(groups[7], 16)]
    return [hi >> 8, hi & 255, lo >> 8, lo & 255].join('.')
  }
  return groups.join(':')
}

function decodeAddress (hex) {
  const bytes = hexWords(hex)
  if (bytes.length === 4) return bytes.join('.')
  const groups = []
  for (let i = 0; i < 16; i += 2) groups.push(((bytes[i] << 8) | bytes[i + 1]).toString(16))
  return canonicalAddress(groups.join(':'))
}

// The text of /proc/<pid>/net/tcp or tcp6 → [{ local: { address, port }, remote, state, uid, inode }].
function parseTcpTable (text) {
  const out = []
  for (const line of String(text || '').split('\n').slice(1)) {
    const f = line.trim().split(/\s+/)
    if (f.length < 10) continue
    const endpoint = s => {
      const [addr, port] = s.split(':')
      return { address: decodeAddress(addr), port: parseInt(port, 16) }
    }
    out.push({ local: endpoint(f[1]), remote: endpoint(f[2]), state: parseInt(f[3], 16), uid: Number(f[7]), inode: Number(f[9]) })
  }
  return out
}

// Every TCP socket (IPv4 and IPv6) of the network namespace process `pid` is in ('self': ours).
function tcpSockets (pid = 'self', { proc = PROC } = {}) {
  return [...parseTcpTable(read(`${proc}/${pid}/net/tcp`)), ...parseTcpTable(read(`${proc}/${pid}/net/tcp6`))]
}

// The processes holding socket `inode` among their open files (the processes this user may read).
function socketHolders (inode, { proc = PROC } = {}) {
  const wanted = `socket:[${inode}]`
  const out = []
  for (const pid of processIds({ proc })) {
    let fds
    try {
      fds = fs.readdirSync(`${proc}/${pid}/fd`)
    } catch {
      continue
    }
    if (fds.some(fd => link(`${proc}/${pid}/fd/${fd}`) === wanted)) out.push(pid)
  }
  return out
}

module.exports = {
  PROC,
  ticksPerSecond,
  procStat,
  processIds,
  processTable,
  treeOf,
  machineTicks,
  cmdlineOf,
  exeOf,
  netNamespaceOf,
  netNamespaces,
  canonicalAddress,
  parseTcpTable,
  tcpSockets,
  socketHolders
}

'use strict'

// A constructed /proc (common/proc.js and server/cpu.js read `proc`, a folder,
// in its place): processes with their stat, command line, executable,
// network namespace, open sockets and TCP tables, and the machine's /proc/stat.
// A unit test's, no process of this machine involved.
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')

const LITTLE = os.endianness() === 'LE'
// 32 bits as /proc/net/tcp writes them: hex, in the host's byte order.
const word = bytes => (LITTLE ? [...bytes].reverse() : bytes).map(b => b.toString(16).padStart(2, '0').toUpperCase()).join('')
const port = p => p.toString(16).toUpperCase().padStart(4, '0')

// '127.0.0.1' → 8 hex digits; an IPv6 address given as 16 bytes → 32.
function hexAddress (address) {
  if (typeof address === 'string') return word(address.split('.').map(Number))
  const out = []
  for (let i = 0; i < 16; i += 4) out.push(word(address.slice(i, i + 4)))
  return out.join('')
}

// ::ffff:a.b.c.d as 16 bytes.
const mapped = v4 => [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, ...v4.split('.').map(Number)]

// One line of /proc/net/tcp{,6}: local and remote are [address, port].
function tcpLine (i, { local, remote, state = 1, uid = 0, inode }) {
  return `  ${i}: ${hexAddress(local[0])}:${port(local[1])} ${hexAddress(remote[0])}:${port(remote[1])} ${state.toString(16).padStart(2, '0').toUpperCase()} ` +
    `00000000:00000000 00:00000000 00000000 ${String(uid).padStart(5)}        0 ${inode} 1 0000000000000000 20 4 30 10 -1`
}

const TCP_HEAD = '  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode'

// processes: [{ pid, ppid, comm, ticks (utime; stime is 0), cmdline: [args] | 'one rewritten string', exe, ns, fds: [inode], tcp: [line spec], tcp6 }]
// self: the pid /proc/self is; machine: { busy, idle, cpus } → the folder.
function makeProc ({ processes, self, machine = null }) {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'h2bench-proc-'))
  for (const p of processes) {
    const dir = path.join(root, String(p.pid))
    fs.mkdirSync(path.join(dir, 'fd'), { recursive: true })
    fs.mkdirSync(path.join(dir, 'ns'))
    fs.mkdirSync(path.join(dir, 'net'))
    // pid (comm) state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt utime stime cutime cstime …
    fs.writeFileSync(path.join(dir, 'stat'), `${p.pid} (${p.comm || 'x'}) S ${p.ppid} ${p.pid} ${p.pid} 0 -1 0 0 0 0 0 ${p.ticks || 0} 0 ${p.childTicks || 0} 0 20 0 1 0 100 0 0\n`)
    const cmdline = Array.isArray(p.cmdline) ? p.cmdline.join('\0') + '\0' : String(p.cmdline || '')
    fs.writeFileSync(path.join(dir, 'cmdline'), cmdline)
    if (p.exe) fs.symlinkSync(p.exe, path.join(dir, 'exe'))
    fs.symlinkSync(`net:[${p.ns || 4026531840}]`, path.join(dir, 'ns', 'net'))
    ;(p.fds || []).forEach((inode, i) => fs.symlinkSync(`socket:[${inode}]`, path.join(dir, 'fd', String(i + 3))))
    fs.writeFileSync(path.join(dir, 'net', 'tcp'), [TCP_HEAD, ...(p.tcp || []).map((s, i) => tcpLine(i, s))].join('\n') + '\n')
    fs.writeFileSync(path.join(dir, 'net', 'tcp6'), [TCP_HEAD, ...(p.tcp6 || []).map((s, i) => tcpLine(i, s))].join('\n') + '\n')
  }
  fs.symlinkSync(String(self), path.join(root, 'self'))
  if (machine) {
    const cpus = Array.from({ length: machine.cpus }, (_, i) => `cpu${i} 0 0 0 0 0 0 0 0 0 0`)
    fs.writeFileSync(path.join(root, 'stat'), [`cpu  ${machine.busy} 0 0 ${machine.idle} 0 0 0 0 0 0`, ...cpus, 'intr 0', ''].join('\n'))
  }
  return { root, remove: () => fs.rmSync(root, { recursive: true, force: true }) }
}

module.exports = { makeProc, mapped, hexAddress }

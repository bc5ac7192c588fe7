'use strict'

const fs = require('node:fs')
const { execFile } = require('node:child_process')
const { promisify } = require('node:util')
const { inPrivateNamespace, separateFromHost } = require('../../harness/private-netns')

const run = promisify(execFile)

// The TCP congestion control of the lanes' side of the link (h3-cc cells):
// where the lanes and Caddy accept the browser's connections. Linux decides it
// per network namespace, for each connection when it is accepted:
//  1. `net.ipv4.tcp_congestion_control`, the namespace's default. Outside the
//     host's namespace the kernel lets it be only an algorithm listed in the
//     (machine-wide) tcp_allowed_congestion_control (EPERM otherwise: here
//     "reno bbr", so not cubic), and that list we do not touch;
//  2. a route's `congctl` attribute, which wins over the default for the
//     connections using the route and may be any available algorithm.
// So both are set, the sysctl where allowed and always the route to the
// link's client, in the runner's private namespace only (harness/private-netns.js),
// never the host's. What the kernel really used is read back from the server's
// sockets with `ss -ti` (see socketsCongestion).
const SYSCTL = '/proc/sys/net/ipv4/tcp_congestion_control'
const AVAILABLE = '/proc/sys/net/ipv4/tcp_available_congestion_control'

const read = file => { try { return fs.readFileSync(file, 'utf8').trim() } catch { return null } }
const available = () => (read(AVAILABLE) || '').split(/\s+/).filter(Boolean)

// → { cc, applied, via, note }: `applied` false (with the reason in `note`)
// when the algorithm is unavailable or this is not a namespace of our own.
async function setCongestionControl (cc, { serverTun, serverAddress, clientAddress }) {
  if (!inPrivateNamespace() || separateFromHost() === false) {
    return { cc, applied: false, via: null, note: `TCP congestion control ${cc} not set: the runner is not in a network namespace of its own, and the host's is never changed` }
  }
  if (!available().includes(cc)) await run('modprobe', [`tcp_${cc}`]).catch(() => {})
  if (!available().includes(cc)) {
    return { cc, applied: false, via: null, note: `TCP congestion control ${cc} is not available on this kernel (tcp_available_congestion_control: ${available().join(' ') || 'unreadable'}; modprobe tcp_${cc} failed): the TCP lanes ran with ${read(SYSCTL)}` }
  }
  const via = []
  try {
    fs.writeFileSync(SYSCTL, cc)
    via.push('sysctl')
  } catch { /* EPERM: not in tcp_allowed_congestion_control; the route below does it */ }
  try {
    await run('ip', ['route', 'replace', `${clientAddress}/32`, 'dev', serverTun, 'src', serverAddress, 'congctl', cc])
    via.push('route')
  } catch (err) {
    if (!via.length) return { cc, applied: false, via: null, note: `TCP congestion control ${cc} could not be set: ${String(err.stderr || err.message).trim()}` }
  }
  return { cc, applied: true, via: via.join('+'), note: null }
}

// The congestion control of every established TCP connection accepted on
// `port` (server side), from `ss -tinH`: ['bbr', 'bbr', …].
async function socketsCongestion (port) {
  const { stdout } = await run('ss', ['-tinH', 'state', 'established', `( sport = :${port} )`])
  const out = []
  for (const line of stdout.split('\n')) {
    if (!/^\s/.test(line)) continue // the socket's own line; its details follow indented
    const m = /^\s+([a-z][a-z0-9_]*)\s/.exec(line)
    if (m && !m[1].includes(':')) out.push(m[1])
  }
  return out
}

module.exports = { setCongestionControl, socketsCongestion, available }

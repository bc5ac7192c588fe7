'use strict'

// Firefox sent to addresses of our choosing for chosen names (the replay's:
// each recorded name to its replay address) without touching the machine.
// Firefox has no per-name resolver switch (Chromium's --host-resolver-rules;
// network.dns.forceResolve sends every name to one address), but it resolves
// through the system (getaddrinfo, which reads /etc/hosts first: nsswitch's
// "files"; DNS over HTTPS is off in every profile, profile.js network.trr.mode
// 5). So Firefox is started in a mount namespace of its own (unshare --mount
// --propagation private; in a user namespace too when not root) in which a
// hosts file of those names is bind-mounted over /etc/hosts: only Firefox
// and its children see it, the machine's /etc/hosts is never written, and the
// mount ends with the namespace, when Firefox does. relay.js runs it so.
const net = require('node:net')
const { spawnSync } = require('node:child_process')

// What the hosts file holds besides the given names: localhost, as Debian's.
const LOCALHOST = ['127.0.0.1\tlocalhost', '::1\tlocalhost ip6-localhost ip6-loopback']
const NAME = /^(?=.{1,253}$)[a-z0-9_]([a-z0-9_-]{0,62})(\.[a-z0-9_]([a-z0-9_-]{0,62}))*\.?$/i

// The hosts file text for `entries` [{ address, names: [name, …] }]: localhost first, then one line per address,
// its names after it, in the order given. A name twice (once per address or not) is a TypeError, as are an
// address that is not an IP address and a name that is not a host name: a hosts file would take the first line
// silently, or skip a line it cannot read.
function hostsFileText (entries) {
  const seen = new Map()
  const lines = []
  for (const { address, names } of entries) {
    if (!net.isIP(address)) throw new TypeError(`hosts file: "${address}" is not an IP address`)
    if (!Array.isArray(names) || !names.length) throw new TypeError(`hosts file: ${address} has no names`)
    for (const name of names) {
      if (typeof name !== 'string' || !NAME.test(name)) throw new TypeError(`hosts file: "${name}" is not a host name`)
      const key = name.toLowerCase().replace(/\.$/, '')
      if (key === 'localhost') throw new TypeError('hosts file: localhost is always 127.0.0.1 and ::1')
      if (seen.has(key)) throw new TypeError(`hosts file: ${name} given twice (${seen.get(key)} and ${address})`)
      seen.set(key, address)
    }
    lines.push(`${address}\t${names.join(' ')}`)
  }
  return [...LOCALHOST, ...lines].join('\n') + '\n'
}

const isRoot = () => typeof process.getuid === 'function' && process.getuid() === 0

// unshare's switches for a mount namespace whose mounts propagate nowhere: as root, that alone; otherwise in a user
// namespace of its own too, mapped to root there (mounting needs CAP_SYS_ADMIN over the mount namespace).
function unshareArgs () {
  return [...(isRoot() ? [] : ['--user', '--map-root-user']), '--mount', '--propagation', 'private']
}

// The command that runs `cmd args` with `hostsFile` over /etc/hosts, in a mount namespace of its own: unshare,
// then sh mounting and exec-ing `cmd` in its place (unshare without --fork execs too: one process all along, the
// same pid, its process group and parent-death signal kept). → [command, args]. A failed mount ends it (mount's
// message on stderr) before `cmd` starts.
function withHostsFile (hostsFile, cmd, args = []) {
  return ['unshare', [...unshareArgs(), '--', 'sh', '-c', 'mount --bind "$1" /etc/hosts && shift && exec "$@"', 'h2bench-hosts', hostsFile, cmd, ...args]]
}

let cachedReason
// Why no mount namespace with its own /etc/hosts can be made here, or null when one can: tried once (a namespace
// made and /etc/hosts bound over itself inside it, which nothing outside sees), the answer kept.
function mountNamespaceUnavailableReason () {
  if (cachedReason !== undefined) return cachedReason
  cachedReason = (() => {
    if (process.platform !== 'linux') return `a hosts file of its own in a mount namespace of its own needs Linux (this is ${process.platform})`
    const [cmd, args] = withHostsFile('/etc/hosts', 'true')
    const r = spawnSync(cmd, args, { encoding: 'utf8', timeout: 10000 })
    if (r.error) return `no ${r.error.code === 'ENOENT' ? 'unshare (package util-linux)' : `unshare (${r.error.message})`}, which makes a mount namespace with a hosts file of its own`
    if (r.status !== 0) {
      const how = isRoot() ? 'unshare --mount' : 'unshare --user --map-root-user --mount (not root: a user namespace is needed, and this machine may not allow them)'
      return `${how} and mount --bind over /etc/hosts failed here: ${(r.stderr || '').trim().split('\n').pop() || `exit ${r.status}`}`
    }
    return null
  })()
  return cachedReason
}

module.exports = { hostsFileText, withHostsFile, unshareArgs, mountNamespaceUnavailableReason }

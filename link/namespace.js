'use strict'

const { spawn, execFile } = require('node:child_process')
const fs = require('node:fs')
const { promisify } = require('node:util')
const { startForwarder } = require('./forwarder')
const { UserError } = require('../common/errors')

const run = promisify(execFile)

// The client side of the link: a network namespace with one TUN device in it,
// whose only route is to the lanes' address at the other end of the
// forwarder. Nothing is named on the machine (no /run/netns entry): the
// namespace lives as long as a holder process in it, the TUN devices as long as
// the forwarder. Both read a pipe from us and end when it closes, so Ctrl-C, a
// crash or kill -9 of ours leaves nothing behind.
//
// Addresses come from 198.18.0.0/15 (RFC 2544, benchmarking): link index i
// owns the /30 at 198.18.0.0 + 4i, lanes at .1, client at .2. The index is
// locked by the TUN names (a second forwarder asking for a name in use gets
// EBUSY), so instances running at the same time never share one.
const INDEXES = 32768

// More addresses on the lanes' side (addServerAddresses: the replay's one per
// recorded address) come from 100.64.0.0/10 (RFC 6598, shared address space:
// never routed on the internet, only behind a carrier's NAT), because the /30s
// fill 198.18.0.0/15 to its end (32768 × 4). The /10 is exactly 32768 × 128:
// link index i owns the /25 at 100.64.0.0 + 128i, so the index's lock covers
// it too and two links never share one. They live only in the namespaces a
// link is built in (never the host's), like the /30s.
const SERVER_ADDRESSES = 128

// This machine cannot make a packet-level link (no /dev/net/tun, no namespaces, …): the message says why.
class LinkUnavailableError extends UserError {
  constructor (message, options = {}) {
    super(message, { status: 503, code: 'H2B_LINK_UNAVAILABLE', ...options })
  }
}

// A process h2bench started again in a network namespace of its own
// (harness/private-netns.js) carries one of these, set to the namespace it
// left ("net:[4026531840]"): it is in a private namespace while its own is
// another. ('1' from older callers: trusted as is.)
const PRIVATE_ENV = 'H2BENCH_PRIVATE_NETNS'
const USERNS_ENV = 'H2BENCH_LINK_USERNS'

// This process's network namespace ("net:[…]"), or null where /proc cannot say.
function currentNetns () {
  try {
    return fs.readlinkSync('/proc/self/ns/net')
  } catch {
    return null
  }
}

function inPrivateNamespace () {
  const left = process.env[PRIVATE_ENV] || process.env[USERNS_ENV]
  if (!left) return false
  return !/^net:\[\d+\]$/.test(left) || left !== currentNetns()
}

// True when this process's network namespace is not the host's (init's);
// unknown (null) when /proc/1/ns/net cannot be read (a user namespace, or a
// container that hides init's namespaces even from root).
function separateFromHost () {
  try {
    return currentNetns() !== fs.readlinkSync('/proc/1/ns/net')
  } catch {
    return null
  }
}

// Whether a link may be built in this process's network namespace: never in
// init's; in one h2bench made, or one known not to be init's.
function mayBuildHere (separate = separateFromHost(), mine = inPrivateNamespace()) {
  return separate !== false && (mine || separate === true)
}

// A link built in the host's network namespace would add its TUN device and
// route there: every browser on the machine sees its interfaces change and
// fails the requests it has in flight (net::ERR_NETWORK_CHANGED). So it is
// built only in a namespace of h2bench's own: every entry point starts itself
// again in one first (harness/private-netns.js).
class HostNamespaceError extends Error {
  constructor () {
    super('refusing to build a packet-level link in the host\'s network namespace: its devices and routes would disturb every ' +
      'program on the machine (browsers fail requests in flight with ERR_NETWORK_CHANGED). Start it through h2bench\'s commands ' +
      '(npm start -- --link, h2bench-link, npm run bench, h2bench load, npm test), which run themselves in a private namespace')
    this.code = 'H2B_HOST_NAMESPACE'
  }
}

function addressOf (index, host) {
  const n = (198 << 24 | 18 << 16) + index * 4 + host
  return [n >>> 24, n >>> 16 & 255, n >>> 8 & 255, n & 255].join('.')
}

// The k-th (from 0) extra server address of link `index`: 100.64.0.0 + 128 × index + k.
function serverAddressOf (index, k) {
  if (!(Number.isInteger(k) && k >= 0 && k < SERVER_ADDRESSES)) throw new RangeError(`a link has ${SERVER_ADDRESSES} extra server addresses (0…${SERVER_ADDRESSES - 1}); asked for number ${k}`)
  const n = (100 << 24 | 64 << 16) + index * SERVER_ADDRESSES + k
  return [n >>> 24, n >>> 16 & 255, n >>> 8 & 255, n & 255].join('.')
}

// Why the link cannot run here, or null.
function unavailableReason () {
  if (process.platform !== 'linux') return `the packet-level link needs Linux (network namespaces and TUN devices); this is ${process.platform}`
  if (typeof process.getuid === 'function' && process.getuid() !== 0) {
    return 'the packet-level link needs root, or a user namespace where you are root (run it as `unshare --user --map-root-user --net --mount -- <command>`, ' +
      'which h2bench-link does for you)'
  }
  try {
    fs.accessSync('/dev/net/tun', fs.constants.R_OK | fs.constants.W_OK)
  } catch {
    return 'the packet-level link needs /dev/net/tun (modprobe tun; in a container: --device /dev/net/tun)'
  }
  for (const tool of ['ip', 'nsenter', 'unshare']) {
    if (!whichSync(tool)) return `the packet-level link needs \`${tool}\` (Debian/Ubuntu: apt-get install ${tool === 'ip' ? 'iproute2' : 'util-linux'})`
  }
  return null
}

function whichSync (cmd) {
  for (const dir of (process.env.PATH || '/usr/sbin:/usr/bin:/sbin:/bin').split(':').concat('/usr/sbin', '/sbin')) {
    try {
      fs.accessSync(`${dir}/${cmd}`, fs.constants.X_OK)
      return `${dir}/${cmd}`
    } catch { /* not in this directory */ }
  }
  return null
}

// `ip …` here, or in the namespace of process `ns`.
async function ip (args, { ns } = {}) {
  const cmd = ns ? 'nsenter' : 'ip'
  const full = ns ? [`--net=/proc/${ns}/ns/net`, '--', 'ip', ...args] : args
  try {
    await run(cmd, full)
  } catch (err) {
    throw new Error(`ip ${args.join(' ')}${ns ? ' (client namespace)' : ''}: ${String(err.stderr || err.message).trim()}`, { cause: err })
  }
}

// `ip -batch -`: many `ip` commands in one process, here or in the namespace of process `ns`.
function ipBatch (lines, { ns } = {}) {
  const cmd = ns ? 'nsenter' : 'ip'
  const args = ns ? [`--net=/proc/${ns}/ns/net`, '--', 'ip', '-batch', '-'] : ['-batch', '-']
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { stdio: ['pipe', 'ignore', 'pipe'] })
    let stderr = ''
    child.stderr.on('data', d => { stderr += d })
    child.once('error', reject)
    child.once('exit', code => code === 0
      ? resolve()
      : reject(new Error(`ip -batch${ns ? ' (client namespace)' : ''} (${lines[0]}${lines.length > 1 ? ', …' : ''}): ${stderr.trim() || `exit ${code}`}`)))
    child.stdin.end(lines.join('\n') + '\n')
  })
}

// A process that holds the client namespace open until its stdin closes.
function startHolder () {
  const child = spawn('unshare', ['--net', '--', 'sh', '-c', 'read _ignored || true'], { stdio: ['pipe', 'ignore', 'pipe'], detached: true })
  return new Promise((resolve, reject) => {
    let stderr = ''
    child.stderr.on('data', d => { stderr += d })
    child.once('error', reject)
    child.once('exit', code => reject(new Error(`unshare --net failed (code ${code}): ${stderr.trim()}`)))
    // unshare execs sh in place, so the pid is the namespace's; wait until it has unshared.
    const started = Date.now()
    const check = () => {
      let same = false
      try {
        same = fs.readlinkSync(`/proc/${child.pid}/ns/net`) === fs.readlinkSync('/proc/self/ns/net')
      } catch { /* not started yet */ }
      if (!same) {
        child.removeAllListeners('exit')
        resolve(child)
      } else if (Date.now() - started > 5000) {
        child.kill('SIGKILL')
        reject(new Error('unshare --net did not create a namespace within 5 s'))
      } else {
        setTimeout(check, 5)
      }
    }
    check()
  })
}

// spawn() for the namespace of process `pid`: the child is tracked in
// `children` (killed when the link closes) and dies with this process
// (parent-death signal).
function spawnerFor (pid, children) {
  return (cmd, args = [], options = {}) => {
    const child = spawn('setpriv', ['--pdeathsig', 'KILL', '--', 'nsenter', `--net=/proc/${pid}/ns/net`, '--', cmd, ...args], options)
    children.add(child)
    child.once('exit', () => children.delete(child))
    return child
  }
}

// Opens a link: `commands` are the forwarder's `set` lines (link/spec.js
// forwarderCommands). Resolves { index, serverAddress, clientAddress, pid,
// forwarder, nsenterPrefix, spawnInside, serverAddresses, addServerAddresses(n),
// configure, stats, close }.
async function openLink (commands, { seed, start = process.pid * 7919 } = {}) {
  const why = unavailableReason()
  if (why) throw new LinkUnavailableError(why)
  if (!mayBuildHere()) throw new HostNamespaceError()
  let forwarder = null
  let index
  for (let attempt = 0; attempt < 64 && !forwarder; attempt++) {
    index = (start + attempt * 4099) % INDEXES
    forwarder = await startForwarder({ clientTun: `h2bc${index}`, serverTun: `h2bs${index}`, seed })
  }
  if (!forwarder) throw new LinkUnavailableError('no free link index after 64 tries (are many h2bench links running?)')
  const clientTun = `h2bc${index}`
  const serverTun = `h2bs${index}`
  const serverAddress = addressOf(index, 1)
  const clientAddress = addressOf(index, 2)
  let holder = null
  const children = new Set()
  let closed = null
  const close = () => {
    closed = closed || (async () => {
      for (const child of children) if (child.exitCode === null) child.kill('SIGKILL')
      if (holder) holder.stdin.end()
      await forwarder.close()
    })()
    return closed
  }
  try {
    await forwarder.configure(commands)
    holder = await startHolder()
    const pid = holder.pid
    // IPv6 off on both devices: no router solicitations in the counters.
    await run('sysctl', ['-q', '-w', `net.ipv6.conf.${serverTun}.disable_ipv6=1`]).catch(() => {})
    await ip(['addr', 'add', `${serverAddress}/32`, 'peer', clientAddress, 'dev', serverTun])
    await ip(['link', 'set', serverTun, 'txqueuelen', '10000', 'up'])
    // The client's other address, which its NAT may rebind it to (rebind=…/address, link/forwarder/nat.c): .3 of the /30.
    await ip(['route', 'add', `${addressOf(index, 3)}/32`, 'dev', serverTun])
    await ip(['link', 'set', clientTun, 'netns', String(pid)])
    await run('nsenter', [`--net=/proc/${pid}/ns/net`, '--', 'sysctl', '-q', '-w', `net.ipv6.conf.${clientTun}.disable_ipv6=1`]).catch(() => {})
    await ip(['link', 'set', 'lo', 'up'], { ns: pid })
    await ip(['addr', 'add', `${clientAddress}/32`, 'peer', serverAddress, 'dev', clientTun], { ns: pid })
    await ip(['link', 'set', clientTun, 'txqueuelen', '10000', 'up'], { ns: pid })
    const nsenterPrefix = ['nsenter', `--net=/proc/${pid}/ns/net`, '--']
    const spawnInside = spawnerFor(pid, children)
    // More addresses on the lanes' side, each reached from the client only through its TUN (the forwarder,
    // every effect of the link, its counters), as the lanes' own: n more of the link's /25 (SERVER_ADDRESSES),
    // added to the server TUN (this namespace owns them: servers here bind them) and routed from the client's
    // address in its namespace. They go with the devices when the link closes. → the n new addresses.
    const serverAddresses = []
    const addServerAddresses = async n => {
      if (!(Number.isInteger(n) && n >= 0)) throw new RangeError(`addServerAddresses(n): n must be a whole number ≥ 0; got ${n}`)
      if (serverAddresses.length + n > SERVER_ADDRESSES) {
        throw new LinkUnavailableError(`a link has ${SERVER_ADDRESSES} extra server addresses; asked for ${serverAddresses.length + n}`)
      }
      const added = Array.from({ length: n }, (_, k) => serverAddressOf(index, serverAddresses.length + k))
      if (!added.length) return added
      await ipBatch(added.map(a => `addr add ${a}/32 dev ${serverTun}`))
      await ipBatch(added.map(a => `route add ${a}/32 dev ${clientTun} src ${clientAddress}`), { ns: pid })
      serverAddresses.push(...added)
      return added
    }
    return {
      index,
      clientTun,
      serverTun,
      serverAddress,
      clientAddress,
      pid,
      forwarder,
      nsenterPrefix,
      spawnInside,
      serverAddresses,
      addServerAddresses,
      configure: lines => forwarder.configure(lines),
      stats: options => forwarder.stats(options),
      seed: seed => forwarder.seed(seed),
      close
    }
  } catch (err) {
    await close()
    throw err
  }
}

module.exports = {
  openLink, addressOf, serverAddressOf, unavailableReason, whichSync, startHolder, spawnerFor, ip, separateFromHost, inPrivateNamespace, currentNetns,
  mayBuildHere,
  LinkUnavailableError, HostNamespaceError, INDEXES, SERVER_ADDRESSES, PRIVATE_ENV, USERNS_ENV
}

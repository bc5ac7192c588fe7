'use strict'

// The three paths npm run bench:link measures, each between a client network
// namespace (where the load generator runs) and this one (the sink):
//
//   veth    the kernel's own path: a veth pair, no emulation (the ceiling)
//   c       the packet-level link: link/forwarder/forwarder.c via openLink
//   python  python-forwarder.py here: the same design in Python, fixed delay only
//
// Every path resolves { key, name, serverAddress, clientAddress, serverDev,
// congestionControl (the sender's TCP), forwarderPid, spawnInside, setDelay(ms), reset(), stats(), close() }:
// reset() clears the forwarder's counters, stats() reads them (null on veth).
// Nothing outlives us: the namespaces live as long as a holder process that
// reads a pipe from us, the TUN devices as long as their forwarder (which
// reads one too), and the veth pair is made with its far end already in the
// namespace, so it goes with it.
const path = require('node:path')
const readline = require('node:readline')
const { spawn, execFile } = require('node:child_process')
const { promisify } = require('node:util')
const { openLink, addressOf, startHolder, spawnerFor, ip, INDEXES } = require('../../link/namespace')
const { parseLinkSpec } = require('../../link/spec')
const { forwarderCommands } = require('../../link/forwarder-commands')

const run = promisify(execFile)
const PYTHON_FORWARDER = path.join(__dirname, 'python-forwarder.py')
// Link indexes (198.18.0.0/15, one /30 each, link/namespace.js) from the top
// down: the veth pair's /30 (198.19.255.248/30 first) and the Python
// forwarder's TUN names. openLink starts at pid × 7919, rarely up here.
const TOP_INDEX = INDEXES - 2


async function sysctlIn (ns, setting) {
  const args = ['sysctl', '-q', '-w', setting]
  await (ns ? run('nsenter', [`--net=/proc/${ns}/ns/net`, '--', ...args]) : run(args[0], args.slice(1))).catch(() => {})
}

// The sender's TCP congestion control, the same on every path. Not the
// machine's default, which may be BBR: its pacing of one-segment packets (no
// GSO on these devices), with the reordering a veth pair sees when the sender
// moves between CPUs, held the kernel's path to a fifth of its rate. Reno,
// because a namespace other than the first may only pick from
// net.ipv4.tcp_allowed_congestion_control (reno and the default, usually).
// Resolves the one in effect.
const CONGESTION_CONTROL = 'reno'
async function setCongestionControl (pid) {
  await sysctlIn(pid, `net.ipv4.tcp_congestion_control=${CONGESTION_CONTROL}`)
  const { stdout } = await run('nsenter', [`--net=/proc/${pid}/ns/net`, '--', 'sysctl', '-n', 'net.ipv4.tcp_congestion_control'])
  return stdout.trim()
}


function killAll (children) {
  for (const child of children) if (child.exitCode === null && !child.signalCode) child.kill('SIGKILL')
}

// IPv4 addresses configured anywhere in this namespace.
async function addressesInUse () {
  const { stdout } = await run('ip', ['-4', '-o', 'addr', 'show'])
  return new Set([...stdout.matchAll(/inet (\d+\.\d+\.\d+\.\d+)/g)].map(m => m[1]))
}

// ---- the kernel's own path ----------------------------------------------------

async function openVeth () {
  const inUse = await addressesInUse()
  let index = TOP_INDEX
  while (inUse.has(addressOf(index, 1)) || inUse.has(addressOf(index, 2))) index--
  const serverAddress = addressOf(index, 1)
  const clientAddress = addressOf(index, 2)
  const serverDev = `h2bvs${process.pid}`.slice(0, 15)
  const clientDev = `h2bvc${process.pid}`.slice(0, 15)
  const children = new Set()
  let congestionControl
  const holder = await startHolder()
  const pid = holder.pid
  let closed = null
  const close = () => {
    closed = closed || (async () => {
      killAll(children)
      holder.stdin.end() // the namespace goes, and the veth pair with its far end
      await new Promise(resolve => holder.exitCode !== null ? resolve() : holder.once('exit', resolve))
      await run('ip', ['link', 'del', serverDev]).catch(() => {}) // normally gone already
    })()
    return closed
  }
  try {
    await ip(['link', 'add', serverDev, 'type', 'veth', 'peer', 'name', clientDev, 'netns', String(pid)])
    await sysctlIn(null, `net.ipv6.conf.${serverDev}.disable_ipv6=1`)
    await sysctlIn(pid, `net.ipv6.conf.${clientDev}.disable_ipv6=1`)
    // One MTU-sized TCP segment per packet (no TSO/GSO super-packets, which a
    // TUN device never sees): the same 1500-byte packets as the forwarders.
    await ip(['link', 'set', serverDev, 'gso_max_segs', '1', 'up'])
    await ip(['addr', 'add', `${serverAddress}/30`, 'dev', serverDev])
    await ip(['link', 'set', 'lo', 'up'], { ns: pid })
    await ip(['link', 'set', clientDev, 'gso_max_segs', '1', 'up'], { ns: pid })
    await ip(['addr', 'add', `${clientAddress}/30`, 'dev', clientDev], { ns: pid })
    congestionControl = await setCongestionControl(pid)
  } catch (err) {
    await close()
    throw err
  }
  return {
    key: 'veth',
    name: 'kernel veth',
    serverAddress,
    clientAddress,
    serverDev,
    l2HeaderBytes: 14, // its counters count Ethernet frames
    congestionControl,
    forwarderPid: null,
    spawnInside: spawnerFor(pid, children),
    setDelay: async ms => 0, // no emulation: the configured delay is 0
    reset: async () => {},
    stats: async () => null,
    close
  }
}

// ---- the C forwarder -----------------------------------------------------------

// A delay each way and, for bench:link --effects, an effect on top (a link spec's items).
function delayCommands (ms, effect = '') {
  const items = [`delay=${ms}ms`, effect].filter(Boolean).join(',')
  return forwarderCommands(parseLinkSpec(items))
}

async function openC () {
  const link = await openLink(delayCommands(0), { seed: 1 })
  let congestionControl
  try {
    congestionControl = await setCongestionControl(link.pid)
  } catch (err) {
    await link.close()
    throw err
  }
  return {
    key: 'c',
    name: 'C forwarder',
    serverAddress: link.serverAddress,
    clientAddress: link.clientAddress,
    serverDev: link.serverTun,
    congestionControl,
    forwarderPid: link.forwarder.child.pid,
    spawnInside: link.spawnInside,
    setDelay: async (ms, effect) => { await link.configure(delayCommands(ms, effect)); await link.seed(1); return ms },
    reset: () => link.stats({ reset: true }),
    stats: () => link.stats(),
    close: () => link.close()
  }
}

// ---- the Python forwarder ----------------------------------------------------

// python-forwarder.py's line protocol: one reply line per command, in order.
function startPython (clientTun, serverTun) {
  const child = spawn('python3', [PYTHON_FORWARDER, clientTun, serverTun], { stdio: ['pipe', 'pipe', 'pipe'] })
  const lines = readline.createInterface({ input: child.stdout })
  let stderr = ''
  child.stderr.on('data', d => { stderr = (stderr + d).slice(-2000) })
  const waiting = []
  const exited = new Promise(resolve => child.once('exit', (code, signal) => resolve({ code, signal })))
  let busy = false
  return new Promise((resolve, reject) => {
    child.once('error', reject)
    exited.then(({ code, signal }) => {
      if (busy) return resolve(null)
      const err = new Error(`the Python forwarder exited (${signal || `code ${code}`})${stderr ? `: ${stderr.trim()}` : ''}`)
      reject(err)
      for (const w of waiting.splice(0)) w.reject(err)
    })
    lines.once('line', first => {
      if (first.startsWith('busy ')) {
        busy = true // it exits: the caller tries other names
        return
      }
      if (first !== 'ready') {
        child.kill()
        reject(new Error(`the Python forwarder could not start: ${first}`))
        return
      }
      lines.on('line', line => { const w = waiting.shift(); if (w) w.resolve(line) })
      const command = line => new Promise((resolve, reject) => {
        if (child.exitCode !== null || child.signalCode) return reject(new Error('the Python forwarder is not running'))
        waiting.push({ resolve, reject })
        child.stdin.write(`${line}\n`)
      })
      resolve({
        child,
        command,
        close: async () => {
          if (child.exitCode === null && !child.signalCode) child.stdin.end()
          const timer = setTimeout(() => child.kill('SIGKILL'), 2000)
          await exited
          clearTimeout(timer)
        }
      })
    })
  })
}

async function openPython () {
  let forwarder = null
  let index = TOP_INDEX
  while (!forwarder && --index > TOP_INDEX - 64) forwarder = await startPython(`h2bc${index}`, `h2bs${index}`)
  if (!forwarder) throw new Error('no free TUN names for the Python forwarder')
  const clientTun = `h2bc${index}`
  const serverTun = `h2bs${index}`
  const serverAddress = addressOf(index, 1)
  const clientAddress = addressOf(index, 2)
  const children = new Set()
  let holder = null
  let closed = null
  const close = () => {
    closed = closed || (async () => {
      killAll(children)
      if (holder) holder.stdin.end()
      await forwarder.close()
    })()
    return closed
  }
  const configure = async ms => {
    for (const dir of ['up', 'down']) {
      const reply = await forwarder.command(`set ${dir} delay_us=${Math.round(ms * 1000)}`)
      if (reply !== 'ok') throw new Error(`the Python forwarder refused a delay of ${ms} ms: ${reply}`)
    }
    return ms
  }
  try {
    holder = await startHolder()
    const pid = holder.pid
    // As link/namespace.js sets up the C forwarder's devices.
    await sysctlIn(null, `net.ipv6.conf.${serverTun}.disable_ipv6=1`)
    await ip(['addr', 'add', `${serverAddress}/32`, 'peer', clientAddress, 'dev', serverTun])
    await ip(['link', 'set', serverTun, 'txqueuelen', '10000', 'up'])
    await ip(['link', 'set', clientTun, 'netns', String(pid)])
    await sysctlIn(pid, `net.ipv6.conf.${clientTun}.disable_ipv6=1`)
    await ip(['link', 'set', 'lo', 'up'], { ns: pid })
    await ip(['addr', 'add', `${clientAddress}/32`, 'peer', serverAddress, 'dev', clientTun], { ns: pid })
    await ip(['link', 'set', clientTun, 'txqueuelen', '10000', 'up'], { ns: pid })
    const congestionControl = await setCongestionControl(pid)
    await configure(0)
    return {
      key: 'python',
      name: 'Python forwarder',
      serverAddress,
      clientAddress,
      serverDev: serverTun,
      congestionControl,
      forwarderPid: forwarder.child.pid,
      spawnInside: spawnerFor(pid, children),
      setDelay: configure,
      reset: () => forwarder.command('reset'),
      stats: async () => JSON.parse(await forwarder.command('stats')),
      close
    }
  } catch (err) {
    await close()
    throw err
  }
}

const PATHS = [
  { key: 'veth', name: 'kernel veth', open: openVeth },
  { key: 'c', name: 'C forwarder', open: openC },
  { key: 'python', name: 'Python forwarder', open: openPython }
]

module.exports = { PATHS, CONGESTION_CONTROL, openVeth, openC, openPython }

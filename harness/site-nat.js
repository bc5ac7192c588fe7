'use strict'

// A site of the user's behind the packet-level link (the runner's `site
// --link`, opt-in): the browser sits in the link's client namespace, whose
// only route led to the lanes' end of the forwarder, and the runner itself in
// a private namespace with nothing but loopback (harness/private-netns.js).
// So that namespace is given a way out that changes nothing on the machine:
// slirp4netns, user-mode networking (the network stack of rootless Podman),
// started from outside for the runner's process, makes a tap device in the
// private namespace whose packets it turns into ordinary sockets of the
// outside; the machine's interfaces, routes and firewall are never touched.
// In the private namespace, and only there, the client's packets are then
// forwarded and masqueraded out of that tap (net.ipv4.ip_forward and an
// iptables nat rule, both per namespace), and the client namespace gets a
// default route into the link. The path of a load: browser → link (every
// effect) → private namespace → NAT → slirp4netns → the machine's own path to
// the origin. DNS is the machine's resolver (/etc/resolv.conf), reached the
// same way; one on 127.0.0.x (systemd-resolved) is not reachable from the
// link's namespace, and a page should then be given by address.
// TCP is not left to slirp4netns's own TCP stack (libslirp: no window
// scaling, so 64 KiB a round trip a connection through the link's delay,
// rootless-containers/slirp4netns#171: measured, HTTP/2's one connection
// took 1.8× the replay's onload behind 100 ms): the client's connections are
// redirected to a splice in the private namespace (harness/splice/splice.c),
// whose Linux TCP crosses the link, as a Linux server's would; the splice's
// own connection to the origin goes through slirp4netns with no delay to
// pay. UDP (QUIC) is forwarded and masqueraded as it is: end to end.
const fs = require('node:fs')
const { spawn, execFile, execFileSync } = require('node:child_process')
const { promisify } = require('node:util')
const { once } = require('node:events')
const { LinkUnavailableError, ip, whichSync: which } = require('../link/namespace')
const { ensureSplice } = require('./splice/build')

const run = promisify(execFile)
const TAP = 'tap0'
// The private namespace's way out (slirp4netns's defaults): its gateway, and the outside's loopback seen from inside.
const SLIRP = { address: '10.0.2.100', gateway: '10.0.2.2' }
// Set in the environment of a runner started again with a way out (rerunInPrivateNamespace's nat).
const NAT_ENV = 'H2BENCH_NAT_TAP'

// Why a site cannot be reached through the link here, or null.
function natUnavailableReason () {
  if (!which('slirp4netns')) return 'a site behind the link is reached through slirp4netns (user-mode networking): apt-get install -y slirp4netns'
  if (!which('iptables')) return 'a site behind the link is reached by NAT in the runner\'s own namespace, which needs iptables: apt-get install -y iptables'
  // The kernel's nat table, asked read-only in this namespace (the runner's own, or the tests'): a kernel without it says so here.
  try {
    execFileSync(which('iptables'), ['-t', 'nat', '-S'], { stdio: ['ignore', 'ignore', 'pipe'], timeout: 10000 })
  } catch (err) {
    return `a site behind the link is reached by NAT, and this kernel's netfilter has no nat table here (iptables -t nat: ${String(err.stderr || err.message).trim().split('\n')[0]})`
  }
  return null
}

// Starts slirp4netns for the network namespace of process `pid` once that
// process has left ours (until then its namespace is ours, and slirp's tap
// would be made here: never). → the slirp4netns child (kill it to end).
async function startSlirp (pid, { timeoutMs = 5000 } = {}) {
  const mine = fs.readlinkSync('/proc/self/ns/net')
  const t0 = Date.now()
  for (;;) {
    let theirs = null
    try {
      theirs = fs.readlinkSync(`/proc/${pid}/ns/net`)
    } catch { /* not started yet, or gone */ }
    if (theirs && theirs !== mine) break
    if (Date.now() - t0 > timeoutMs) throw new LinkUnavailableError(`the private namespace of process ${pid} did not appear within ${timeoutMs / 1000} s; slirp4netns not started`)
    await new Promise(resolve => setTimeout(resolve, 5))
  }
  // It dies with this process too (parent-death signal), so a kill -9 of ours leaves nothing running.
  const child = spawn('setpriv', ['--pdeathsig', 'KILL', '--', which('slirp4netns'), '--configure', '--mtu=1500', String(pid), TAP], { stdio: ['ignore', 'ignore', 'pipe'] })
  child.stderr.resume()
  return child
}

// The TCP splice (./splice/splice.c) started here, on a free port → { port, pid, close() }.
async function startSplice ({ timeoutMs = 10000 } = {}) {
  const child = spawn(ensureSplice(), ['0'], { stdio: ['ignore', 'pipe', 'pipe'] })
  let err = ''
  child.stderr.on('data', d => { err += d })
  let out = ''
  const port = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new LinkUnavailableError(`the TCP splice did not listen within ${timeoutMs / 1000} s`)), timeoutMs)
    child.stdout.on('data', d => {
      out += d
      const m = /listening (\d+)/.exec(out)
      if (m) { clearTimeout(timer); resolve(Number(m[1])) }
    })
    child.once('exit', code => { clearTimeout(timer); reject(new LinkUnavailableError(`the TCP splice ended (${code}): ${err.trim()}`)) })
    child.once('error', e => { clearTimeout(timer); reject(e) })
  })
  child.stdout.resume()
  const close = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return
    child.kill('SIGKILL')
    await once(child, 'exit')
  }
  return { port, pid: child.pid, close }
}

// In the private namespace (NAT_ENV set): waits for slirp's tap, then lets
// the link's client (`opened`: link/namespace.js openLink's) out through it,
// its TCP through the splice. → { tap, address, gateway, splice: { port, pid },
// close() (its rules taken out and the splice ended: call it before the link closes) } for the record.
async function natThroughLink (opened, { timeoutMs = 10000 } = {}) {
  const tap = process.env[NAT_ENV]
  if (!tap) throw new LinkUnavailableError('this runner was started without a way out of its namespace (slirp4netns): start it as npm run bench -- site --url … --link …')
  const t0 = Date.now()
  for (;;) {
    const { stdout } = await run('ip', ['-o', '-4', 'addr', 'show', 'dev', tap]).catch(() => ({ stdout: '' }))
    if (/inet /.test(stdout)) break
    if (Date.now() - t0 > timeoutMs) throw new LinkUnavailableError(`slirp4netns's device ${tap} did not come up within ${timeoutMs / 1000} s`)
    await new Promise(resolve => setTimeout(resolve, 20))
  }
  const splice = await startSplice()
  // The rules of this link, taken out again when it closes: the next link's client has the same address, and a rule
  // left behind would send its connections to this splice's port, closed by then (connection refused).
  const rules = [
    ['POSTROUTING', '-s', `${opened.clientAddress}/32`, '-o', tap, '-j', 'MASQUERADE'],
    ['PREROUTING', '-s', `${opened.clientAddress}/32`, '-p', 'tcp', '-j', 'REDIRECT', '--to-ports', String(splice.port)]
  ]
  const added = []
  const close = async () => {
    for (const rule of added.splice(0).reverse()) await run('iptables', ['-t', 'nat', '-D', ...rule]).catch(() => {})
    await splice.close()
  }
  try {
    await run('sysctl', ['-q', '-w', 'net.ipv4.ip_forward=1'])
    for (const rule of rules) {
      await run('iptables', ['-t', 'nat', '-A', ...rule])
      added.push(rule)
    }
    await ip(['route', 'add', 'default', 'dev', opened.clientTun], { ns: opened.pid })
  } catch (err) {
    await close()
    throw new LinkUnavailableError(`NAT for the link's client in the runner's namespace: ${String(err.stderr || err.message).trim()}`)
  }
  return { tap, address: SLIRP.address, gateway: SLIRP.gateway, splice: { port: splice.port, pid: splice.pid }, close }
}

module.exports = { natUnavailableReason, startSlirp, natThroughLink, NAT_ENV, SLIRP }

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
const fs = require('node:fs')
const { spawn, execFile, execFileSync } = require('node:child_process')
const { promisify } = require('node:util')
const { LinkUnavailableError, ip, whichSync: which } = require('../link/namespace')

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

// In the private namespace (NAT_ENV set): waits for slirp's tap, then lets
// the link's client (`opened`: link/namespace.js openLink's) out through it.
// → { tap, address, gateway } for the record.
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
  try {
    await run('sysctl', ['-q', '-w', 'net.ipv4.ip_forward=1'])
    await run('iptables', ['-t', 'nat', '-A', 'POSTROUTING', '-s', `${opened.clientAddress}/32`, '-o', tap, '-j', 'MASQUERADE'])
  } catch (err) {
    throw new LinkUnavailableError(`NAT for the link's client in the runner's namespace: ${String(err.stderr || err.message).trim()}`)
  }
  await ip(['route', 'add', 'default', 'dev', opened.clientTun], { ns: opened.pid })
  return { tap, address: SLIRP.address, gateway: SLIRP.gateway }
}

module.exports = { natUnavailableReason, startSlirp, natThroughLink, NAT_ENV, SLIRP }

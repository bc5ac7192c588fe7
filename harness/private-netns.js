'use strict'

const fs = require('node:fs')
const { spawn } = require('node:child_process')
const { LinkUnavailableError } = require('../link/namespace')
const { signalExitCode } = require('../common/cli')

// A command that builds a packet-level link runs in a network namespace of
// its own: it starts itself again under `unshare --net` (as root) or
// `unshare --user --map-root-user --net` (without root: a user namespace in
// which we are root; where the distribution forbids those, unshare says so
// and we pass that on), marked by an environment variable so it happens
// once. The link's TUN devices, routes and the TCP congestion control the
// h3-cc cells set (bench/cells/congestion.js) then live and die in that
// namespace: the host's own is never changed, and creating a link cannot
// disturb browsers outside it (ERR_NETWORK_CHANGED).
//
// The runner and h2bench load always do so (needsPrivateNamespace); npm start
// --link and h2bench-link only without root (needsUserNamespace).
const PRIVATE_ENV = 'H2BENCH_PRIVATE_NETNS'
const USERNS_ENV = 'H2BENCH_LINK_USERNS'

const isRoot = () => typeof process.getuid !== 'function' || process.getuid() === 0

const inPrivateNamespace = () => Boolean(process.env[PRIVATE_ENV] || process.env[USERNS_ENV])

function needsPrivateNamespace (networks) {
  return process.platform === 'linux' && networks.includes('link') && !inPrivateNamespace()
}

function needsUserNamespace () {
  return process.platform === 'linux' && !isRoot() && !inPrivateNamespace()
}

// Resolves the exit code of `node script ...argv` run again in a namespace of
// its own: its own code, or 128 + n when signal n ended it (common/cli.js).
// SIGINT, SIGTERM and SIGHUP to this process are passed on (as SIGINT or SIGTERM).
function rerunInPrivateNamespace (script, argv) {
  const [flags, env] = isRoot() ? [['--net'], PRIVATE_ENV] : [['--user', '--map-root-user', '--net'], USERNS_ENV]
  return new Promise((resolve, reject) => {
    const child = spawn('unshare', [...flags, '--', process.execPath, script, ...argv],
      { stdio: 'inherit', env: { ...process.env, [env]: '1' } })
    for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(sig, () => child.kill(sig === 'SIGINT' ? 'SIGINT' : 'SIGTERM'))
    child.once('error', err => reject(isRoot()
      ? new LinkUnavailableError(`a private network namespace needs unshare (util-linux): ${err.message}`)
      : new LinkUnavailableError(`without root the link needs unshare (util-linux): ${err.message}`)))
    child.once('exit', (code, signal) => resolve(signal ? signalExitCode(signal) : code))
  })
}

// In the fresh namespace loopback starts down.
async function preparePrivateNamespace () {
  if (!inPrivateNamespace()) return
  await new Promise(resolve => spawn('ip', ['link', 'set', 'lo', 'up'], { stdio: 'ignore' }).once('exit', resolve).once('error', resolve))
}

// True when this process's network namespace is not the host's (init's);
// unknown (null) when /proc/1/ns/net cannot be read (a user namespace).
function separateFromHost () {
  try {
    return fs.readlinkSync('/proc/self/ns/net') !== fs.readlinkSync('/proc/1/ns/net')
  } catch {
    return null
  }
}

module.exports = {
  needsPrivateNamespace, needsUserNamespace, rerunInPrivateNamespace, preparePrivateNamespace, inPrivateNamespace, separateFromHost,
  PRIVATE_ENV, USERNS_ENV
}

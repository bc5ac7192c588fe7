'use strict'

const fs = require('node:fs')
const os = require('node:os')
const { spawn } = require('node:child_process')
const { rerunInUserNamespace, prepareUserNamespace, USERNS_ENV } = require('./userns')

// With a packet-level link the runner runs in a network namespace of its own:
// started again under `unshare --net` (as root) or `unshare --user
// --map-root-user --net` (without root, link/userns.js), marked by an
// environment variable so it happens once. The link's TUN devices, routes and
// the TCP congestion control the h3-cc cells set (bench/congestion.js) then
// live and die in that namespace: the host's own is never changed, and
// creating a link cannot disturb browsers outside it (ERR_NETWORK_CHANGED).
const PRIVATE_ENV = 'H2BENCH_PRIVATE_NETNS'

const inPrivateNamespace = () => Boolean(process.env[PRIVATE_ENV] || process.env[USERNS_ENV])

function needsPrivateNamespace (networks) {
  return process.platform === 'linux' && networks.includes('link') && !inPrivateNamespace()
}

// Resolves the exit code of `node script ...argv` run again in a namespace of its own.
function rerunInPrivateNamespace (script, argv) {
  if (typeof process.getuid === 'function' && process.getuid() !== 0) return rerunInUserNamespace(script, argv)
  return new Promise((resolve, reject) => {
    const child = spawn('unshare', ['--net', '--', process.execPath, script, ...argv],
      { stdio: 'inherit', env: { ...process.env, [PRIVATE_ENV]: '1' } })
    for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(sig, () => child.kill(sig === 'SIGINT' ? 'SIGINT' : 'SIGTERM'))
    child.once('error', err => reject(new Error(`a private network namespace needs unshare (util-linux): ${err.message}`)))
    child.once('exit', (code, signal) => resolve(signal ? 128 + os.constants.signals[signal] : code))
  })
}

// In the fresh namespace loopback starts down.
async function preparePrivateNamespace () {
  if (process.env[USERNS_ENV]) return prepareUserNamespace()
  if (!process.env[PRIVATE_ENV]) return
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

module.exports = { needsPrivateNamespace, rerunInPrivateNamespace, preparePrivateNamespace, inPrivateNamespace, separateFromHost, PRIVATE_ENV }

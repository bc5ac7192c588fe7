'use strict'

const { spawn } = require('node:child_process')
const { LinkUnavailableError } = require('../link/namespace')

// Without root, the link runs in a user namespace where we are root: the
// whole program is started again there (`unshare --user --map-root-user
// --net`), the lanes listen in that namespace and the client namespace is made
// inside it. Where the distribution forbids user namespaces, unshare says so
// and we pass that on.
const USERNS_ENV = 'H2BENCH_LINK_USERNS'

function needsUserNamespace () {
  return process.platform === 'linux' && typeof process.getuid === 'function' && process.getuid() !== 0 && !process.env[USERNS_ENV]
}

// Resolves the exit code of the program run again in a user namespace.
function rerunInUserNamespace (script, argv) {
  return new Promise((resolve, reject) => {
    const child = spawn('unshare', ['--user', '--map-root-user', '--net', '--', process.execPath, script, ...argv],
      { stdio: 'inherit', env: { ...process.env, [USERNS_ENV]: '1' } })
    for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(sig, () => child.kill(sig === 'SIGINT' ? 'SIGINT' : 'SIGTERM'))
    child.once('error', err => reject(new LinkUnavailableError(`without root the link needs unshare (util-linux): ${err.message}`)))
    child.once('exit', (code, signal) => resolve(signal ? 128 : code))
  })
}

// In the user namespace's fresh network namespace, loopback starts down.
function prepareUserNamespace () {
  if (!process.env[USERNS_ENV]) return Promise.resolve()
  return new Promise(resolve => spawn('ip', ['link', 'set', 'lo', 'up'], { stdio: 'ignore' }).once('exit', resolve).once('error', resolve))
}

module.exports = { needsUserNamespace, rerunInUserNamespace, prepareUserNamespace, USERNS_ENV }

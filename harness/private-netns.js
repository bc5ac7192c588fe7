'use strict'

const { spawn } = require('node:child_process')
const { LinkUnavailableError, separateFromHost, inPrivateNamespace, currentNetns, PRIVATE_ENV, USERNS_ENV } = require('../link/namespace')
const { signalExitCode } = require('../common/cli')
const { startSlirp, NAT_ENV } = require('./site-nat')

// A command that builds a packet-level link runs in a network namespace of
// its own: it starts itself again under `unshare --net` (as root) or
// `unshare --user --map-root-user --net` (without root: a user namespace in
// which we are root; where the distribution forbids those, unshare says so
// and we pass that on), marked by an environment variable so it happens
// once (the variable holds the namespace it left: link/namespace.js). The link's TUN devices, routes and the TCP congestion control the
// h3-cc cells set (bench/cells/congestion.js) then live and die in that
// namespace: the host's own is never changed, and creating a link cannot
// disturb browsers outside it (ERR_NETWORK_CHANGED).
//
// Every entry point that builds a link does so (needsPrivateNamespace): the
// runner, h2bench load, npm start --link, h2bench-link and npm test (test/run.js);
// link/namespace.js openLink refuses the host's namespace.

const isRoot = () => typeof process.getuid !== 'function' || process.getuid() === 0

function needsPrivateNamespace (networks) {
  return process.platform === 'linux' && networks.includes('link') && !inPrivateNamespace()
}

// Resolves the exit code of `node script ...argv` run again in a namespace of
// its own: its own code, or 128 + n when signal n ended it (common/cli.js).
// SIGINT, SIGTERM and SIGHUP to this process are passed on (as SIGINT or SIGTERM).
// `nat`: give that namespace a way out (harness/site-nat.js: slirp4netns,
// started from here once the child has left this namespace, ended with it).
function rerunInPrivateNamespace (script, argv, { nat = false } = {}) {
  const [flags, env] = isRoot() ? [['--net'], PRIVATE_ENV] : [['--user', '--map-root-user', '--net'], USERNS_ENV]
  return new Promise((resolve, reject) => {
    const child = spawn('unshare', [...flags, '--', process.execPath, script, ...argv],
      { stdio: 'inherit', env: { ...process.env, [env]: currentNetns() || '1', ...(nat ? { [NAT_ENV]: 'tap0' } : {}) } }) // the namespace it leaves: see link/namespace.js
    if (nat) {
      startSlirp(child.pid).then(slirp => {
        child.once('exit', () => slirp.kill('SIGTERM'))
        if (child.exitCode !== null) slirp.kill('SIGTERM')
      }, err => process.stderr.write(`${err.message}\n`)) // the run then says it has no way out
    }
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

module.exports = {
  needsPrivateNamespace, rerunInPrivateNamespace, preparePrivateNamespace, inPrivateNamespace, separateFromHost,
  PRIVATE_ENV, USERNS_ENV
}

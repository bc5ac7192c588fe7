#!/usr/bin/env node
'use strict'

// h2bench-link <spec|preset> [-- command …]: the lanes behind a packet-level
// link, and a command (or a shell) on the client side of it.

const { parseArgs } = require('node:util')
const { startLinkSession } = require('../harness/link-session')
const { listAll, keysHelp } = require('../link/preset-list')
const { unavailableReason, LinkUnavailableError } = require('../link/namespace')
const { parseLinkSpec } = require('../link/spec')
const { formatStats } = require('../link/counters')
const { crossFlows } = require('../harness/cross-traffic')
const { formatCrossReports, workloadShare } = require('../link/cross-report')
const { parseConfig } = require('../server/config')
const { loadOrCreateCertificate } = require('../server/certs')
const { startAll } = require('../server/start')
const { InputError } = require('../common/errors')
const { runCli, signalExitCode } = require('../common/cli')
const { needsPrivateNamespace, preparePrivateNamespace, PRIVATE_ENV, USERNS_ENV } = require('../harness/private-netns')
const { buildThenRerun } = require('../harness/build-then-rerun')
const { LANES } = require('../server/lanes')

function helpText () {
  return `Usage: h2bench-link [options] <spec|preset> [-- command [args …]]
       npm run link -- [options] <spec|preset> [-- command …]

Starts the h2bench lanes on the far side of an emulated network link and runs
the command on the near side (a network namespace of its own), where every IP
packet to and from the lanes is delayed, rate limited, queued, dropped,
duplicated, corrupted or reordered as the spec says. Without a command it
opens a shell there. On exit it prints what the link did, per direction, and
with cross traffic (cross=…) each flow's throughput, Jain's index per
direction and the workload's share of the bytes.

The command finds the lanes in its environment:
  H2BENCH_PAGE_URL, H2BENCH_H1_URL, H2BENCH_H2_URL, H2BENCH_H2N_URL (one per lane),
  H2BENCH_SPKI (the certificate's SPKI hash), H2BENCH_LINK (the spec).

Spec: a preset (see --list), key=value items, or a preset with overrides; a key
alone sets both directions, KEY.up / KEY.down one (defaults: --list):
  "Regular 3G"   "rtt=100ms,down=1.6mbit,up=750kbit,loss=1%"   "Regular 3G,loss.down=2%"
${keysHelp()}

Options:
  --list          the presets with their numbers, and the keys with their defaults
  --json          print the counters as JSON (on stdout, after the command)
  --seed <n>      seed of the link's random choices (loss, dup, corrupt, reorder,
                  jitter): each a function of the seed and the packet's index,
                  so two runs with the same seed drop the same packets
  -h, --help      this help

Needs Linux with /dev/net/tun, and root or user namespaces. It always runs
itself in a network namespace of its own (\`unshare --net\` as root, \`unshare
--user --map-root-user --net\` without), so the machine's own interfaces never
change and browsers running beside it lose nothing. Elsewhere the
request-level DevTools throttling of the page and the runner still works.`
}

function parseCli (argv) {
  const dash = argv.indexOf('--')
  const own = dash === -1 ? argv : argv.slice(0, dash)
  const command = dash === -1 ? [] : argv.slice(dash + 1)
  let parsed
  try {
    parsed = parseArgs({
      args: own,
      allowPositionals: true,
      options: { list: { type: 'boolean' }, json: { type: 'boolean' }, seed: { type: 'string' }, help: { type: 'boolean', short: 'h' } }
    })
  } catch (err) {
    throw new InputError(`${err.message.split('\n')[0]} (see --help)`)
  }
  const { values, positionals } = parsed
  if (values.help || values.list) return { help: values.help, list: values.list }
  if (positionals.length === 0) throw new InputError('a link spec or preset is required, e.g. h2bench-link "Regular 3G" -- curl … (see --help, --list)')
  if (positionals.length > 1) {
    throw new InputError(`one spec only, got ${positionals.length} words (${positionals.map(p => JSON.stringify(p)).join(' ')}): ` +
      'quote a preset with spaces ("Regular 3G") and put the command after --')
  }
  let seed
  if (values.seed !== undefined) {
    if (!/^\d{1,15}$/.test(values.seed)) throw new InputError(`--seed must be a whole number; got "${values.seed}"`)
    seed = Number(values.seed)
  }
  return { spec: positionals[0], command, json: Boolean(values.json), seed }
}

function runCommand (session, command) {
  const shell = process.env.SHELL || '/bin/sh'
  const [cmd, ...args] = command.length ? command : [shell, '-i']
  const env = { ...process.env, ...session.env() }
  // Our own mark of the namespace we run in is no concern of the command's (it runs in the link's client namespace).
  delete env[PRIVATE_ENV]
  delete env[USERNS_ENV]
  if (!command.length) env.PS1 = `[h2bench-link ${session.control.current().name || 'custom'}] \\w \\$ `
  const child = session.opened.spawnInside(cmd, args, { stdio: 'inherit', env })
  return new Promise(resolve => {
    child.once('error', err => {
      console.error(`h2bench-link: cannot run ${cmd}: ${err.message}`)
      resolve(127)
    })
    child.once('exit', (code, signal) => resolve(signal ? signalExitCode(signal) : code))
  })
}

async function main (argv) {
  const options = parseCli(argv)
  if (options.help) return console.log(helpText())
  if (options.list) return console.log(listAll())
  const link = parseLinkSpec(options.spec) // a bad spec is reported before anything starts
  // The link lives in a network namespace of its own, never the host's (harness/private-netns.js);
  // Caddy (and h3get for a QUIC cross flow) is built out here first.
  const h3get = crossFlows(link).some(f => f.kind === 'quic')
  if (needsPrivateNamespace(['link'])) return buildThenRerun({ lanes: LANES.map(l => l.name), h3get, entry: __filename, argv, log: line => process.stderr.write(`${line}\n`) })
  await preparePrivateNamespace()
  const why = unavailableReason()
  if (why) throw new LinkUnavailableError(why)
  const config = parseConfig([], process.env)
  const tls = await loadOrCreateCertificate({ dir: config.certsDir })
  const session = await startLinkSession({ spec: options.spec, config, tls, startAll, seed: options.seed })
  const log = options.json ? console.error : console.log
  log(`h2bench-link: ${session.control.current().description}`)
  for (const [k, v] of Object.entries(session.env())) if (k.endsWith('_URL')) log(`  ${k}=${v}`)
  let stopping = false
  const stop = async signal => {
    if (stopping) return
    stopping = true
    await session.close()
    process.exit(signalExitCode(signal))
  }
  // Ctrl-C reaches the command too (same terminal): let it decide, then clean up.
  process.on('SIGINT', () => {})
  process.on('SIGTERM', () => stop('SIGTERM'))
  process.on('SIGHUP', () => stop('SIGHUP'))
  let code, stats, cross
  try {
    code = await runCommand(session, options.command)
    // The link's counters are read the moment the cross flows' receivers stop counting: both count the same bytes.
    let counters = null
    cross = await session.stopCrossTraffic({ atStop: () => { counters = session.control.stats() } })
    stats = await (counters || session.control.stats())
  } finally {
    await session.close()
  }
  const crossTraffic = cross.length ? { reports: cross, workloadShare: workloadShare(cross, stats) } : undefined
  if (options.json) console.log(JSON.stringify({ link: session.control.current(), exitCode: code, counters: stats, crossTraffic }))
  else console.log(formatStats(stats) + (cross.length ? `\n${formatCrossReports(cross, stats)}` : ''))
  return code
}

runCli('h2bench-link', main)

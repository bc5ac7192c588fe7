'use strict'

// What npm run bench:link measures (its command: bench/commands/link-bench.js): how fast the packet-level link's forwarder
// (link/forwarder/forwarder.c) moves 1500-byte packets and how much delay it
// adds beyond the configured one, beside the kernel's own path (a veth pair,
// no emulation: the ceiling) and a Python forwarder of the same design
// (bench/link-bench/python-forwarder.py: the evidence for writing it in C).
// It prints figures; it passes or fails nothing. With --out it writes a
// study (results.json and report.md: bench/report/link-bench/study.js), which
// --from writes again without measuring.
const os = require('node:os')
const path = require('node:path')
const { execFileSync } = require('node:child_process')
const { parseArgs } = require('node:util')
const { unavailableReason, LinkUnavailableError } = require('../../link/namespace')
const { needsPrivateNamespace, rerunInPrivateNamespace, preparePrivateNamespace } = require('../../harness/private-netns')
const { UserError, UsageError } = require('../../common/errors')
const { usage, signalExitCode, commandLine } = require('../../common/cli')
const { gitCommit, quietly, environmentRecord } = require('../../harness/provenance')
const { PATHS, CONGESTION_CONTROL } = require('./paths')
const { measure, Sink, PAYLOAD } = require('./measure')
const { summarise } = require('./report')
const { EFFECTS, effectsPlan, pickEffects } = require('./effects')

const TOOL = 'h2bench bench:link'

// `npm run bench:link -- …` for the arguments as run.
const commandLineOf = argv => commandLine('npm run bench:link', argv)

const RATES = [10, 100, 1000] // Mbit/s offered, at IP level
const GOALS = { maxMbps: 200, addedP99Ms: 1 }
const HELP = `Usage: npm run bench:link -- [options]

Measures three paths between a client network namespace (the load
generator, bench/link-bench/sender.js) and this one (the sink):

  kernel veth       a veth pair, nothing emulated: the kernel's own path, the ceiling
  C forwarder       the packet-level link (link/forwarder/forwarder.c, via link/namespace.js)
  Python forwarder  bench/link-bench/python-forwarder.py, the same design in Python

and for each: the maximum rate at 1500-byte packets with nothing emulated
(a TCP bulk transfer, and a UDP flood as fast as the sender can), with the
forwarder's CPU; and the delay added beyond a configured one (--delay, each
way) under paced UDP load of ${RATES.join(', ')} Mbit/s: an end-to-end probe
(the sender's CLOCK_MONOTONIC stamp in each datagram, the sink's clock on
arrival) and the forwarder's own late_ms. Each measurement is repeated
(--repeats) with the paths taken in turn; the tables show medians.
Needs root (or a user namespace where you are root), /dev/net/tun, ip,
nsenter, unshare, a C compiler and python3. Takes about ${estimateMinutes(defaults())} minutes.

Options:
  --duration <s>   seconds measured per run, after --warmup (default 5)
  --warmup <s>     seconds sent before each measured window (default 1)
  --repeats <n>    runs of each measurement per path (default 3)
  --delay <ms>     one-way delay configured on the forwarders for the delay runs (default 10)
  --paths <list>   paths to measure, comma-separated: ${PATHS.map(p => p.key).join(',')} (default all)
  --effects <list> instead: the C forwarder with each of these link effects on, comma-separated,
                   or all (${EFFECTS.map(e => e.id).join(', ')}): a UDP flood and paced
                   UDP at 100 Mbit/s each, beside the same run's figures with none
  --smoke          a quick run (~20 s): one short run of each, to check it works
  --out <dir>      also write a study there: <dir>/results.json (the JSON record, its environment
                   naming the command, the code, the machine and the date) and <dir>/report.md
                   (what was measured, on what, when, with which commit, and the tables)
  --from <file>    measure nothing: write <dir>/results.json and <dir>/report.md again from a
                   results.json (or a record --save wrote), into --out <dir> (default: beside it)
  --json           print the JSON record instead of tables
  --save <file>    also write the JSON record to <file> (what --out writes as results.json)
  -h, --help       this help`

const SMOKE = { duration: 0.6, warmup: 0.25, repeats: 1 }
const MEASURING = ['duration', 'warmup', 'repeats', 'delay', 'paths', 'effects', 'smoke']

function defaults () {
  return { duration: 5, warmup: 1, repeats: 3, delay: 10, paths: PATHS.map(p => p.key) }
}

// The command line that measures what a record's `options` say: the options
// that change what is measured, in --help's order (--json, --save and --out
// left out). For a record --save wrote, which did not keep its command.
function commandOf (options) {
  const base = { ...defaults(), ...(options.smoke ? SMOKE : {}) }
  const args = []
  for (const name of ['duration', 'warmup', 'repeats', 'delay']) {
    if (options[name] !== undefined && options[name] !== base[name]) args.push(`--${name}`, String(options[name]))
  }
  if (options.effects) {
    const all = EFFECTS.map(e => e.id).join(',')
    args.push('--effects', options.effects.join(',') === all ? 'all' : options.effects.join(','))
  } else if (options.paths && options.paths.join(',') !== base.paths.join(',')) {
    args.push('--paths', options.paths.join(','))
  }
  if (options.smoke) args.push('--smoke')
  return commandLineOf(args)
}

function estimateMinutes ({ duration, warmup, repeats, paths, effects }) {
  const runs = (effects ? 2 * effects.length : 2 + RATES.length) * repeats * paths.length
  return Math.max(1, Math.round(runs * (duration + warmup + 0.8) / 60))
}

function parseOptions (argv) {
  const { values } = usage(() => parseArgs({
    args: argv,
    options: {
      duration: { type: 'string' },
      warmup: { type: 'string' },
      repeats: { type: 'string' },
      delay: { type: 'string' },
      paths: { type: 'string' },
      effects: { type: 'string' },
      smoke: { type: 'boolean', default: false },
      json: { type: 'boolean', default: false },
      save: { type: 'string' },
      out: { type: 'string' },
      from: { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false }
    }
  }))
  const opts = {
    ...defaults(),
    json: values.json,
    save: values.save || null,
    out: values.out || null,
    from: values.from || null,
    help: values.help,
    smoke: values.smoke,
    effects: null
  }
  if (values.from !== undefined) {
    const given = MEASURING.filter(name => values[name] !== undefined && values[name] !== false)
    if (given.length) throw new UsageError(`--from measures nothing: leave out --${given[0]}`)
    if (!values.from) throw new UsageError('--from: name a results.json')
    if (!values.out && path.basename(values.from) !== 'results.json') throw new UsageError(`--from ${values.from} is not a study's results.json: name the study's folder with --out`)
    return opts
  }
  if (values.out === '') throw new UsageError('--out: name a folder')
  if (values.smoke) Object.assign(opts, SMOKE)
  const number = (name, min, max, integer = false) => {
    if (values[name] === undefined) return
    const x = Number(values[name])
    if (!(x >= min && x <= max) || (integer && !Number.isInteger(x))) {
      throw new UsageError(`--${name} must be ${integer ? 'an integer ' : ''}${min}…${max}; got "${values[name]}"`)
    }
    opts[name] = x
  }
  number('duration', 0.2, 600)
  number('warmup', 0, 60)
  number('repeats', 1, 20, true)
  number('delay', 0, 1000)
  if (values.paths !== undefined) {
    opts.paths = values.paths.split(',').map(s => s.trim()).filter(Boolean)
    for (const key of opts.paths) {
      if (!PATHS.some(p => p.key === key)) throw new UsageError(`--paths: unknown path "${key}"; paths are ${PATHS.map(p => p.key).join(', ')}`)
    }
    if (!opts.paths.length) throw new UsageError('--paths: name at least one path')
  }
  if (values.effects !== undefined) {
    const effects = pickEffects(values.effects)
    if (effects.error) throw new UsageError(`--effects: ${effects.error}`)
    if (values.paths !== undefined && (opts.paths.length !== 1 || opts.paths[0] !== 'c')) throw new UsageError('--effects measures the C forwarder only; leave out --paths')
    opts.effects = effects.map(e => e.id)
    opts.paths = ['c']
  }
  return opts
}

// What a run measured with (results.json's environment): the date, the code and the machine
// (harness/provenance.js), the kernel, Python, the load average at the start and the command as run.
// `commit` and `python` are asked of git and python3 unless given.
function environmentOf (argv, { commit = gitCommit(), python = quietly(() => execFileSync('python3', ['--version'], { encoding: 'utf8' }).trim(), null) } = {}) {
  return {
    date: new Date().toISOString(),
    ...environmentRecord({ commit }),
    commit,
    kernel: `${os.type()} ${os.release()}`,
    python,
    loadAverage: os.loadavg().map(x => Number(x.toFixed(2))),
    command: commandLineOf(argv)
  }
}

// The measurements, in order: the maximum rate (nothing emulated), then the
// delay runs.
function plan (opts) {
  if (opts.effects) return effectsPlan(EFFECTS.filter(e => opts.effects.includes(e.id))).map(step => ({ ...step, delayMs: opts.delay }))
  return [
    { id: 'tcp', what: 'TCP bulk', mode: 'tcp', delayMs: 0 },
    { id: 'flood', what: 'UDP flood', mode: 'udp', rateBps: 0, delayMs: 0 },
    ...RATES.map(r => ({ id: `udp${r}`, what: `UDP ${r} Mbit/s`, mode: 'udp', rateBps: r * 1e6, delayMs: opts.delay }))
  ]
}

// The measurements of `opts` on its paths: → { record } (results.json: the tool, environment, options and
// goals, the setup, the paths, each one's summary and every run). Its veths, TUN devices and routes live in a
// network namespace of its own, never the host's (harness/private-netns.js): outside one, this script (`entry`)
// starts itself again there, → { code } of that run.
async function measureLinkBench (opts, argv, { entry, log }) {
  if (needsPrivateNamespace(['link']) && entry) return { code: await rerunInPrivateNamespace(entry, argv) }
  await preparePrivateNamespace()
  const why = unavailableReason()
  if (why) throw new LinkUnavailableError(why)
  if (opts.paths.includes('python') && !quietly(() => execFileSync('python3', ['--version']), null)) {
    throw new UserError('the Python forwarder needs python3; or leave it out: --paths veth,c', { status: 503 })
  }
  const record = {
    tool: TOOL,
    environment: environmentOf(argv),
    options: { ...opts, help: undefined, from: undefined },
    goals: GOALS
  }
  log(`bench:link: ${opts.paths.length} paths × ${plan(opts).length} measurements × ${opts.repeats} (${opts.warmup} s + ${opts.duration} s each), about ${estimateMinutes(opts)} min`)

  const open = []
  let sink = null
  let closing = null
  const closeAll = () => {
    closing = closing || Promise.all(open.map(p => p.close().catch(() => {}))).then(() => { if (sink) sink.close() })
    return closing
  }
  const onSignal = signal => {
    if (closing) process.exit(signalExitCode(signal))
    log(`\nbench:link: ${signal}, cleaning up`)
    closeAll().finally(() => process.exit(signalExitCode(signal)))
  }
  process.on('SIGINT', onSignal)
  process.on('SIGTERM', onSignal)

  const runs = []
  try {
    for (const key of opts.paths) open.push(await PATHS.find(p => p.key === key).open())
    sink = new Sink()
    for (const step of plan(opts)) {
      for (let r = 0; r < opts.repeats; r++) {
        // The paths in turn, starting with another one each repeat, so that
        // whatever else the machine does is spread over them.
        for (let i = 0; i < open.length; i++) {
          const p = open[(i + r) % open.length]
          const configured = await p.setDelay(step.delayMs, step.effect ? step.effect.spec : '')
          const result = await measure(p, sink, { ...step, delayMs: configured, warmupMs: opts.warmup * 1000, durationMs: opts.duration * 1000 })
          runs.push({
            path: p.key,
            load: step.id,
            ...(step.effect ? { effect: step.effect.id, spec: step.effect.spec } : {}),
            repeat: r,
            configuredDelayMs: configured,
            ...result
          })
          const added = step.rateBps && result.addedDelayMs ? `, added p50 ${result.addedDelayMs.p50.toFixed(3)} p99 ${result.addedDelayMs.p99.toFixed(3)} ms` : ''
          log(`  ${step.what.padEnd(16)} ${p.name.padEnd(17)} ${result.deliveredMbps.toFixed(0).padStart(5)} Mbit/s` +
            `${result.cpuPercent.forwarder === null ? '' : `, forwarder CPU ${result.cpuPercent.forwarder.toFixed(0)} %`}${added}`)
        }
      }
    }
  } finally {
    process.off('SIGINT', onSignal)
    process.off('SIGTERM', onSignal)
    await closeAll()
  }

  const paths = open.map(({ key, name, congestionControl }) => ({ key, name, senderCongestionControl: congestionControl }))
  const summary = {}
  for (const p of paths) {
    summary[p.key] = {}
    for (const step of plan(opts)) summary[p.key][step.id] = summarise(runs.filter(x => x.path === p.key && x.load === step.id))
  }
  Object.assign(record, {
    setup: {
      payloadBytes: PAYLOAD,
      ipPacketBytes: PAYLOAD + 28,
      senderCongestionControl: CONGESTION_CONTROL, // asked for; each path has the one in effect
      configuredDelayMs: opts.delay,
      offeredMbps: RATES
    },
    paths,
    summary,
    runs
  })
  return { record }
}

module.exports = { measureLinkBench, parseOptions, commandOf, environmentOf, estimateMinutes, TOOL, HELP }

'use strict'

// What npm run bench:pairing measures (its command: bench/commands/pairing.js): how much of the spread of an h1 ÷ h3 ratio pairing
// removes, on seed 004's workload (issue 22). The same repeats twice through
// the same link: paired (every lane of repeat r on the link seed s + r, so both
// protocols meet the same decisions packet for packet) and unpaired (a seed of
// its own per lane and repeat, as before seeds were shared). Per repeat the
// ratio h1 ÷ h3 of the two runs' times; its spread is the standard deviation of
// ln(ratio) (0.10: about ±10 %), and the report says the ratio of the two
// spreads, with the paired run's own within-seed/across-seed split
// (bench/report/pairing/pairing.js). The tools are h2bench load's, the code path of
// the runner's h2load-netem cells (load/load.js).
//   npm run bench:pairing -- [--link quic-loss] [--repeats 10] [--seed n] [--out dir]
const { parseArgs } = require('node:util')
const { openLoad } = require('../../load/load')
const { loadPreset } = require('../../load/presets')
const { parseLinkSpec } = require('../../link/spec')
const { usage, commandLine } = require('../../common/cli')
const { UsageError } = require('../../common/errors')
const { environmentRecord, gitCommit } = require('../../harness/provenance')
const { needsPrivateNamespace, preparePrivateNamespace } = require('../../harness/private-netns')
const { buildThenRerun } = require('../../harness/build-then-rerun')

const HELP = `Usage: npm run bench:pairing -- [--link spec] [--repeats n] [--seed n] [--out dir]

Seed 004's workload (h2bench load's h2load-netem preset: 10,000 requests of 612 B,
h1 pipelined 100 deep with h2load, h3 with oha) on lanes h1 and h3 through the link,
the same repeats paired (both lanes of a repeat on one link seed) and unpaired (a
seed per lane and repeat), and the spread of the per-repeat h1 ÷ h3 ratio in each.
  --link <spec>    the link (default quic-loss: 30 % loss server → client)
  --repeats <n>    repeats of each mode, 3…50 (default 10)
  --seed <n>       the first seed (default: a new one)
  --out <dir>      also write results.json and report.md there
  --from <file>    run nothing: write report.md again from a results.json, beside it
  --help           this text`

function options (argv) {
  const { values } = usage(() => parseArgs({ args: argv, options: { link: { type: 'string', default: 'quic-loss' }, repeats: { type: 'string', default: '10' }, seed: { type: 'string' }, out: { type: 'string' }, from: { type: 'string' }, help: { type: 'boolean' } } }))
  if (values.help) return { help: true }
  if (values.from) return { from: values.from }
  parseLinkSpec(values.link) // a bad spec: LinkSpecError, naming the key
  const repeats = Number(values.repeats)
  if (!/^\d+$/.test(values.repeats) || repeats < 3 || repeats > 50) throw new UsageError(`--repeats must be a whole number 3…50; got "${values.repeats}"`)
  if (values.seed !== undefined && !/^\d{1,12}$/.test(values.seed)) throw new UsageError(`--seed must be a whole number below 10^12; got "${values.seed}"`)
  return { link: values.link, repeats, seed: values.seed === undefined ? Math.floor(Math.random() * 2 ** 36) : Number(values.seed), out: values.out || null }
}

// One mode's repeats: → [{ repeat, h1, h3, seeds: { h1, h3 } }] (times in ms; null for a run with failed requests).
async function runMode (load, o, paired, log) {
  const lanes = ['h1', 'h3']
  const out = []
  for (let r = 0; r < o.repeats; r++) {
    const seedOf = lane => paired ? o.seed + r : o.seed + 1000 * (r + 1) + lanes.indexOf(lane) + 1
    const { rows } = await load.measure(o.link, { reverse: r % 2 === 1, seedOf })
    const at = lane => rows.find(x => x.lane === lane)
    const time = x => x && !x.error && x.failed === 0 ? x.totalMs : null
    out.push({ repeat: r, h1: time(at('h1')), h3: time(at('h3')), seeds: { h1: at('h1').linkSeed, h3: at('h3').linkSeed } })
    log(`${paired ? 'paired' : 'unpaired'} repeat ${r + 1} of ${o.repeats}: h1 ${time(at('h1'))} ms, h3 ${time(at('h3'))} ms (seeds ${at('h1').linkSeed}, ${at('h3').linkSeed})`)
  }
  return out
}

// The measurement: both modes' repeats on lanes h1 and h3 through the link (in a private namespace: this
// script starts itself again there, → { code } of that run), → the record less its reading: { environment,
// link, repeats, seed, commands, runs } (bench/report/pairing/report.js analysed adds the spreads).
async function measure (o, argv, { entry, log }) {
  if (needsPrivateNamespace(['link'])) return { code: await buildThenRerun({ lanes: ['h1', 'h3'], oha: true, entry, argv, log }) }
  await preparePrivateNamespace()
  const commit = gitCommit()
  const started = new Date()
  const preset = loadPreset('h2load-netem')
  const load = await openLoad({ lanes: ['h1', 'h3'], urls: [], tools: {}, presetTools: preset.tools, workload: { ...preset.workload, muxConnections: preset.workload.muxConnections ?? preset.workload.connections }, links: [o.link], trace: false, timeoutS: 180 }, { log: line => log(`  ${line}`) })
  let runs, commands
  try {
    runs = { paired: await runMode(load, o, true, log), unpaired: await runMode(load, o, false, log) }
    const { rows } = await load.measure(o.link, { seedOf: () => o.seed }) // one more run, for the command lines
    commands = Object.fromEntries(rows.map(x => [x.lane, x.command]))
  } finally {
    await load.close()
  }
  return {
    environment: { ...environmentRecord({ commit }), date: started.toISOString(), durationSeconds: Math.round((Date.now() - started) / 1000), command: commandLine('npm run bench:pairing', argv) },
    link: parseLinkSpec(o.link).description,
    repeats: o.repeats,
    seed: o.seed,
    commands,
    runs
  }
}

module.exports = { measure, options, HELP }

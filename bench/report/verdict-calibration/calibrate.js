'use strict'

// npm run bench:verdict: the verdict engine (shared/verdict.js) against
// the truth, on simulated experiments whose true ratio is known: how often its
// 95 % interval covers the true ratio, how often it calls a difference where
// there is none, and how often it says "no difference" for a true 2 % one.
// Log-normal runs (the shape of page-load times), seeded: the same figures on
// every machine. Prints a table; asserts nothing (a benchmark, not a test).
const { parseArgs } = require('node:util')
const { RULES, compare, ratioInterval, pairedRatioInterval, pairedMinRounds, generator: rng } = require('../../../shared/verdict')
const { usage } = require('../../../common/cli')
const { UsageError } = require('../../../common/errors')

const HELP = `Usage: npm run bench:verdict -- [--trials N] [--seed S]

The verdict engine against simulated experiments whose truth is known, for 5, 10 and 20 runs a side:
  coverage     how often the ${Math.round(RULES.confidence * 100)} % interval holds the true ratio of medians (1.5; log-normal runs, sigma 0.2)
  false calls  how often it says faster or slower when both sides are the same distribution (sigma 0.1)
  tolerance    how often it says "no difference" for a true ratio of 1.02 (inside ±${Math.round(RULES.tolerance * 100)} %; sigma 0.02)
and for sides measured in the same rounds (each round multiplies both sides' runs by one log-normal factor, sigma
0.3, and each run has noise of its own, sigma 0.1), at the fewest rounds the paired rule takes (${pairedMinRounds()}), 10 and
20: paired by round (the engine's rule where the sides name their rounds: the median of the rounds' ratios, its
distribution-free interval) against the same runs compared apart:
  coverage     of the true ratio 1.5 (the median of the rounds' own ratios)
  false calls  with no true difference
  found        how often a true 10 % difference is found (b called faster: the power the pairing buys)

  --trials N   experiments per figure (default 1000, 50…100000)
  --seed S     the simulation's seed (default 1)
  --help       this text`

function logNormal (random, n, median, sigma) {
  return Array.from({ length: n }, () => median * Math.exp(sigma * Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random())))
}

function parse (argv) {
  const { values } = usage(() => parseArgs({ args: argv, options: { trials: { type: 'string' }, seed: { type: 'string' }, help: { type: 'boolean' } } }))
  const int = (name, value, min, max) => {
    if (value === undefined) return undefined
    const n = Number(value)
    if (!Number.isInteger(n) || n < min || n > max) throw new UsageError(`--${name} must be an integer ${min}…${max}; got "${value}"`)
    return n
  }
  return { help: Boolean(values.help), trials: int('trials', values.trials, 50, 100000) ?? 1000, seed: int('seed', values.seed, 0, 2 ** 32 - 1) ?? 1 }
}

// → { n, coverage, falseCalls, tolerance } for n runs a side.
function calibrate (n, trials, seed) {
  const random = rng(seed + n)
  let covered = 0
  let wrong = 0
  let same = 0
  for (let i = 0; i < trials; i++) {
    const ci = ratioInterval(logNormal(random, n, 150, 0.2), logNormal(random, n, 100, 0.2))
    if (ci.low <= 1.5 && ci.high >= 1.5) covered++
    const v = compare({ name: 'a', samples: logNormal(random, n, 100, 0.1) }, { name: 'b', samples: logNormal(random, n, 100, 0.1) })
    if (v.verdict === 'faster' || v.verdict === 'slower') wrong++
    const t = compare({ name: 'a', samples: logNormal(random, n, 102, 0.02) }, { name: 'b', samples: logNormal(random, n, 100, 0.02) })
    if (t.verdict === 'no difference') same++
  }
  return { n, coverage: covered / trials, falseCalls: wrong / trials, tolerance: same / trials }
}

// n rounds of two sides: one factor a round (sigma `shared`) in both, `ratio` × on a, noise of each run's own.
function rounds (random, n, ratio, shared = 0.3, own = 0.1) {
  const factor = logNormal(random, n, 1, shared)
  return {
    a: factor.map(f => 100 * ratio * f * logNormal(random, 1, 1, own)[0]),
    b: factor.map(f => 100 * f * logNormal(random, 1, 1, own)[0]),
    rounds: factor.map((f, i) => i)
  }
}

// Sides measured in rounds, paired by round and apart: → { n, paired: { coverage, falseCalls, found }, apart: { … } }.
function calibratePaired (n, trials, seed) {
  const random = rng(seed + 1000 + n)
  const tally = () => ({ coverage: 0, falseCalls: 0, found: 0 })
  const paired = tally()
  const apart = tally()
  const call = (x, asPairs) => compare({ name: 'a', samples: x.a, ...(asPairs ? { rounds: x.rounds } : {}) }, { name: 'b', samples: x.b, ...(asPairs ? { rounds: x.rounds } : {}) }).verdict
  for (let i = 0; i < trials; i++) {
    const truth = rounds(random, n, 1.5)
    const p = pairedRatioInterval(truth.a, truth.b)
    if (p.low <= 1.5 && p.high >= 1.5) paired.coverage++
    const q = ratioInterval(truth.a, truth.b)
    if (q.low <= 1.5 && q.high >= 1.5) apart.coverage++
    const none = rounds(random, n, 1)
    if (['faster', 'slower'].includes(call(none, true))) paired.falseCalls++
    if (['faster', 'slower'].includes(call(none, false))) apart.falseCalls++
    const tenth = rounds(random, n, 1.1)
    if (call(tenth, true) === 'faster') paired.found++
    if (call(tenth, false) === 'faster') apart.found++
  }
  const share = t => ({ coverage: t.coverage / trials, falseCalls: t.falseCalls / trials, found: t.found / trials })
  return { n, paired: share(paired), apart: share(apart) }
}

async function main (argv) {
  const opts = parse(argv)
  if (opts.help) {
    console.log(HELP)
    return 0
  }
  const pct = v => `${(v * 100).toFixed(1)} %`
  console.log(`verdict engine: ${RULES.method}, ${RULES.resamples} resamples, ${opts.trials} experiments per figure, seed ${opts.seed}`)
  console.log('runs a side  coverage (want ~95 %)  false calls (want <= 5 %)  "no difference" at a true 2 %')
  for (const n of [5, 10, 20]) {
    const t0 = Date.now()
    const c = calibrate(n, opts.trials, opts.seed)
    console.log(`${String(n).padStart(11)}  ${pct(c.coverage).padStart(21)}  ${pct(c.falseCalls).padStart(25)}  ${pct(c.tolerance).padStart(30)}   (${((Date.now() - t0) / 1000).toFixed(1)} s)`)
  }
  console.log('\nsides measured in rounds (round factor sigma 0.3, own noise 0.1): paired by round | the same runs apart')
  console.log('rounds  coverage (want ~95 %)  false calls (want <= 5 %)  a true 10 % found')
  for (const n of [pairedMinRounds(), 10, 20]) {
    const t0 = Date.now()
    const c = calibratePaired(n, opts.trials, opts.seed)
    const both = k => `${pct(c.paired[k])} | ${pct(c.apart[k])}`
    console.log(`${String(n).padStart(6)}  ${both('coverage').padStart(21)}  ${both('falseCalls').padStart(25)}  ${both('found').padStart(17)}   (${((Date.now() - t0) / 1000).toFixed(1)} s)`)
  }
  return 0
}

module.exports = { main, calibrate, calibratePaired, parse }

'use strict'

// bench:pairing's report (bench/pairing/pairing.js measures): the spread of
// the per-repeat h1 ÷ h3 ratio in each mode and what it says, from its
// results.json alone (`npm run bench:pairing -- --from results.json`).
const stats = require('../../../shared/stats')
const { generator, RULES } = require('../../../shared/verdict')

const { sd, pairingOf } = require('./pairing')

// The spread of one mode's per-repeat ratio: { ratios, n, spread, median }.
function spreadOf (runs) {
  const ok = runs.filter(x => x.h1 && x.h3)
  const ln = ok.map(x => Math.log(x.h1 / x.h3))
  return { n: ok.length, spread: sd(ln), median: ln.length ? Math.exp(stats.median(ln)) : null }
}

// The measured record (bench/pairing/pairing.js measure) with its reading: each mode's spread and the
// paired run's within-seed/across-seed split, in results.json's order.
function analysed (measured) {
  const { runs, ...rest } = measured
  const asRow = (lane, list) => ({
    samples: list.filter(x => x.h1 && x.h3).map(x => x[lane]),
    linkSeeds: list.filter(x => x.h1 && x.h3).map(x => x.seeds[lane])
  })
  return {
    ...rest,
    paired: spreadOf(runs.paired),
    unpaired: spreadOf(runs.unpaired),
    pairedSplit: pairingOf(asRow('h1', runs.paired), asRow('h3', runs.paired)),
    runs
  }
}

// The paired spread over the unpaired one, with a 95 % percentile-bootstrap interval (each mode's good
// repeats resampled, seeded as the verdict engine's): → { ratio, low, high } or null.
function spreadRatio (record) {
  const ln = runs => runs.filter(x => x.h1 && x.h3).map(x => Math.log(x.h1 / x.h3))
  const a = ln(record.runs.paired)
  const b = ln(record.runs.unpaired)
  if (a.length < 3 || b.length < 3) return null
  const random = generator(RULES.seed)
  const draw = xs => xs.map(() => xs[Math.floor(random() * xs.length)])
  const ratios = []
  for (let i = 0; i < RULES.resamples; i++) {
    const sb = sd(draw(b))
    if (sb > 0) ratios.push(sd(draw(a)) / sb)
  }
  ratios.sort((x, y) => x - y)
  const at = q => ratios[Math.round(q * (ratios.length - 1))]
  return { ratio: sd(a) / sd(b), low: at(0.025), high: at(0.975) }
}

// What the two spreads say, by their interval: pairing narrows the spread only when the interval of paired ÷ unpaired is below 1.
function verdictLine (record, f) {
  const r = spreadRatio(record)
  if (!r) return 'Too few good repeats (3 a mode at least) for a spread.'
  const said = r.high < 1 ? 'pairing narrowed the spread' : r.low > 1 ? 'pairing widened the spread' : 'no evidence either way: the interval holds 1'
  return `Paired ÷ unpaired spread ${f(r.ratio)} (${f(record.paired.spread)} against ${f(record.unpaired.spread)}; 95 % bootstrap interval ${f(r.low)}–${f(r.high)}, ` +
    `${record.paired.n} and ${record.unpaired.n} repeats): ${said}.`
}

function report (record) {
  const f = v => v === null ? '–' : v.toFixed(3)
  const p = record.paired
  const u = record.unpaired
  const within = record.pairedSplit
  const lines = [
    '# What pairing the link\'s seeds removes: h1 ÷ h3 on seed 004\'s workload',
    '',
    `- Ran ${record.environment.date} for ${Math.round(record.environment.durationSeconds / 60)} min: \`${record.environment.command}\``,
    `- h2bench ${record.environment.h2bench}, Node ${record.environment.node}, ${record.environment.cpu} × ${record.environment.cpus}`,
    `- Link: ${record.link}; ${record.repeats} repeats a mode; first seed ${record.seed}; h1: \`${record.commands.h1}\`; h3: \`${record.commands.h3}\``,
    '',
    'The spread is the standard deviation of ln(h1 ÷ h3) over the repeats (0.10: about ±10 %); a run with failed requests is no sample.',
    '',
    '| mode | repeats with both lanes good | median h1 ÷ h3 | spread |',
    '| --- | --- | --- | --- |',
    `| paired (both lanes of a repeat on one seed) | ${p.n} | ${f(p.median)} | ${f(p.spread)} |`,
    `| unpaired (a seed per lane and repeat) | ${u.n} | ${f(u.median)} | ${f(u.spread)} |`,
    '',
    verdictLine(record, f),
    within ? `Within the paired run, its samples matched across seeds (as an unpaired run pairs them) spread ${f(within.across)}, within a seed ${f(within.within)}: ` +
      `${within.within < within.across ? 'pairing narrower' : 'pairing no narrower'} by that measure too.` : '',
    '',
    '| mode | repeat | h1 (ms) | h3 (ms) | h1 ÷ h3 | seeds (h1, h3) |',
    '| --- | --- | --- | --- | --- | --- |',
    ...['paired', 'unpaired'].flatMap(m => record.runs[m].map(x => `| ${m} | ${x.repeat + 1} | ${x.h1 ?? 'failed'} | ${x.h3 ?? 'failed'} | ${x.h1 && x.h3 ? (x.h1 / x.h3).toFixed(2) : '–'} | ${x.seeds.h1}, ${x.seeds.h3} |`))
  ]
  return lines.join('\n') + '\n'
}


module.exports = { report, analysed, spreadOf, spreadRatio }

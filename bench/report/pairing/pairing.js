'use strict'

// What pairing the link's seeds saves (issue 22): a row and its baseline in
// the same cell, their samples matched by the link seed each run met
// (linkSeeds). Paired, every lane of a repeat met the same seed, so the same
// drops packet for packet: the per-repeat ratio baseline ÷ row is taken within
// a seed. Against it, the same samples matched across seeds (every pair of
// runs that met different seeds: what an unpaired run, each lane on a seed of
// its own, gives): the spread pairing removes is the difference. The spread is
// the standard deviation of ln(ratio) (0.10: about ±10 %), so it reads the same
// for a ratio and its inverse. An unpaired run (no seed shared) has only the
// second, and says so.
const stats = require('../../../shared/stats')
const { parseLinkSpec } = require('../../../link/spec')

// The link's effects that draw from its seed (link/forwarder/forwarder.c: draw()): jitter, loss (Bernoulli and
// Gilbert-Elliott), duplication, corruption, reordering and PIE's drop decisions. A link without any makes the same
// decisions whatever the seed, so pairing has nothing to remove there: what spread its runs show is the machine's.
// → the names of those effects in `linkSpec` (either direction), [] for none or a spec that does not parse.
function randomEffects (linkSpec) {
  let spec
  try {
    spec = parseLinkSpec(linkSpec || '', { traces: false })
  } catch {
    return []
  }
  const found = new Set()
  for (const d of [spec.up, spec.down]) {
    if (d.jitterUs) found.add('jitter')
    if (d.loss) found.add('loss')
    if (d.gemodel) found.add('bursty loss')
    if (d.dup) found.add('duplication')
    if (d.corrupt) found.add('corruption')
    if (d.reorder) found.add('reordering')
    if (d.aqm && d.aqm.kind === 'pie') found.add("PIE's drops")
  }
  return [...found]
}

// The sample standard deviation, or null below two values.
const sd = xs => {
  if (xs.length < 2) return null
  const m = xs.reduce((a, b) => a + b, 0) / xs.length
  return Math.sqrt(xs.reduce((a, b) => a + (b - m) ** 2, 0) / (xs.length - 1))
}

// → { within: [ln ratio of each seed both met], across: [ln ratio of each pair of runs on different seeds] }, or null.
function pairsOf (base, row) {
  if (!base || !row || !base.linkSeeds || !row.linkSeeds) return null
  if (base.linkSeeds.length !== base.samples.length || row.linkSeeds.length !== row.samples.length) return null
  const within = []
  const across = []
  base.samples.forEach((b, i) => row.samples.forEach((r, j) => {
    const ln = Math.log(b / r)
    if (base.linkSeeds[i] === row.linkSeeds[j]) within.push(ln)
    else across.push(ln)
  }))
  return { within, across }
}

// → { within, across, removed, n } of a row against its baseline: the two spreads and the share pairing removed (null where one is missing).
function pairingOf (base, row) {
  const p = pairsOf(base, row)
  if (!p) return null
  const within = sd(p.within)
  const across = sd(p.across)
  return {
    within,
    across,
    removed: within !== null && across ? 1 - within / across : null,
    n: p.within.length,
    median: p.within.length ? Math.exp(stats.median(p.within)) : null
  }
}

module.exports = { pairingOf, pairsOf, sd, randomEffects }

// The verdict engine: how h2bench says that one side is faster than the
// other, declared once for the page and the runner (as stats.js is their one
// statistics). A difference is the ratio of the two sides' medians with a 95 %
// interval from a percentile bootstrap of the samples (seeded, so the same
// samples always give the same interval); the rules are RULES, the same for
// every experiment:
//   - fewer than RULES.minRuns good runs on a side: "not measured";
//   - the interval inside 1 ± RULES.tolerance: "no difference";
//   - the interval holding 1 but reaching past the tolerance: "inconclusive";
//   - the interval clear of 1: faster / slower, by the ratio;
//   - failed runs are left out and counted in the sentence;
//   - where both sides name the round of each run (`rounds`: the sides measured
//     in turn within each round), the runs are paired by round: the ratio is
//     the median of the rounds' own ratios, its interval the distribution-free
//     one of a median (order statistics), so what a round shares (the
//     machine's state then) cancels; only rounds both sides have count, and
//     too few for the confidence (6 at 95 %) is "not measured";
//   - a side whose runs drift (Mann-Kendall trend test over the repeats in the
//     order they ran, two-sided p < RULES.driftP) is flagged, and so is its verdict;
//   - the workload of each side is compared with the source's, field by field:
//     a difference is named; one in a field the experiment says must match makes
//     the verdict "not comparable";
//   - a side whose batches kept this machine's CPU busy (CPU_RULES: the browser,
//     or the whole machine, at 80 % of its cores or more; one process near a
//     full core) rests on CPU, and so does every verdict it is part of: the
//     sentence says who used how much.
// Its medians and quantiles are stats.js's.
// UMD: `require('shared/verdict')` in Node, `window.h2benchVerdict` in the page (after stats.js).
(function (root, factory) {
  if (typeof module === 'object' && module.exports) module.exports = factory(require('./stats'))
  else root.h2benchVerdict = factory(root.h2benchStats)
}(typeof self !== 'undefined' ? self : this, function (stats) {
  'use strict'

  const RULES = Object.freeze({
    confidence: 0.95,
    method: 'percentile bootstrap of the ratio of medians',
    paired: 'sides measured in the same rounds: the median of the rounds\' own ratios, its distribution-free interval',
    resamples: 4000,
    seed: 20161017,
    minRuns: 5,
    tolerance: 0.05,
    driftP: 0.05
  })

  // stats.js checks them: a list of finite numbers, else a TypeError naming the value.
  function finite (values) {
    stats.summary(values)
    return values
  }

  // mulberry32: a small seeded generator, so a verdict never changes between two readings of the same samples.
  function generator (seed) {
    let a = seed >>> 0
    return function () {
      a = (a + 0x6D2B79F5) >>> 0
      let t = a
      t = Math.imul(t ^ (t >>> 15), t | 1)
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296
    }
  }

  // The median of one bootstrap resample of `sorted` (ascending), without
  // sorting: draw how often each value is taken, then lay the values out in
  // order that many times. O(n) a resample; `counts` and `out` are reused.
  function resampledMedian (sorted, random, counts, out) {
    const n = sorted.length
    counts.fill(0)
    for (let i = 0; i < n; i++) counts[Math.floor(random() * n)]++
    let k = 0
    for (let i = 0; i < n; i++) for (let c = counts[i]; c > 0; c--) out[k++] = sorted[i]
    return stats.quantileSorted(out, 0.5)
  }

  // median(a) / median(b) with its percentile-bootstrap interval: → { ratio, low, high }.
  function ratioInterval (a, b, rules) {
    return productInterval([a], [b], rules)
  }

  // The product of the medians of `nums` over that of `dens` (lists of
  // samples), with its percentile-bootstrap interval: each resample redraws
  // every list, in order (nums, then dens). → { ratio, low, high }.
  function productInterval (nums, dens, rules) {
    const r = rules || RULES
    const random = generator(r.seed)
    const lists = nums.concat(dens).map(function (v) {
      return { sorted: v.slice().sort(function (x, y) { return x - y }), counts: new Array(v.length), out: new Array(v.length) }
    })
    const ratios = []
    for (let i = 0; i < r.resamples; i++) {
      let value = 1
      lists.forEach(function (l, k) {
        const m = resampledMedian(l.sorted, random, l.counts, l.out)
        value = k < nums.length ? value * m : value / m
      })
      ratios.push(value)
    }
    let ratio = 1
    nums.forEach(function (v) { ratio *= stats.median(v) })
    dens.forEach(function (v) { ratio /= stats.median(v) })
    ratios.sort(function (x, y) { return x - y })
    const tail = (1 - r.confidence) / 2
    const at = function (p) { return ratios[Math.min(ratios.length - 1, Math.max(0, Math.round(p * (ratios.length - 1))))] }
    return { ratio: ratio, low: at(tail), high: at(1 - tail) }
  }

  // The median of the rounds' own ratios a[i] / b[i] (a[i] and b[i] ran in
  // the same round), with its distribution-free interval: between the k-th
  // smallest and the k-th largest ratio, k the largest whose binomial chance
  // (n rounds, ½) of fewer than k ratios below the median is at most half of
  // 1 − confidence, so the interval holds the rounds' true median with at
  // least that confidence, whatever their distribution (a bootstrap of a
  // median covers less at these counts: npm run bench:verdict). What a round
  // shares (the machine's state then) is in both of its runs and cancels in
  // its ratio. Fewer rounds than pairedMinRounds: no k. → { ratio, low, high }.
  function pairedRatioInterval (a, b, rules) {
    const r = rules || RULES
    if (a.length !== b.length) throw new RangeError('paired runs: ' + a.length + ' and ' + b.length + ' runs')
    const sorted = a.map(function (x, i) { return x / b[i] }).sort(function (x, y) { return x - y })
    const n = sorted.length
    const k = orderRank(n, r)
    if (!k) throw new RangeError(n + ' rounds paired, at least ' + pairedMinRounds(r) + ' needed for a ' + Math.round(r.confidence * 100) + ' % interval')
    return { ratio: stats.quantileSorted(sorted, 0.5), low: sorted[k - 1], high: sorted[n - k] }
  }

  // The rank k (from 1) of pairedRatioInterval's ends for n rounds, or 0 when
  // even the smallest and largest hold the median with less than the confidence.
  function orderRank (n, r) {
    const tail = (1 - r.confidence) / 2
    let below = 0 // P(X <= k - 1), X ~ Binomial(n, ½)
    let term = Math.pow(0.5, n) // P(X = k - 1)
    let k = 0
    for (let j = 0; j < n / 2; j++) {
      below += term
      if (below > tail) break
      k = j + 1
      term = term * (n - j) / (j + 1)
    }
    return k
  }

  // The fewest rounds whose paired interval reaches the rules' confidence (6 at 95 %).
  function pairedMinRounds (rules) {
    const r = rules || RULES
    let n = 1
    while (!orderRank(n, r)) n++
    return Math.max(n, r.minRuns)
  }

  // The runs of two sides paired by round (each side's `rounds` names the
  // round of each of its runs, each round once): → { a, b } over the rounds
  // both have, in a's order; null where either side names none. A TypeError
  // names a side whose rounds do not name each run once.
  function pairByRound (a, sa, b, sb) {
    if (!Array.isArray(a.rounds) || !Array.isArray(b.rounds)) return null
    const indexOf = function (side, samples) {
      if (side.rounds.length !== samples.length) throw new TypeError(side.name + ': ' + side.rounds.length + ' rounds for ' + samples.length + ' runs')
      const at = new Map()
      side.rounds.forEach(function (round, i) {
        if (at.has(round)) throw new TypeError(side.name + ': round ' + round + ' twice')
        at.set(round, i)
      })
      return at
    }
    indexOf(a, sa)
    const inB = indexOf(b, sb)
    const out = { a: [], b: [] }
    a.rounds.forEach(function (round, i) {
      if (!inB.has(round)) return
      out.a.push(sa[i])
      out.b.push(sb[inB.get(round)])
    })
    return out
  }

  // Mann-Kendall trend test over the samples in the order they ran: S, its
  // z (with the continuity correction) and the two-sided p from the normal
  // approximation; direction 'slower' when later runs take longer.
  function drift (values, rules) {
    const r = rules || RULES
    const n = values.length
    if (n < 4) return { s: 0, z: 0, p: 1, drifting: false, direction: null }
    let s = 0
    for (let i = 0; i < n - 1; i++) {
      for (let j = i + 1; j < n; j++) s += Math.sign(values[j] - values[i])
    }
    // Ties lower the variance: n(n-1)(2n+5) minus each tie group's t(t-1)(2t+5), over 18.
    const counts = {}
    values.forEach(function (v) { counts[v] = (counts[v] || 0) + 1 })
    let ties = 0
    Object.keys(counts).forEach(function (k) { const t = counts[k]; ties += t * (t - 1) * (2 * t + 5) })
    const variance = (n * (n - 1) * (2 * n + 5) - ties) / 18
    const z = variance > 0 ? (s === 0 ? 0 : (s - Math.sign(s)) / Math.sqrt(variance)) : 0
    const p = 2 * (1 - normalCdf(Math.abs(z)))
    return { s: s, z: z, p: p, drifting: p < r.driftP, direction: p < r.driftP ? (s > 0 ? 'slower' : 'faster') : null }
  }

  // Φ(x), Abramowitz and Stegun 7.1.26 (absolute error below 1.5e-7).
  function normalCdf (x) {
    const t = 1 / (1 + 0.3275911 * Math.abs(x) / Math.SQRT2)
    const erf = 1 - (((((1.061405429 * t - 1.453152027) * t) + 1.421413741) * t - 0.284496736) * t + 0.254829592) * t * Math.exp(-x * x / 2)
    return x >= 0 ? (1 + erf) / 2 : (1 - erf) / 2
  }

  // The fields a workload is compared on, in the order a sentence names them.
  const WORKLOAD_FIELDS = ['tool', 'connections', 'streams', 'pipelining', 'requests', 'bytes', 'state']

  // Our workload against the source's: → { differences: ['streams: 1 here, 100 in the source', …], comparable }.
  // `mustMatch`: the fields whose difference makes the comparison meaningless (default: every field both name).
  function compareWorkload (ours, source, mustMatch) {
    const differences = []
    let comparable = true
    if (!ours || !source) return { differences: differences, comparable: true }
    WORKLOAD_FIELDS.forEach(function (field) {
      if (!(field in ours) || !(field in source)) return
      if (ours[field] === source[field]) return
      differences.push(field + ': ' + ours[field] + ' here, ' + source[field] + ' in the source')
      if (!mustMatch || mustMatch.indexOf(field) !== -1) comparable = false
    })
    return { differences: differences, comparable: comparable }
  }

  function fmt (x) { return x >= 10 ? x.toFixed(0) : x >= 1.95 ? x.toFixed(1) : x.toFixed(2) }

  // A comparison before its verdict: the sides' names, the rules, no ratio yet, no flags.
  function unjudged (a, b, r) {
    return { a: a.name, b: b.name, verdict: null, ratio: NaN, low: NaN, high: NaN, flags: [], rules: r }
  }

  // The verdict of an interval of a ratio (a over b: above 1, b is the faster), by the rules.
  function decide (interval, r) {
    if (interval.low >= 1 / (1 + r.tolerance) && interval.high <= 1 + r.tolerance) return 'no difference'
    if (interval.low <= 1 && interval.high >= 1) return 'inconclusive'
    return interval.low > 1 ? 'faster' : 'slower'
  }

  // "a has 3 good runs, at least 5 needed": the lists below the minimum, or ''.
  function tooFew (lists, r) {
    const short = lists.filter(function (l) { return l[1].length < r.minRuns })
    return short.length
      ? 'not measured: ' + short.map(function (l) { return l[0] + ' has ' + l[1].length + ' good run' + (l[1].length === 1 ? '' : 's') }).join(', ') + ', at least ' + r.minRuns + ' needed'
      : ''
  }

  // How much a change (loss on the link, say) slows each side down against
  // its own runs without it, by the same rules: a and b are { name, before,
  // after (samples, ms, in the order they ran), failed (runs left out of
  // `after`) }. The ratio is a's slowdown over b's, each median(after) ÷
  // median(before), with the bootstrap interval of all four medians: above 1,
  // b suffers less ('faster': the change hurts b less). Drift is flagged on
  // every list. → { verdict, ratio, low, high, slowdown: [a's, b's], n, failed, flags, sentence }
  function compareSlowdowns (a, b, options) {
    const o = options || {}
    const r = Object.assign({}, RULES, o.rules || {})
    const lists = [[a.name + ' before', finite(a.before || [])], [a.name, finite(a.after || [])], [b.name + ' before', finite(b.before || [])], [b.name, finite(b.after || [])]]
    const out = Object.assign(unjudged(a, b, r), {
      slowdown: [NaN, NaN],
      n: [lists[1][1].length, lists[3][1].length],
      failed: [a.failed || 0, b.failed || 0]
    })
    lists.forEach(function (l) {
      const d = drift(l[1], r)
      if (d.drifting) out.flags.push(l[0] + ' drifts: each run ' + d.direction + ' than the last (Mann-Kendall p = ' + d.p.toFixed(3) + ')')
    })
    const failedText = out.failed[0] || out.failed[1] ? '; failed runs left out: ' + out.failed[0] + ' ' + a.name + ', ' + out.failed[1] + ' ' + b.name : ''
    const few = tooFew(lists, r)
    if (few) {
      out.verdict = 'not measured'
      out.sentence = few + failedText
      return out
    }
    Object.assign(out, productInterval([lists[1][1], lists[2][1]], [lists[0][1], lists[3][1]], r))
    out.slowdown = [stats.median(lists[1][1]) / stats.median(lists[0][1]), stats.median(lists[3][1]) / stats.median(lists[2][1])]
    out.verdict = decide(out, r)
    const more = out.verdict === 'slower'
    const evidence = ' (' + a.name + ' ×' + fmt(out.slowdown[0]) + ', ' + b.name + ' ×' + fmt(out.slowdown[1]) + '; ' + Math.round(r.confidence * 100) + ' % interval ' +
      (more ? fmt(1 / out.high) + '–' + fmt(1 / out.low) : fmt(out.low) + '–' + fmt(out.high)) + '×, ' + lists.map(function (l) { return l[1].length }).join('/') + ' runs' + failedText + ')'
    out.sentence = out.verdict === 'no difference' ? 'the change slows ' + a.name + ' and ' + b.name + ' down alike, within ±' + Math.round(r.tolerance * 100) + ' %' + evidence
      : out.verdict === 'inconclusive' ? 'inconclusive: ' + a.name + '\'s slowdown is ' + fmt(out.ratio) + '× ' + b.name + '\'s, but the interval holds 1' + evidence
        : out.verdict === 'faster' ? 'the change hurts ' + b.name + ' ' + fmt(out.ratio) + '× less than ' + a.name + evidence
          : 'the change hurts ' + b.name + ' ' + fmt(1 / out.ratio) + '× more than ' + a.name + evidence
    if (out.flags.length) out.sentence += '; FLAGGED: ' + out.flags.join('; ')
    return out
  }

  // One side: { name, samples (ms, in the order they ran), failed (runs left out), workload, rounds (optional: the round
  // of each run, where the two sides ran in turn within rounds; both sides' rounds pair their runs) }.
  // → { verdict: 'faster'|'slower'|'no difference'|'inconclusive'|'not measured'|'not comparable',
  //     ratio, low, high (a's median over b's, or paired the median of the rounds' a ÷ b: above 1, b is faster), n,
  //     paired (rounds paired, or null), failed, drift,
  //     workload, flags, sentence }
  function compare (a, b, options) {
    const o = options || {}
    const r = Object.assign({}, RULES, o.rules || {})
    const sa = finite(a.samples || [])
    const sb = finite(b.samples || [])
    const out = Object.assign(unjudged(a, b, r), {
      n: [sa.length, sb.length],
      failed: [a.failed || 0, b.failed || 0],
      drift: [drift(sa, r), drift(sb, r)],
      workload: compareWorkload(o.ours || a.workload, o.source, o.mustMatch)
    })
    out.drift.forEach(function (d, i) {
      if (d.drifting) out.flags.push((i ? b.name : a.name) + ' drifts: each run ' + d.direction + ' than the last (Mann-Kendall p = ' + d.p.toFixed(3) + ')')
    })
    const failedText = out.failed[0] || out.failed[1]
      ? '; failed runs left out: ' + out.failed[0] + ' of ' + (sa.length + out.failed[0]) + ' ' + a.name + ', ' + out.failed[1] + ' of ' + (sb.length + out.failed[1]) + ' ' + b.name
      : ''
    const pairs = pairByRound(a, sa, b, sb)
    out.paired = pairs ? pairs.a.length : null
    const fewest = pairs ? pairedMinRounds(r) : 0
    const few = tooFew([[a.name, sa], [b.name, sb]], r) ||
      (pairs && pairs.a.length < fewest ? 'not measured: ' + pairs.a.length + ' round' + (pairs.a.length === 1 ? ' has' : 's have') + ' runs of both ' + a.name + ' and ' + b.name + ', at least ' + fewest + ' needed' : '')
    if (few) {
      out.verdict = 'not measured'
      out.sentence = few + failedText
      return out
    }
    Object.assign(out, pairs ? pairedRatioInterval(pairs.a, pairs.b, r) : ratioInterval(sa, sb, r))
    // The interval in the sentence's own terms: "slower" states b over a, so its interval is inverted too.
    const slower = decide(out, r) === 'slower'
    const range = slower ? fmt(1 / out.high) + '–' + fmt(1 / out.low) + '×' : fmt(out.low) + '–' + fmt(out.high) + '×'
    const runs = pairs ? pairs.a.length + ' rounds paired' : sa.length + ' and ' + sb.length + ' runs'
    const evidence = ' (' + Math.round(r.confidence * 100) + ' % interval ' + range + ', ' + runs + failedText + ')'
    if (!out.workload.comparable) {
      out.verdict = 'not comparable'
      out.sentence = 'not comparable with the source: ' + out.workload.differences.join('; ')
      return out
    }
    out.verdict = decide(out, r)
    if (out.verdict === 'no difference') {
      out.sentence = 'no difference between ' + a.name + ' and ' + b.name + ' within ±' + Math.round(r.tolerance * 100) + ' %' + evidence
    } else if (out.verdict === 'inconclusive') {
      out.sentence = 'inconclusive: ' + a.name + ' takes ' + fmt(out.ratio) + '× ' + b.name + '\'s time, but the interval holds 1' + evidence
    } else if (out.verdict === 'faster') {
      out.sentence = b.name + ' is ' + fmt(out.ratio) + '× faster than ' + a.name + evidence
    } else {
      out.sentence = b.name + ' is ' + fmt(1 / out.ratio) + '× slower than ' + a.name + evidence
    }
    if (out.workload.differences.length) out.sentence += '; workload differs from the source: ' + out.workload.differences.join('; ')
    if (out.flags.length) out.sentence += '; FLAGGED: ' + out.flags.join('; ')
    return out
  }

  // When the times rest on this machine's CPU rather than on the protocols
  // alone: the browser, the lanes' servers and the measurement share one
  // machine, and a batch that keeps its CPU busy measures how much CPU each
  // protocol costs there as much as the protocol (Chromium's QUIC costs it
  // 3–4× the CPU of HTTP/2 for the same bytes).
  //   machineShare: the browser alone, or the whole machine (the browser, the
  //     lanes' servers and any other process; without that reading the
  //     browser and the servers together), used this share of the machine's
  //     cores or more: little CPU was left, so every process waited for it;
  //   oneCore: one process used this many cores or more: the lanes' Node
  //     process (one JavaScript thread) or the browser's busiest process,
  //     near one full core, a single thread saturated.
  const CPU_RULES = Object.freeze({ machineShare: 0.8, oneCore: 0.9 })

  function fmtCores (x) { return x >= 1 ? x.toFixed(1) : x.toFixed(2) }
  const known = function (x) { return typeof x === 'number' && isFinite(x) }

  // A lane's CPU over its batches (client/js/cpu.js: medians of its batches'):
  // { browserCores, serverCores, machineCores (the whole machine's busy
  // cores), otherCores, nodeCores, busiest: { type, cores } (the browser's
  // busiest process), browser: its name }, in cores (CPU seconds a second);
  // options: { cores (the machine's), rules }.
  // → { rests, reasons: [{ rule: 'browser'|'machine'|'together'|'node'|'process', cores, limit, brief, text }], text }
  // Nothing measured (null fields): rests is false, reasons empty, text ''.
  function cpuLoad (cpu, options) {
    const o = options || {}
    const r = Object.assign({}, CPU_RULES, o.rules || {})
    const reasons = []
    if (!cpu) return { rests: false, reasons: reasons, text: '' }
    // text: the reason in full (a lane's card); brief: without the shares, after "this machine's CPU" (a comparison's).
    const add = function (rule, value, limit, text, detail) {
      reasons.push({ rule: rule, cores: value, limit: limit, brief: text.replace(/this machine's/, 'its'), text: text + (detail || '') })
    }
    const browser = cpu.browser || 'the browser'
    const cores = known(o.cores) && o.cores > 0 ? o.cores : null
    const ofMachine = ' of this machine\'s ' + cores + ' core' + (cores === 1 ? '' : 's')
    const b = cpu.browserCores
    const s = cpu.serverCores
    const m = cpu.machineCores
    const limit = cores ? r.machineShare * cores : null
    const shares = function () {
      const parts = [browser + ' ' + fmtCores(b)]
      if (known(s)) parts.push('the lanes\' servers ' + fmtCores(s))
      if (known(cpu.otherCores) && known(m)) parts.push('other processes ' + fmtCores(cpu.otherCores))
      return ' (' + parts.join(', ') + ')'
    }
    if (cores && known(b) && b >= limit) {
      add('browser', b, limit, browser + ' used ' + fmtCores(b) + ofMachine)
    } else if (cores && known(b) && known(m) && m >= limit) {
      add('machine', m, limit, 'this machine\'s ' + cores + ' cores were ' + Math.min(100, Math.round(100 * m / cores)) + ' % busy', shares())
    } else if (cores && known(b) && !known(m) && known(s) && b + s >= limit) {
      add('together', b + s, limit, browser + ' and the lanes\' servers used ' + fmtCores(b + s) + ofMachine, shares())
    }
    if (known(cpu.nodeCores) && cpu.nodeCores >= r.oneCore) {
      add('node', cpu.nodeCores, r.oneCore, 'the lanes\' Node process used ' + fmtCores(cpu.nodeCores) + ' cores', ', one JavaScript thread near saturation')
    }
    if (cpu.busiest && known(cpu.busiest.cores) && cpu.busiest.cores >= r.oneCore) {
      add('process', cpu.busiest.cores, r.oneCore, browser + '\'s ' + (cpu.busiest.type || 'busiest process') + ' used ' + fmtCores(cpu.busiest.cores) + ' cores', ', one process near a full core')
    }
    return {
      rests: reasons.length > 0,
      reasons: reasons,
      text: reasons.length ? 'Rests on this machine\'s CPU: during these batches ' + reasons.map(function (x) { return x.text.replace(/this machine's/, 'its') }).join('; ') + '.' : ''
    }
  }

  // A comparison's sides: [{ name, cpu }] (cpu as cpuLoad takes it, with
  // browserCpuMs: the CPU the browser spent on a batch); options: { cores,
  // verdict (compare()'s), rules }. → { rests, lanes: [names resting on
  // CPU], sentence: '' when neither does }. The sentence says what each side's
  // batches cost the browser too: the same bytes may cost one protocol several
  // times the CPU of another.
  function restsOnCpu (sides, options) {
    const o = options || {}
    const loads = sides.map(function (side) { return cpuLoad(side.cpu, o) })
    const lanes = sides.filter(function (side, i) { return loads[i].rests }).map(function (side) { return side.name })
    if (!lanes.length) return { rests: false, lanes: lanes, sentence: '' }
    // Both sides for the one reason (the machine busy, or the browser using most of it): said once, with the range.
    const one = loads.every(function (l) { return l.reasons.length === 1 }) && loads.length > 1 &&
      (loads.every(function (l) { return l.reasons[0].rule === 'machine' }) || loads.every(function (l) { return l.reasons[0].rule === 'browser' }))
    let said
    if (one) {
      const values = loads.map(function (l) { return l.reasons[0].cores }).sort(function (x, y) { return x - y })
      const cores = o.cores
      const browser = (sides[0].cpu && sides[0].cpu.browser) || 'the browser'
      const range = function (f) { const lo = f(values[0]); const hi = f(values[values.length - 1]); return lo === hi ? lo : lo + '–' + hi }
      said = loads[0].reasons[0].rule === 'machine'
        ? 'its ' + cores + ' cores were ' + range(function (v) { return String(Math.min(100, Math.round(100 * v / cores))) }) + ' % busy during both lanes\' batches'
        : browser + ' used ' + range(fmtCores) + ' of its ' + cores + ' cores during both lanes\' batches'
    } else {
      said = sides.map(function (side, i) {
        return loads[i].rests ? 'during the ' + side.name + ' batches ' + loads[i].reasons.map(function (x) { return x.brief }).join(' and ') : null
      }).filter(Boolean).join('; ')
    }
    // What a batch cost the browser on each side, the dearer first.
    const costs = sides.filter(function (side) { return side.cpu && known(side.cpu.browserCpuMs) && side.cpu.browserCpuMs > 0 })
      .sort(function (x, y) { return y.cpu.browserCpuMs - x.cpu.browserCpuMs })
    const cost = costs.length === 2
      ? '; ' + (costs[0].cpu.browser || 'the browser') + ' spent ' + Math.round(costs[0].cpu.browserCpuMs) + ' ms of CPU a batch on ' + costs[0].name + ', ' +
        fmt(costs[0].cpu.browserCpuMs / costs[1].cpu.browserCpuMs) + '× the ' + Math.round(costs[1].cpu.browserCpuMs) + ' ms on ' + costs[1].name
      : ''
    const judged = o.verdict === 'faster' || o.verdict === 'slower'
    return {
      rests: true,
      lanes: lanes,
      sentence: (judged ? 'this verdict rests on this machine\'s CPU' : 'these times rest on this machine\'s CPU') + ': ' + said + cost
    }
  }

  return {
    RULES: RULES,
    CPU_RULES: CPU_RULES,
    cpuLoad: cpuLoad,
    restsOnCpu: restsOnCpu,
    compare: compare,
    compareSlowdowns: compareSlowdowns,
    ratioInterval: ratioInterval,
    pairedRatioInterval: pairedRatioInterval,
    pairedMinRounds: pairedMinRounds,
    productInterval: productInterval,
    drift: drift,
    compareWorkload: compareWorkload,
    generator: generator,
    WORKLOAD_FIELDS: WORKLOAD_FIELDS
  }
}))

'use strict'

const assert = require('node:assert/strict')
const stats = require('../../shared/stats')
const { RULES, compare, compareSlowdowns, ratioInterval, pairedRatioInterval, pairedMinRounds, productInterval, drift, compareWorkload } = require('../../shared/verdict')

// Seeded samples, so every run of these tests sees the same numbers.
function rng (seed) {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6D2B79F5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}
// n log-normal samples around `median` with spread `sigma` (of the log).
function logNormal (random, n, median, sigma) {
  const out = []
  for (let i = 0; i < n; i++) {
    const z = Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random())
    out.push(median * Math.exp(sigma * z))
  }
  return out
}
const shuffled = (random, xs) => xs.map(x => [random(), x]).sort((p, q) => p[0] - q[0]).map(p => p[1])

describe('shared/verdict.js: one verdict engine', () => {
  it('states its rules once: 95 % percentile bootstrap, at least 5 good runs a side, ±5 % for "no difference"', () => {
    assert.equal(RULES.confidence, 0.95)
    assert.match(RULES.method, /bootstrap/)
    assert.equal(RULES.minRuns, 5)
    assert.equal(RULES.tolerance, 0.05)
    assert.ok(Object.isFrozen(RULES))
  })

  it('fewer good runs than the minimum on a side: "not measured", naming the side, its count and the failures left out', () => {
    const v = compare({ name: 'h1', samples: [200, 210, 205, 199, 201, 204] }, { name: 'h2', samples: [100, 101, 99, 102], failed: 6 })
    assert.equal(v.verdict, 'not measured')
    assert.ok(Number.isNaN(v.ratio))
    assert.equal(v.sentence, 'not measured: h2 has 4 good runs, at least 5 needed; failed runs left out: 0 of 6 h1, 6 of 10 h2')
  })

  it('an interval clear of 1: faster (or slower), by the ratio of medians, with the interval and the runs behind it', () => {
    const r = rng(1)
    const slow = logNormal(r, 10, 200, 0.03)
    const fast = logNormal(r, 10, 100, 0.03)
    const v = compare({ name: 'h1', samples: slow }, { name: 'h2', samples: fast })
    assert.equal(v.verdict, 'faster')
    assert.ok(v.low > 1 && v.ratio > 1.8 && v.ratio < 2.2, JSON.stringify(v))
    assert.match(v.sentence, /^h2 is 2\.0× faster than h1 \(95 % interval [\d.]+–[\d.]+×, 10 and 10 runs\)$/)
    const w = compare({ name: 'h2', samples: fast }, { name: 'h1', samples: slow })
    assert.equal(w.verdict, 'slower')
    assert.match(w.sentence, /^h1 is 2\.0× slower than h2 \(95 % interval (1\.\d+|2\.\d)–(1\.\d+|2\.\d)×/)
    const [lo, hi] = /interval ([\d.]+)–([\d.]+)×/.exec(w.sentence).slice(1).map(Number)
    assert.ok(lo <= 2.05 && hi >= 1.95 && lo < hi, w.sentence)
  })

  it('an interval inside 1 ± 5 %: "no difference"; one that holds 1 but reaches past it: "inconclusive", never "faster"', () => {
    const r = rng(2)
    const same = compare({ name: 'h2', samples: logNormal(r, 20, 100, 0.01) }, { name: 'h2n', samples: logNormal(r, 20, 100, 0.01) })
    assert.equal(same.verdict, 'no difference', same.sentence)
    assert.match(same.sentence, /^no difference between h2 and h2n within ±5 % \(95 % interval/)
    // The page's example: a 1.1× ratio whose range holds 1 is not "faster".
    const noisy = compare({ name: 'spdy', samples: logNormal(r, 6, 110, 0.25) }, { name: 'node:http2', samples: logNormal(r, 6, 100, 0.25) })
    assert.equal(noisy.verdict, 'inconclusive', noisy.sentence)
    assert.ok(noisy.low < 1 && noisy.high > 1)
    assert.match(noisy.sentence, /^inconclusive: spdy takes [\d.]+× node:http2's time, but the interval holds 1/)
  })

  it('the same samples always give the same interval (seeded), and the interval covers the true ratio about 95 % of the time; without a difference it rarely calls one', () => {
    const r = rng(3)
    const a = logNormal(r, 12, 150, 0.1)
    const b = logNormal(r, 12, 100, 0.1)
    assert.deepEqual(ratioInterval(a, b), ratioInterval(a, b))
    // Against the truth: 300 experiments, each side 20 log-normal runs, true ratio of medians 1.5.
    const trials = 300
    let covered = 0
    for (let i = 0; i < trials; i++) {
      const x = logNormal(r, 20, 150, 0.2)
      const y = logNormal(r, 20, 100, 0.2)
      const ci = ratioInterval(x, y, { ...RULES, resamples: 1000 })
      if (ci.low <= 1.5 && ci.high >= 1.5) covered++
    }
    // A percentile bootstrap of medians is a little narrow at n = 20: between 85 % and 99 %.
    assert.ok(covered / trials > 0.85 && covered / trials < 0.99, `covered ${covered} of ${trials}`)
    // And with no true difference (the same distribution on both sides), "faster" or "slower" about 5 % of the time at most.
    let wrong = 0
    for (let i = 0; i < trials; i++) {
      const v = compare({ name: 'a', samples: logNormal(r, 10, 100, 0.1) }, { name: 'b', samples: logNormal(r, 10, 100, 0.1) }, { rules: { resamples: 1000 } })
      if (v.verdict === 'faster' || v.verdict === 'slower') wrong++
    }
    assert.ok(wrong / trials < 0.08, `a difference called in ${wrong} of ${trials} experiments without one`)
  })

  // Rounds: each multiplies both sides' runs by one factor (the machine's state then, spread 0.3 of the log), and a
  // takes `ratio` × b's time on top, with a little noise of each run's own.
  function rounds (random, n, ratio, { shared = 0.3, own = 0.02 } = {}) {
    const factor = logNormal(random, n, 1, shared)
    return {
      a: factor.map(f => 100 * ratio * f * logNormal(random, 1, 1, own)[0]),
      b: factor.map(f => 100 * f * logNormal(random, 1, 1, own)[0]),
      ids: factor.map((f, i) => i)
    }
  }

  it('paired rounds: where both sides name the round of each run, the ratio is the median of the rounds\' own ratios, its interval between order statistics, so what a round shares cancels', () => {
    const r = rng(11)
    const { a, b, ids } = rounds(r, 20, 1.1)
    const apart = compare({ name: 'page', samples: a }, { name: 'bare', samples: b })
    const paired = compare({ name: 'page', samples: a, rounds: ids }, { name: 'bare', samples: b, rounds: ids })
    assert.equal(apart.verdict, 'inconclusive', apart.sentence)
    assert.equal(paired.verdict, 'faster', paired.sentence)
    assert.equal(paired.ratio, stats.median(a.map((x, i) => x / b[i])))
    assert.ok(paired.low > 1.05 && paired.high < 1.15, paired.sentence)
    assert.equal(paired.paired, 20)
    assert.equal(apart.paired, null)
    assert.match(paired.sentence, /^bare is 1\.1\d× faster than page \(95 % interval [\d.]+–[\d.]+×, 20 rounds paired\)$/)
    // The order the sides list their rounds in does not matter: pairs are by round.
    const order = shuffled(r, ids)
    const at = new Map(ids.map((id, i) => [id, i]))
    const again = compare({ name: 'page', samples: a, rounds: ids }, { name: 'bare', samples: order.map(id => b[at.get(id)]), rounds: order })
    assert.deepEqual([again.ratio, again.low, again.high], [paired.ratio, paired.low, paired.high])
    assert.deepEqual(pairedRatioInterval(a, b), pairedRatioInterval(a, b))
  })

  it('paired rounds: only rounds both sides have are paired (a failed run leaves its round out); too few: "not measured"; one side without rounds: apart', () => {
    const r = rng(12)
    const { a, b, ids } = rounds(r, 8, 1.5)
    const v = compare({ name: 'x', samples: a.slice(1), rounds: ids.slice(1) }, { name: 'y', samples: b.slice(0, 7), rounds: ids.slice(0, 7) })
    assert.equal(v.paired, 6)
    assert.equal(v.ratio, stats.median(a.slice(1, 7).map((x, i) => x / b[i + 1])))
    assert.match(v.sentence, /, 6 rounds paired\)$/)
    const few = compare({ name: 'x', samples: a.slice(0, 4), rounds: ids.slice(0, 4) }, { name: 'y', samples: b, rounds: ids })
    assert.equal(few.verdict, 'not measured')
    assert.equal(few.sentence, 'not measured: x has 4 good runs, at least 5 needed')
    const gap = compare({ name: 'x', samples: a.slice(0, 5), rounds: ids.slice(0, 5) }, { name: 'y', samples: b.slice(3), rounds: ids.slice(3) })
    assert.equal(gap.verdict, 'not measured')
    assert.equal(gap.sentence, 'not measured: 2 rounds have runs of both x and y, at least 6 needed')
    // Five rounds cannot hold a median with 95 %: even their smallest and largest ratio miss it 2 × 1/32 of the time.
    assert.equal(pairedMinRounds(), 6)
    const five = compare({ name: 'x', samples: a.slice(0, 5), rounds: ids.slice(0, 5) }, { name: 'y', samples: b.slice(0, 5), rounds: ids.slice(0, 5) })
    assert.equal(five.sentence, 'not measured: 5 rounds have runs of both x and y, at least 6 needed')
    // The ends: the k-th smallest and largest of the rounds' ratios, k = 2 of 10, 6 of 20, 7 of 24 (binomial, ½).
    for (const [n, k] of [[6, 1], [10, 2], [20, 6], [24, 7]]) {
      const ratios = Array.from({ length: n }, (_, i) => i + 1)
      assert.deepEqual(pairedRatioInterval(ratios, ratios.map(() => 1)), { ratio: (n + 1) / 2, low: k, high: n + 1 - k })
    }
    const oneSided = compare({ name: 'x', samples: a, rounds: ids }, { name: 'y', samples: b })
    assert.equal(oneSided.paired, null)
    assert.match(oneSided.sentence, /, 8 and 8 runs\)/)
  })

  it('paired rounds: refuses rounds that do not name each run once', () => {
    const s = [1, 2, 3, 4, 5]
    assert.throws(() => compare({ name: 'x', samples: s, rounds: [0, 1, 2] }, { name: 'y', samples: s, rounds: [0, 1, 2, 3, 4] }), /x: 3 rounds for 5 runs/)
    assert.throws(() => compare({ name: 'x', samples: s, rounds: [0, 1, 1, 3, 4] }, { name: 'y', samples: s, rounds: [0, 1, 2, 3, 4] }), /x: round 1 twice/)
  })

  it('paired rounds against the truth: the interval covers the true ratio about 95 % of the time, and calls no difference where there is none', () => {
    const r = rng(13)
    const trials = 300
    let covered = 0
    let wrong = 0
    for (let i = 0; i < trials; i++) {
      const x = rounds(r, 20, 1.5, { shared: 0.3, own: 0.1 })
      const ci = pairedRatioInterval(x.a, x.b)
      if (ci.low <= 1.5 && ci.high >= 1.5) covered++
      const y = rounds(r, 10, 1, { shared: 0.3, own: 0.1 })
      const v = compare({ name: 'a', samples: y.a, rounds: y.ids }, { name: 'b', samples: y.b, rounds: y.ids })
      if (v.verdict === 'faster' || v.verdict === 'slower') wrong++
    }
    // Distribution-free: at least 95 % (95.9 % at 20 rounds), less only by chance over 300 trials.
    assert.ok(covered / trials > 0.92, `covered ${covered} of ${trials}`)
    assert.ok(wrong / trials < 0.05, `a difference called in ${wrong} of ${trials} experiments without one`)
  })

  it('drift: the Mann-Kendall test on the runs in the order they ran (S, z, p as the textbook computes them)', () => {
    const up = drift([1, 2, 3, 4, 5])
    assert.equal(up.s, 10)
    assert.ok(Math.abs(up.z - 9 / Math.sqrt(50 / 3)) < 1e-9)
    assert.ok(Math.abs(up.p - 0.0275) < 0.0005, `p ${up.p}`)
    assert.equal(up.drifting, true)
    assert.equal(up.direction, 'slower')
    assert.equal(drift([5, 4, 3, 2, 1]).direction, 'faster')
    assert.equal(drift([3, 1, 4, 1, 5, 2, 6, 5, 3, 5]).drifting, false)
    assert.equal(drift([1, 2, 3]).drifting, false, 'too few runs to tell')
  })

  it('a side that drifts is flagged, and so is its verdict', () => {
    const r = rng(4)
    const steady = shuffled(r, logNormal(r, 10, 100, 0.02))
    const creeping = Array.from({ length: 10 }, (_, i) => 200 + 15 * i)
    const v = compare({ name: 'h1', samples: creeping }, { name: 'h2', samples: steady })
    assert.equal(v.verdict, 'faster')
    assert.equal(v.flags.length, 1)
    assert.match(v.sentence, /; FLAGGED: h1 drifts: each run slower than the last \(Mann-Kendall p = 0\.000\)$/)
    assert.equal(compare({ name: 'a', samples: steady }, { name: 'b', samples: steady.map(x => x / 2) }).flags.length, 0)
  })

  it('the workload of each side against the source\'s: a difference is named, one the experiment needs equal makes it "not comparable"', () => {
    const source = { tool: 'h2load', connections: 100, streams: 100, requests: 10000, pipelining: 100 }
    const ours = { tool: 'h2load', connections: 100, streams: 100, requests: 10000, pipelining: 1 }
    assert.deepEqual(compareWorkload(ours, source), { differences: ['pipelining: 1 here, 100 in the source'], comparable: false })
    assert.deepEqual(compareWorkload(ours, source, ['tool', 'requests']), { differences: ['pipelining: 1 here, 100 in the source'], comparable: true })
    const r = rng(5)
    const a = { name: 'h1', samples: logNormal(r, 8, 300, 0.02) }
    const b = { name: 'h3', samples: logNormal(r, 8, 100, 0.02) }
    const blocked = compare(a, b, { ours, source })
    assert.equal(blocked.verdict, 'not comparable')
    assert.equal(blocked.sentence, 'not comparable with the source: pipelining: 1 here, 100 in the source')
    const named = compare(a, b, { ours, source, mustMatch: ['tool', 'requests'] })
    assert.equal(named.verdict, 'faster')
    assert.match(named.sentence, /; workload differs from the source: pipelining: 1 here, 100 in the source$/)
  })

  it('slowdowns (after ÷ before, per side) by the same rules: hurt less, alike, inconclusive, not measured; a ratio of two sides is the plain ratio interval', () => {
    const r = rng(6)
    const h2e = { name: 'h2e', before: logNormal(r, 10, 100, 0.02), after: logNormal(r, 10, 300, 0.03) }
    const h3 = { name: 'h3', before: logNormal(r, 10, 80, 0.02), after: logNormal(r, 10, 120, 0.03) }
    const less = compareSlowdowns(h2e, h3)
    assert.equal(less.verdict, 'faster')
    assert.ok(less.slowdown[0] > 2.7 && less.slowdown[0] < 3.3 && less.slowdown[1] > 1.35 && less.slowdown[1] < 1.65, JSON.stringify(less.slowdown))
    assert.ok(Math.abs(less.ratio - less.slowdown[0] / less.slowdown[1]) < 1e-9 && less.low > 1)
    assert.match(less.sentence, /^the change hurts h3 2\.\d× less than h2e \(h2e ×3\.\d, h3 ×1\.\d+; 95 % interval [\d.]+–[\d.]+×, 10\/10\/10\/10 runs\)$/)
    assert.equal(compareSlowdowns(h3, h2e).verdict, 'slower')
    // Both tripled: alike (tight samples), or inconclusive (wide ones), never "less".
    const tight = k => ({ name: k, before: logNormal(r, 20, 100, 0.005), after: logNormal(r, 20, 300, 0.005) })
    assert.equal(compareSlowdowns(tight('a'), tight('b')).verdict, 'no difference')
    const wide = k => ({ name: k, before: logNormal(r, 6, 100, 0.3), after: logNormal(r, 6, 300, 0.3) })
    assert.equal(compareSlowdowns(wide('a'), wide('b')).verdict, 'inconclusive')
    const few = compareSlowdowns(h2e, { ...h3, before: h3.before.slice(0, 3), failed: 2 })
    assert.equal(few.verdict, 'not measured')
    assert.equal(few.sentence, 'not measured: h3 before has 3 good runs, at least 5 needed; failed runs left out: 0 h2e, 2 h3')
    const a = logNormal(r, 9, 200, 0.1)
    const b = logNormal(r, 9, 100, 0.1)
    assert.deepEqual(productInterval([a], [b]), ratioInterval(a, b))
  })

  it('refuses what is not a list of finite numbers', () => {
    assert.throws(() => compare({ name: 'a', samples: [1, NaN] }, { name: 'b', samples: [1] }), /not a finite number/)
    assert.throws(() => compare({ name: 'a', samples: 'x' }, { name: 'b', samples: [1] }), /expected an array/)
  })
})

// The rule that says when times rest on this machine's CPU (shared/verdict.js CPU_RULES, cpuLoad, restsOnCpu):
// the page's cards and comparison sentences render what it returns (client/js/cpu.js, cards.js, page.js).
describe('shared/verdict.js: when the times rest on this machine\'s CPU', () => {
  const { CPU_RULES, cpuLoad, restsOnCpu } = require('../../shared/verdict')
  // A lane's CPU as client/js/cpu.js summarises it (medians over its batches).
  const lane = more => ({ browser: 'Chromium', browserCores: 0.5, serverCores: 0.2, machineCores: 0.8, otherCores: 0.1, nodeCores: 0.2, busiest: { type: 'renderer', cores: 0.4 }, browserCpuMs: 200, ...more })

  it('states its thresholds once: 80 % of the machine\'s cores, 0.9 of one core for one process', () => {
    assert.deepEqual({ ...CPU_RULES }, { machineShare: 0.8, oneCore: 0.9 })
    assert.ok(Object.isFrozen(CPU_RULES))
  })

  it('a light batch does not rest on CPU; nothing measured neither', () => {
    assert.deepEqual(cpuLoad(lane(), { cores: 2 }), { rests: false, reasons: [], text: '' })
    assert.equal(cpuLoad(null, { cores: 2 }).rests, false)
    assert.equal(cpuLoad(lane({ browserCores: null, serverCores: null, machineCores: null, nodeCores: null, busiest: null }), { cores: 2 }).rests, false)
  })

  it('the browser at 80 % of the machine\'s cores or more rests on CPU, at the threshold exactly too', () => {
    const at = cpuLoad(lane({ browserCores: 1.6, machineCores: 1.9 }), { cores: 2 })
    assert.equal(at.rests, true)
    assert.deepEqual(at.reasons.map(r => [r.rule, r.cores, r.limit]), [['browser', 1.6, 1.6]])
    assert.equal(at.text, 'Rests on this machine\'s CPU: during these batches Chromium used 1.6 of its 2 cores.')
    assert.equal(cpuLoad(lane({ browserCores: 1.59, machineCores: 1.59 }), { cores: 2 }).rests, false)
    // On 8 cores, 1.6 is little.
    assert.equal(cpuLoad(lane({ browserCores: 1.6, machineCores: 1.9 }), { cores: 8 }).rests, false)
    assert.equal(cpuLoad(lane({ browserCores: 6.4 }), { cores: 8 }).reasons[0].rule, 'browser')
  })

  it('the whole machine busy (other processes too) rests on CPU, with the shares', () => {
    const busy = cpuLoad(lane({ browserCores: 0.9, serverCores: 0.2, machineCores: 1.96, otherCores: 0.86 }), { cores: 2 })
    assert.deepEqual(busy.reasons.map(r => r.rule), ['machine'])
    assert.equal(busy.text, 'Rests on this machine\'s CPU: during these batches its 2 cores were 98 % busy (Chromium 0.90, the lanes\' servers 0.20, other processes 0.86).')
    // Without the machine's reading, the browser and the servers together.
    const together = cpuLoad(lane({ browserCores: 1.3, serverCores: 0.4, machineCores: null, otherCores: null }), { cores: 2 })
    assert.deepEqual(together.reasons.map(r => r.rule), ['together'])
    assert.match(together.text, /Chromium and the lanes' servers used 1\.7 of its 2 cores \(Chromium 1\.3, the lanes' servers 0\.40\)/)
    // The machine's cores unknown (a browser without navigator.hardwareConcurrency): no share can be judged.
    assert.equal(cpuLoad(lane({ browserCores: 1.9, machineCores: 2 }), {}).rests, false)
  })

  it('one process near a full core rests on CPU: the lanes\' Node process, the browser\'s busiest', () => {
    const node = cpuLoad(lane({ nodeCores: 0.95 }), { cores: 8 })
    assert.deepEqual(node.reasons.map(r => [r.rule, r.cores, r.limit]), [['node', 0.95, 0.9]])
    assert.match(node.text, /the lanes' Node process used 0\.95 cores, one JavaScript thread near saturation\.$/)
    const renderer = cpuLoad(lane({ busiest: { type: 'renderer', cores: 0.9 } }), { cores: 8 })
    assert.match(renderer.text, /during these batches Chromium's renderer used 0\.90 cores, one process near a full core\.$/)
    assert.equal(cpuLoad(lane({ nodeCores: 0.89, busiest: { type: 'renderer', cores: 0.89 } }), { cores: 8 }).rests, false)
    // Both, and the machine: every reason, in order.
    assert.deepEqual(cpuLoad(lane({ browserCores: 1.7, nodeCores: 0.92, busiest: { type: 'network service', cores: 1.0 } }), { cores: 2 }).reasons.map(r => r.rule),
      ['browser', 'node', 'process'])
  })

  it('a comparison whose side rests on CPU says so, with what a batch cost the browser on each side', () => {
    const h3 = { name: 'HTTP/3 (Caddy, QUIC)', cpu: lane({ browserCores: 1.62, machineCores: 1.9, browserCpuMs: 1140 }) }
    const h1 = { name: 'HTTP/1.1 (node:https)', cpu: lane({ browserCpuMs: 380 }) }
    const v = restsOnCpu([h3, h1], { cores: 2, verdict: 'faster' })
    assert.equal(v.rests, true)
    assert.deepEqual(v.lanes, ['HTTP/3 (Caddy, QUIC)'])
    assert.equal(v.sentence, 'this verdict rests on this machine\'s CPU: during the HTTP/3 (Caddy, QUIC) batches Chromium used 1.6 of its 2 cores; ' +
      'Chromium spent 1140 ms of CPU a batch on HTTP/3 (Caddy, QUIC), 3.0× the 380 ms on HTTP/1.1 (node:https)')
    // Not a verdict: "these times".
    assert.match(restsOnCpu([h1, h3], { cores: 2, verdict: 'inconclusive' }).sentence, /^these times rest on this machine's CPU: during the HTTP\/3/)
    // Neither side: nothing to say.
    assert.deepEqual(restsOnCpu([h1, h1], { cores: 2, verdict: 'faster' }), { rests: false, lanes: [], sentence: '' })
  })

  it('both sides for the one reason: said once, with the range', () => {
    const busy = (name, m, ms) => ({ name, cpu: lane({ browserCores: 0.9, machineCores: m, browserCpuMs: ms }) })
    const v = restsOnCpu([busy('HTTP/2 (spdy)', 1.96, 420), busy('HTTP/1.1 (node:https)', 1.99, 440)], { cores: 2, verdict: 'no difference' })
    assert.deepEqual(v.lanes, ['HTTP/2 (spdy)', 'HTTP/1.1 (node:https)'])
    assert.equal(v.sentence, 'these times rest on this machine\'s CPU: its 2 cores were 98–100 % busy during both lanes\' batches; ' +
      'Chromium spent 440 ms of CPU a batch on HTTP/1.1 (node:https), 1.05× the 420 ms on HTTP/2 (spdy)')
    // Different reasons: each side its own.
    const node = { name: 'HTTP/2 (spdy)', cpu: lane({ nodeCores: 0.97, browserCpuMs: null }) }
    assert.equal(restsOnCpu([busy('HTTP/3 (Caddy, QUIC)', 1.7, 900), node], { cores: 2, verdict: 'slower' }).sentence,
      'this verdict rests on this machine\'s CPU: during the HTTP/3 (Caddy, QUIC) batches its 2 cores were 85 % busy; ' +
      'during the HTTP/2 (spdy) batches the lanes\' Node process used 0.97 cores')
  })
})

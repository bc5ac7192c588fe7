'use strict'

const assert = require('node:assert/strict')
const { analyze, verdict, judgeSoak, poolBoundOf, linearFit, warmupSeconds, RSS_TOLERANCE, FD_RANGE, POOL_GROWTH } = require('../../bench/report/soak/soak-trend')
const { EDGE_UPSTREAM_CONNS } = require('../../server/edge/caddy')

// A made-up soak: a sample every `every` s for `minutes`, RSS and fds from
// functions of t (seconds); a fixed-seed noise source keeps runs identical.
function series ({ minutes = 30, every = 5, rss, fds = () => 30 }) {
  let x = 42
  const noise = () => { x = (x * 1103515245 + 12345) % 2147483648; return x / 2147483648 - 0.5 } // −0.5 … 0.5
  const out = []
  for (let t = 0; t <= minutes * 60; t += every) out.push({ t, rssMiB: rss(t, noise), fds: fds(t, noise) })
  return out
}

const judge = (samples, minutes = 30) => analyze(samples, { durationSeconds: minutes * 60 })

describe('soak trend (bench/report/soak/soak-trend.js)', () => {
  it('fits a least-squares line exactly through points on a line', () => {
    const fit = linearFit([0, 1, 2, 3], [5, 7, 9, 11])
    assert.equal(fit.slope, 2)
    assert.equal(fit.intercept, 5)
    assert.deepEqual(linearFit([4], [9]), { slope: 0, intercept: 9 })
  })

  it('warms up for 20 % of the run, at least a minute from 5 min on', () => {
    assert.equal(warmupSeconds(30 * 60), 360)
    assert.equal(warmupSeconds(5 * 60), 60)
    assert.equal(warmupSeconds(4 * 60), 48)
    assert.equal(warmupSeconds(20), 4)
  })

  it('fails a steadily rising RSS (a leak of 1 MiB a minute: +24 MiB over the 24 measured minutes)', () => {
    const t = judge(series({ rss: (s, noise) => 180 + s / 60 + 8 * noise() }))
    assert.equal(t.rss.flat, false)
    assert.ok(Math.abs(t.rss.slopePerMinute - 1) < 0.1, `slope ${t.rss.slopePerMinute}`)
    assert.ok(Math.abs(t.rss.growth - 24) < 2.5, `growth ${t.rss.growth}`)
    assert.ok(t.rss.lateGrowth > 8, 'and still growing in the last half')
  })

  it('passes a flat RSS with heavy noise and a GC sawtooth of 40 MiB', () => {
    const t = judge(series({ rss: (s, noise) => 190 + 40 * ((s % 47) / 47) + 20 * noise() }))
    assert.equal(t.rss.flat, true, `growth ${t.rss.growth}`)
    assert.ok(Math.abs(t.rss.growth) < 8)
    assert.ok(t.rss.max - t.rss.min > 40, 'the noise is larger than the tolerance, the trend is not')
  })

  it('passes a step during the warm-up followed by a plateau (the heap filling up once)', () => {
    const t = judge(series({ rss: (s, noise) => (s < 120 ? 140 : 200) + 4 * noise() }))
    assert.equal(t.warmupSeconds, 360)
    assert.equal(t.rss.flat, true)
    assert.ok(t.rss.min > 190, 'the step is left out with the warm-up')
  })

  it('fails a large step after the warm-up: the fit sees growth and does not guess that it stopped', () => {
    const t = judge(series({ rss: (s, noise) => (s < 15 * 60 ? 180 : 260) + 4 * noise() }))
    assert.equal(t.rss.flat, false)
    assert.ok(Math.abs(t.rss.lateGrowth) < 5, 'but the last half alone shows it flat again')
  })

  it('passes a small step after the warm-up (within 16 MiB)', () => {
    const t = judge(series({ rss: (s, noise) => (s < 15 * 60 ? 180 : 186) + 4 * noise() }))
    assert.equal(t.rss.flat, true)
  })

  it('uses 5 % of the mean RSS as the tolerance when that is above 16 MiB', () => {
    const big = judge(series({ rss: (s, noise) => 1000 + s / 60 + 4 * noise() }))
    assert.ok(Math.abs(big.rss.toleranceMiB - RSS_TOLERANCE.fraction * big.rss.mean) < 1e-9)
    assert.equal(big.rss.flat, true, '+24 MiB on ~1 GiB is within 5 %')
    const small = judge(series({ rss: (s, noise) => 100 + s / 60 / 2 + 4 * noise() }))
    assert.equal(small.rss.toleranceMiB, RSS_TOLERANCE.floorMiB)
    assert.equal(small.rss.flat, true, '+12 MiB is within the 16 MiB floor')
  })

  it('treats a falling RSS as flat (memory given back is not a leak)', () => {
    const t = judge(series({ rss: (s, noise) => 250 - s / 30 + 4 * noise() }))
    assert.equal(t.rss.flat, true)
    assert.ok(t.rss.growth < 0)
  })

  it('passes fds that move by a connection pool (6) and fails fds that climb', () => {
    const pool = judge(series({ rss: () => 180, fds: (s, noise) => 26 + (noise() > 0 ? 6 : 0) }))
    assert.equal(pool.fds.flat, true)
    assert.equal(pool.fds.spread, 6)
    const leak = judge(series({ rss: () => 180, fds: s => 30 + Math.floor(s / 60) }))
    assert.equal(leak.fds.flat, false)
    assert.ok(leak.fds.spread > FD_RANGE)
    assert.ok(Math.abs(leak.fds.slopePerMinute - 1) < 0.05)
  })

  it('gives no trend verdict on too few samples after the warm-up', () => {
    const t = analyze([{ t: 0, rssMiB: 100, fds: 20 }, { t: 10, rssMiB: 101, fds: 20 }], { durationSeconds: 10 })
    assert.equal(t.enough, false)
    assert.equal(t.rss.flat, false)
    const v = verdict(t, { failed: 0, browserFailed: 0 })
    assert.equal(v.pass, false)
    assert.match(v.reasons[0], /only 1 samples after the warm-up/)
  })

  it('passes only with flat RSS, flat fds, zero failures by either count and the server alive', () => {
    const flat = judge(series({ rss: (s, noise) => 180 + 6 * noise() }))
    assert.deepEqual(verdict(flat, { failed: 0, browserFailed: 0 }), {
      pass: true, rssFlat: true, fdsFlat: true, poolFlat: null, closeWaitFlat: null, zeroFailures: true, serverAlive: true, reasons: []
    })
    const failedPage = verdict(flat, { failed: 3, browserFailed: 0 })
    assert.equal(failedPage.pass, false)
    assert.deepEqual(failedPage.reasons, ['3 failed requests (page)'])
    const failedBrowser = verdict(flat, { failed: 0, browserFailed: 1 })
    assert.deepEqual(failedBrowser.reasons, ['1 failed request (Chromium requestfailed)'])
    const died = verdict(flat, { failed: 0, browserFailed: 0, serverExit: 'exit code 1' })
    assert.equal(died.pass, false)
    assert.equal(died.serverAlive, false)
    const rising = judge(series({ rss: s => 180 + s / 30 }))
    const v = verdict(rising, { failed: 0, browserFailed: 0 })
    assert.equal(v.pass, false)
    assert.match(v.reasons[0], /^RSS grew 48\.0 MiB over 24\.0 min \(tolerance 16\.0 MiB\)$/)
  })
})

// Soaks that count their sockets by owner (bench/soak/soak-sockets.js): the
// pool Caddy keeps to the edge apps follows the load and is judged by its
// bound and its trend; the other fds by the range.
describe('soak trend with sockets by owner: the edge pool apart', () => {
  const BOUND = poolBoundOf(['h1', 'h2', 'h2n', 'h3', 'h2e'])
  const judge = samples => analyze(samples, { durationSeconds: 30 * 60, poolBound: BOUND })
  // Samples whose pool and CLOSE_WAIT follow functions of t; the other fds
  // (listening sockets, the browser's connections, pipes, files) `own`.
  function owned ({ pool, closeWait = () => 0, own = () => 40 }) {
    return series({
      rss: () => 180,
      fds: () => 0
    }).map((s, i) => {
      const p = pool(s.t, i)
      const o = own(s.t, i)
      return {
        ...s,
        fds: p + o,
        fdKinds: { socket: p + o - 17, pipe: 9, anon: 6, file: 2 },
        sockets: { pool: p, listen: 6, clients: o - 23, other: 0, closeWait: closeWait(s.t, i) }
      }
    })
  }

  it('bounds the pool by Caddy\'s connections per edge lane (h3 and h2e: two)', () => {
    assert.equal(BOUND, 2 * EDGE_UPSTREAM_CONNS)
    assert.equal(poolBoundOf(['h1', 'h2']), 0)
  })

  it('passes a pool that swings 250…380 with the batches (the 76fe6d3 soak\'s sockets) while the other fds hold', () => {
    const t = judge(owned({ pool: (s, i) => 250 + (i * 37) % 131 }))
    assert.equal(t.fds.lessPool, true)
    assert.equal(t.fds.flat, true, `fds less the pool ${t.fds.min}…${t.fds.max}`)
    assert.ok(t.pool.max - t.pool.min > 100, 'the pool itself moved by over 100')
    assert.equal(t.pool.withinBound, true)
    assert.equal(t.pool.notGrowing, true, `growth ${t.pool.growth}`)
    assert.equal(verdict(t, { failed: 0, browserFailed: 0 }).pass, true)
    // The same samples judged on all their fds, as before the owners were counted, fail:
    const whole = judge(owned({ pool: (s, i) => 250 + (i * 37) % 131 }).map(({ sockets, ...s }) => s))
    assert.equal(whole.fds.lessPool, false)
    assert.equal(whole.fds.flat, false)
    assert.equal(whole.pool, undefined)
  })

  it('fails a pool that leaks: one connection every 10 s (+144 over the 24 measured minutes)', () => {
    const t = judge(owned({ pool: (s, i) => 250 + (i * 37) % 131 + Math.floor(s / 10) }))
    assert.equal(t.pool.growthTolerance, POOL_GROWTH * BOUND)
    assert.equal(t.pool.notGrowing, false, `growth ${t.pool.growth}`)
    assert.ok(Math.abs(t.pool.growth - 144) < 12, `growth ${t.pool.growth}`)
    const v = verdict(t, { failed: 0, browserFailed: 0 })
    assert.equal(v.pass, false)
    assert.equal(v.poolFlat, false)
    assert.match(v.reasons.join('; '), /^the edge pool grew by 1\d\d\.\d connections over 24\.0 min \(tolerance 102\)$/)
  })

  it('fails a pool past Caddy\'s bound, even flat (more connections than max_conns_per_host allows)', () => {
    const t = judge(owned({ pool: () => BOUND + 1 }))
    assert.equal(t.pool.withinBound, false)
    assert.equal(t.pool.notGrowing, true)
    assert.match(verdict(t, { failed: 0, browserFailed: 0 }).reasons[0], new RegExp(`held ${BOUND + 1} pooled upstream connections at once \\(Caddy's bound: ${BOUND}\\)`))
  })

  it('fails sockets piling up in CLOSE_WAIT (closed by the peer, never by the server) though the pool is bounded', () => {
    const t = judge(owned({ pool: () => 300, closeWait: s => Math.floor(s / 60) }))
    assert.equal(t.closeWait.flat, false)
    assert.match(verdict(t, { failed: 0, browserFailed: 0 }).reasons[0], /^sockets in CLOSE_WAIT grew by 2\d\.\d \(tolerance 8\)$/)
    const transient = judge(owned({ pool: () => 300, closeWait: (s, i) => (i % 7 === 0 ? 30 : 0) }))
    assert.equal(transient.closeWait.flat, true, 'a burst now and then, none staying')
  })

  it('still fails the other fds when they climb beside a steady pool', () => {
    const t = judge(owned({ pool: () => 300, own: s => 40 + Math.floor(s / 120) }))
    assert.equal(t.fds.flat, false)
    assert.match(verdict(t, { failed: 0, browserFailed: 0 }).reasons[0], /^open fds \(less the edge pool\) ranged 43…55/)
  })

  it('judges a stopped soak on what ran, and names a stop that was not a signal', () => {
    const samples = owned({ pool: () => 300 }).filter(s => s.t <= 600)
    const cut = judgeSoak({ samples, lanes: ['h1', 'h2e'], plannedSeconds: 1800, loadSeconds: 600, stopping: 'SIGINT', interrupted: 'SIGINT', failed: 0, browserFailed: 0, serverExit: null })
    assert.equal(cut.trend.warmupSeconds, 120)
    assert.equal(cut.trend.pool.bound, EDGE_UPSTREAM_CONNS)
    assert.equal(cut.verdict.pass, true)
    const crashed = judgeSoak({ samples, lanes: ['h1'], plannedSeconds: 1800, loadSeconds: 600, stopping: 'page crash', interrupted: null, failed: 0, browserFailed: 0, serverExit: null })
    assert.equal(crashed.verdict.pass, false)
    assert.match(crashed.verdict.reasons.at(-1), /^the load stopped early: page crash$/)
    assert.equal(crashed.trend.pool.withinBound, false, 'no edge lane: a bound of 0, and 300 pooled connections break it')
  })
})

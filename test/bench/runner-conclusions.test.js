'use strict'

const assert = require('node:assert/strict')
const { experimentById } = require('../../bench/experiments')
const { ratioRange, growth, statusOf, tooFewMeasured } = require('../../bench/runner/conclusions')
const { fabricate, around } = require('../support/result-rows')

const s = x => around(x * 1000) // seconds → samples in ms
const verdictsOf = (id, rows) => experimentById(id).conclusions.map(c => c.check(rows))
const SOURCE = id => experimentById(id).source

describe('runner: verdicts on the source\'s conclusions', () => {
  it('one status rule over the engine\'s verdicts: all, more than the opposite, or not; "not measured" past half', () => {
    assert.equal(statusOf(['faster', 'faster']), 'reproduced')
    assert.equal(statusOf(['faster', 'inconclusive', 'slower', 'faster']), 'partly reproduced')
    assert.equal(statusOf(['faster', 'slower']), 'not reproduced')
    assert.equal(statusOf(['slower', 'slower', 'no difference'], ['holds', 'partly holds', 'does not hold'], 'slower'), 'partly holds')
    assert.equal(statusOf(['faster', 'not measured', 'not measured']), 'not measured')
    assert.equal(statusOf(['faster', 'not measured']), 'partly reproduced')
    assert.equal(statusOf([]), 'not measured')
    assert.equal(tooFewMeasured([null, 'faster']), false)
  })

  describe('delay', () => {
    it('reproduced when h1 grows with delay and h2 stays flat, with the figures', () => {
      const rows = fabricate('delay', { h1: SOURCE('delay').h1.map(s), h2: SOURCE('delay').h2.map(s), h2n: [0.4, 0.4, 0.41, 0.4, 0.42].map(s) })
      const [v] = verdictsOf('delay', rows)
      assert.equal(v.status, 'reproduced')
      assert.equal(v.detail, 'h1 ×2.47 from 0 to 40 ms, h2 ×1.04; h2n ×1.05; by the verdict engine h1 grew, h2 grew') // h2's 4 % over tight samples is clear, but small
    })

    it('not reproduced when both grow alike', () => {
      const rows = fabricate('delay', { h1: [1, 2, 3, 4, 5].map(s), h2: [1, 2, 3, 4, 5].map(s) })
      assert.equal(verdictsOf('delay', rows)[0].status, 'not reproduced')
    })

    it('not measured without an h2 lane, saying what is missing', () => {
      const [v] = verdictsOf('delay', fabricate('delay', { h1: [1, 2, 3, 4, 5].map(s) }))
      assert.deepEqual(v, { status: 'not measured', detail: 'needs lanes h1 and h2 at delays 0 and 40' })
    })
  })

  describe('request count', () => {
    it('at 10 ms (source figures): the same below 30 requests, and no advantage with many', () => {
      const rows = fabricate('count-10ms', { h1: SOURCE('count-10ms').h1.map(s), h2: SOURCE('count-10ms').h2.map(s) })
      const [few, many] = verdictsOf('count-10ms', rows)
      assert.equal(few.status, 'reproduced')
      assert.match(few.detail, /^h1 takes 1\.00×–1\.00× h2's time at 6 and 30 requests, 10 ms delay/)
      assert.equal(many.status, 'reproduced')
      assert.match(many.detail, /h1 takes 0\.92× h2's time .* at 10 ms; by the verdict engine: faster in 1, slower in 2 of 3 request counts; the source saw no advantage at 10 ms$/)
    })

    it('at 30 ms (source figures): h2 ahead with many requests', () => {
      const rows = fabricate('count-30ms', { h1: SOURCE('count-30ms').h1.map(s), h2: SOURCE('count-30ms').h2.map(s) })
      const [, many] = verdictsOf('count-30ms', rows)
      assert.equal(many.status, 'reproduced')
      assert.match(many.detail, /^h1 takes 1\.53× h2's time \(median over 150, 750, 3750 requests; 1\.48×–1\.69×\) at 30 ms; by the verdict engine: faster in 3 of 3 request counts$/)
    })

    it('at 30 ms: not reproduced when h2 is no faster; at 10 ms an advantage contradicts the source', () => {
      const flat = [0.1, 0.2, 1, 4, 20].map(s)
      assert.equal(verdictsOf('count-30ms', fabricate('count-30ms', { h1: flat, h2: flat }))[1].status, 'not reproduced')
      const rows = fabricate('count-10ms', { h1: [0.1, 0.2, 2, 8, 40].map(s), h2: [0.1, 0.2, 1, 4, 20].map(s) })
      const [, many] = verdictsOf('count-10ms', rows)
      assert.equal(many.status, 'not reproduced')
      assert.match(many.detail, /the source saw no advantage at 10 ms, we do$/)
    })
  })

  it('size (source figures): h2 slightly slower, reproduced; h2 faster, not', () => {
    const src = SOURCE('size')
    const [v] = verdictsOf('size', fabricate('size', { h1: src.h1.map(s), h2: src.h2.map(s) }))
    // The source's own figures: h1 clearly faster at 8 sizes, h2 at 1.2 MB (0.91×): partly, by the verdict engine.
    assert.equal(v.status, 'partly reproduced')
    assert.match(v.detail, /^h2 takes 1\.18× h1's time \(median over the sizes; 0\.91–1\.22×; source 1\.18×\); by the verdict engine: faster in 8, slower in 1, no difference in 1 of 10 sizes$/)
    assert.equal(verdictsOf('size', fabricate('size', { h1: src.h2.map(s), h2: src.h1.map(s) }))[0].status, 'not reproduced')
  })

  it('network (source figures): h2 faster under every 2G–4G preset', () => {
    const src = SOURCE('network')
    const [v] = verdictsOf('network', fabricate('network', { h1: src.h1.map(s), h2: src.h2.map(s) }))
    assert.equal(v.status, 'reproduced')
    assert.match(v.detail, /^h1 takes 1\.61× h2's time \(median over the 2G–4G presets; 1\.54–1\.65×/)
    const mixed = fabricate('network', { h1: [2, 2, 2, 2, 1, 1].map(s), h2: [1, 1, 1, 1, 1.2, 1].map(s) })
    assert.equal(verdictsOf('network', mixed)[0].status, 'partly reproduced')
  })

  it('network: 1 % is not "faster": not reproduced, and says why; a small but steady lead partly holds', () => {
    const close = fabricate('network', { h1: [100.2, 55.6, 33.9, 16.9, 6.5, 1].map(s), h2: [99.1, 55, 33.5, 16.7, 6.4, 1].map(s) })
    const [v] = verdictsOf('network', close)
    assert.equal(v.status, 'not reproduced')
    assert.match(v.detail, /^h1 takes 1\.01× h2's time .*; by the verdict engine: no difference \(±5 %\) in all 5 presets\. .*shared pipe dominate/)
    // By the verdict engine a steady 6-12 % lead over five tight runs a side is faster in every preset.
    const [now] = verdictsOf('network-current', fabricate('network-current', { h1: [1.07, 1.06, 1.12].map(s), h2: [1, 1, 1].map(s) }))
    assert.equal(now.status, 'holds')
    const [mixed] = verdictsOf('network-current', fabricate('network-current', { h1: [1.07, 1.06, 1].map(s), h2: [1, 1, 1].map(s) }))
    assert.equal(mixed.status, 'partly holds')
    const [few] = verdictsOf('network-current', fabricate('network-current', { h1: [[1.5, 1.5], [1.5, 1.5], [1.5, 1.5]], h2: [[1, 1], [1, 1], [1, 1]] }))
    assert.equal(few.status, 'not measured') // two runs a side: too few for any verdict
    // Two of three presets without enough runs: the one left does not make the conclusion.
    const [thin] = verdictsOf('network-current', fabricate('network-current', { h1: [s(1.5), [1.5, 1.5], [1.5, 1.5]], h2: [s(1), [1, 1], [1, 1]] }))
    assert.equal(thin.status, 'not measured')
    assert.match(thin.detail, /by the verdict engine: faster in 1, not measured in 2 of 3 presets/)
  })

  describe('push in the browser', () => {
    const times = { 'h2 push': [1, 1, 1, 1, 1, 1, 0.05].map(s), 'h2 none': [1, 1, 1, 1, 1, 1, 0.05].map(s) }

    it('refused by the browser: says it cannot be reproduced and why, with figures, instead of timing a push', () => {
      const [v] = verdictsOf('push', fabricate('push', times, { outcome: 'refused by the browser' }))
      assert.equal(v.status, 'cannot be reproduced in this browser')
      assert.match(v.detail, /^push was refused by the browser \(Chrome sends SETTINGS_ENABLE_PUSH=0\), so both modes loaded the script by request: push\/request time 1\.00–1\.00× under the presets, 1\.00–1\.00× unthrottled/)
    })

    it('pushed (a browser that still accepts it): reproduced when push is slower throttled and faster unthrottled', () => {
      const rows = fabricate('push', { 'h2 push': [2, 2, 2, 2, 2, 2, 0.02].map(s), 'h2 none': [1, 1, 1, 1, 1, 1, 0.06].map(s) }, { outcome: 'pushed (promised=1)' })
      assert.equal(verdictsOf('push', rows)[0].status, 'reproduced')
    })
  })

  it('push-protocol: request takes longer than push', () => {
    const rows = fabricate('push-protocol', {
      'h2 push': [0.005, 0.015, 0.035, 0.105].map(s), 'h2 request': [0.01, 0.03, 0.07, 0.21].map(s)
    })
    const [v] = verdictsOf('push-protocol', rows)
    assert.equal(v.status, 'reproduced')
    assert.match(v.detail, /^request takes 2\.00× push's time/)
  })

  it('leaves out rows with failed requests (they end early) and says so', () => {
    const src = SOURCE('count-30ms')
    const rows = fabricate('count-30ms', { h1: src.h1.map(s), h2: src.h2.map(s) }, { failures: { h1: [0, 0, 0, 0, 4448] } })
    const failed = rows.find(r => r.lane === 'h2' && r.params.requests === 3750)
    assert.equal(failed.ratioToBaseline, null)
    const [, many] = verdictsOf('count-30ms', rows)
    assert.match(many.detail, /^h1 takes 1\.58× h2's time \(median over 150, 750 requests; 1\.48×–1\.69×\) at 30 ms; by the verdict engine: faster in 2 of 2 request counts; 3750 left out \(failed requests\)$/)
  })

  it('ratios: per cell lane median / h1 median, push / request; none for the baseline itself or without samples', () => {
    const rows = fabricate('delay', { h1: [s(1), s(1), [], s(1), s(1)], h2: [s(2), s(0.5), s(1), [], s(1)] })
    const h2 = rows.filter(r => r.lane === 'h2')
    assert.deepEqual(h2.map(r => r.ratioToBaseline), [2, 0.5, null, null, 1])
    assert.deepEqual(h2.map(r => r.baseline), ['h1', 'h1', null, null, 'h1'])
    assert.ok(rows.filter(r => r.lane === 'h1').every(r => r.baseline === null && r.ratioToBaseline === null))
    const push = fabricate('push-protocol', { 'h2n push': [s(1), s(1), s(1), s(1)], 'h2n request': [s(3), s(3), s(3), s(3)] })
    assert.deepEqual(push.filter(r => r.mode === 'push').map(r => [r.baseline, r.ratioToBaseline]), Array(4).fill(['h2n request', 0.333]))
    const { used, ...range } = ratioRange(rows, 'h2', 'h1')
    assert.deepEqual(range, { median: 1, min: 0.5, max: 2, n: 3, verdicts: { slower: 1, faster: 1, 'no difference': 1 } })
    assert.deepEqual(used.map(r => r.cell), [0, 1, 4])
    assert.equal(growth(rows, 'h2', 'delayMs', 0, 40), 0.5)
  })

  it('the HTTP/3 experiments hold every row against h2e (the same edge) in the same mode, as their source does; h3-hol has no h1', () => {
    const ttfb = fabricate('h3-ttfb', { 'h1 cold': [s(3)], 'h2e cold': [s(3)], 'h3 cold': [s(2)], 'h2e repeat': [s(3)], 'h3 repeat': [s(1)] })
    const pick = key => ttfb.find(r => `${r.lane} ${r.mode}` === key)
    assert.deepEqual(['h3 cold', 'h3 repeat', 'h1 cold'].map(k => [pick(k).baseline, pick(k).ratioToBaseline, pick(k).comparison.verdict]),
      [['h2e cold', 0.667, 'faster'], ['h2e repeat', 0.333, 'faster'], ['h2e cold', 1, 'no difference']])
    assert.equal(pick('h2e cold').baseline, null)
    const hol = fabricate('h3-hol', { h2e: [s(1)], h3: [s(5)] })
    assert.deepEqual(hol.map(r => [r.lane, r.baseline, r.comparison && r.comparison.verdict]), [['h2e', null, null], ['h3', 'h2e', 'slower']])
  })
})

'use strict'

const assert = require('node:assert/strict')
const { experimentById } = require('../../bench/experiments')
const { verdicts } = require('../../bench/report/runner/report-verdicts')
const { fabricate, around } = require('../support/result-rows')

const s = x => around(x * 1000) // seconds → samples in ms
const verdictsOf = (id, rows) => verdicts(experimentById(id), rows)
const SOURCE = id => experimentById(id).source

describe('runner: the source\'s conclusions as claims, judged by the one rule (bench/report/claims/)', () => {
  describe('delay', () => {
    it('reproduced when h1 grows with delay and h2 stays flat, with the figures and the engine\'s verdict per part', () => {
      const rows = fabricate('delay', { h1: SOURCE('delay').h1.map(s), h2: [0.48, 0.5, 0.49, 0.48, 0.48].map(s) })
      const [v] = verdictsOf('delay', rows)
      assert.equal(v.status, 'reproduced')
      assert.match(v.detail, /^h1 at 40 takes 2\.47× its time at 0 \(median over 1 cell\); h2 at 40 takes 1\.00× its time at 0 .*HTTP\/1\.1 grows from 0 to 40 ms \(for: h1 slower at 40 than at 0\), by the verdict engine, per server delay \(ms\): 0 → 40: slower .* → for; HTTP\/2 stays flat .*: 0 → 40: no difference .* → for; source: h1 0\.38 → 0\.94 s/)
    })

    it('the source\'s own h2 (+4 % over tight runs) is a clear difference, not "flat": not reproduced', () => {
      const rows = fabricate('delay', { h1: SOURCE('delay').h1.map(s), h2: SOURCE('delay').h2.map(s) })
      assert.equal(verdictsOf('delay', rows)[0].status, 'not reproduced')
    })

    it('not measured without an h2 lane, saying what is missing', () => {
      const [v] = verdictsOf('delay', fabricate('delay', { h1: [1, 2, 3, 4, 5].map(s) }))
      assert.equal(v.status, 'not measured')
      assert.match(v.detail, /HTTP\/2 stays flat from 0 to 40 ms .*, by the verdict engine, per server delay \(ms\): no h2 row;/)
    })
  })

  describe('request count', () => {
    it('at 10 ms (source figures): the same below 30 requests; with many requests h2 no faster in 2 of 3', () => {
      const rows = fabricate('count-10ms', { h1: SOURCE('count-10ms').h1.map(s), h2: SOURCE('count-10ms').h2.map(s) })
      const [few, many] = verdictsOf('count-10ms', rows)
      assert.equal(few.status, 'reproduced')
      assert.match(few.detail, /per requests: 6: no difference .* → for; 30: no difference .* → for/)
      assert.equal(many.status, 'partly reproduced')
      assert.match(many.detail, /150: slower .* → for; 750: slower .* → for; 3750: faster .* → against/)
    })

    it('at 30 ms (source figures): h2 ahead with many requests; 30 requests not "the same" (0.24 against 0.17 s)', () => {
      const rows = fabricate('count-30ms', { h1: SOURCE('count-30ms').h1.map(s), h2: SOURCE('count-30ms').h2.map(s) })
      const [few, many] = verdictsOf('count-30ms', rows)
      assert.equal(few.status, 'not reproduced')
      assert.equal(many.status, 'reproduced')
      assert.match(many.detail, /^h2 takes 0\.65× h1's time \(median over 3 cells; 0\.59×–0\.68×\)/)
    })

    it('at 30 ms: not reproduced when h2 is no faster; at 10 ms an advantage speaks against the source', () => {
      const even = [0.1, 0.2, 1, 4, 20].map(s)
      assert.equal(verdictsOf('count-30ms', fabricate('count-30ms', { h1: even, h2: even }))[1].status, 'not reproduced')
      const rows = fabricate('count-10ms', { h1: [0.1, 0.2, 2, 8, 40].map(s), h2: [0.1, 0.2, 1, 4, 20].map(s) })
      assert.equal(verdictsOf('count-10ms', rows)[1].status, 'not reproduced')
    })

    it('a row with failed requests is not measured, and its cell says why', () => {
      const src = SOURCE('count-30ms')
      const rows = fabricate('count-30ms', { h1: src.h1.map(s), h2: src.h2.map(s) }, { failures: { h1: [0, 0, 0, 0, 4448] } })
      assert.equal(rows.find(r => r.lane === 'h2' && r.params.requests === 3750).ratioToBaseline, null)
      const [, many] = verdictsOf('count-30ms', rows)
      assert.equal(many.status, 'reproduced')
      assert.match(many.detail, /3750: not measured \(h1 had 4448 failed requests\) → missing/)
    })
  })

  it('size (source figures): h1 faster at 8 sizes and within the source\'s 1.18× ×1.25 at 9: partly', () => {
    const src = SOURCE('size')
    const [v] = verdictsOf('size', fabricate('size', { h1: src.h1.map(s), h2: src.h2.map(s) }))
    assert.equal(v.status, 'partly reproduced')
    assert.match(v.detail, /h2 takes 1\.18× h1's time \(median over 10 cells; 0\.91×–1\.22×\)/)
    assert.equal(verdictsOf('size', fabricate('size', { h1: src.h2.map(s), h2: src.h1.map(s) }))[0].status, 'not reproduced')
  })

  it('network (source figures): h2 faster under every 2G–4G preset; WiFi is not one of its cells', () => {
    const src = SOURCE('network')
    const [v] = verdictsOf('network', fabricate('network', { h1: src.h1.map(s), h2: src.h2.map(s) }))
    assert.equal(v.status, 'reproduced')
    assert.doesNotMatch(v.detail, /WiFi/)
    const mixed = fabricate('network', { h1: [2, 2, 2, 2, 1, 1].map(s), h2: [1, 1, 1, 1, 1.2, 1].map(s) })
    assert.equal(verdictsOf('network', mixed)[0].status, 'partly reproduced')
  })

  it('network-current is h2bench\'s own hypothesis: holds, partly holds, not measured past half', () => {
    const [now] = verdictsOf('network-current', fabricate('network-current', { h1: [1.07, 1.06, 1.12].map(s), h2: [1, 1, 1].map(s) }))
    assert.equal(now.status, 'holds')
    const [mixed] = verdictsOf('network-current', fabricate('network-current', { h1: [1.07, 1.06, 1].map(s), h2: [1, 1, 1].map(s) }))
    assert.equal(mixed.status, 'partly holds')
    const [thin] = verdictsOf('network-current', fabricate('network-current', { h1: [s(1.5), [1.5, 1.5], [1.5, 1.5]], h2: [s(1), [1, 1], [1, 1]] }))
    assert.equal(thin.status, 'not measured')
  })

  describe('push in the browser', () => {
    it('refused by the browser: not measured, every cell saying why, instead of timing a push that did not happen', () => {
      const times = { 'h2 push': [1, 1, 1, 1, 1, 1, 0.05].map(s), 'h2 none': [1, 1, 1, 1, 1, 1, 0.05].map(s) }
      const [v] = verdictsOf('push', fabricate('push', times, { outcome: 'refused by the browser' }))
      assert.equal(v.status, 'not measured')
      assert.match(v.detail, /Regular 2G, h2: not measured \(push refused by the browser \(Chrome sends SETTINGS_ENABLE_PUSH=0\)/)
    })

    it('pushed (a browser that still accepts it): reproduced when push is slower throttled and faster unthrottled', () => {
      const rows = fabricate('push', { 'h2 push': [2, 2, 2, 2, 2, 2, 0.02].map(s), 'h2 none': [1, 1, 1, 1, 1, 1, 0.06].map(s) }, { outcome: 'pushed (promised=1)' })
      assert.equal(verdictsOf('push', rows)[0].status, 'reproduced')
    })
  })

  it('push-protocol rests on the cells without a server delay (the source had none): a push delay-bound elsewhere does not count', () => {
    const rows = fabricate('push-protocol', { 'h2 push': [0.005, 0.015, 0.035, 0.105].map(s), 'h2 request': [0.01, 0.03, 0.07, 0.21].map(s) })
    const [v] = verdictsOf('push-protocol', rows)
    assert.equal(v.status, 'reproduced')
    assert.match(v.detail, /^push takes 0\.50× request's time \(median over 1 cell\)/)
    const flatAtZero = fabricate('push-protocol', { 'h2 push': [0.01, 0.015, 0.035, 0.105].map(s), 'h2 request': [0.01, 0.03, 0.07, 0.21].map(s) })
    assert.equal(verdictsOf('push-protocol', flatAtZero)[0].status, 'not reproduced')
  })

  it('ratios: per cell lane median / h1 median, push / request; none for the baseline itself or without samples', () => {
    const rows = fabricate('delay', { h1: [s(1), s(1), [], s(1), s(1)], h2: [s(2), s(0.5), s(1), [], s(1)] })
    const h2 = rows.filter(r => r.lane === 'h2')
    assert.deepEqual(h2.map(r => r.ratioToBaseline), [2, 0.5, null, null, 1])
    assert.deepEqual(h2.map(r => r.baseline), ['h1', 'h1', null, null, 'h1'])
    assert.ok(rows.filter(r => r.lane === 'h1').every(r => r.baseline === null && r.ratioToBaseline === null))
    const push = fabricate('push-protocol', { 'h2n push': [s(1), s(1), s(1), s(1)], 'h2n request': [s(3), s(3), s(3), s(3)] })
    assert.deepEqual(push.filter(r => r.mode === 'push').map(r => [r.baseline, r.ratioToBaseline]), Array(4).fill(['h2n request', 0.333]))
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

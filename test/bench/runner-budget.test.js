'use strict'

const assert = require('node:assert/strict')
const { repeatsFor, budgetNote, parseDuration, formatDuration, estimateCellMs, remainingMs } = require('../../bench/cells/budget')
const { expand } = require('../../bench/experiments')
const { kindOf } = require('../../bench/kinds')

describe('runner: time budget', () => {
  it('gives a cell every repeat that fits its budget, at least the first, at most the asked', () => {
    assert.equal(repeatsFor(10, 1000, 120000), 10)
    assert.equal(repeatsFor(10, 30000, 120000), 4)
    assert.equal(repeatsFor(10, 300000, 120000), 1)
    assert.equal(repeatsFor(1, 300000, 120000), 1)
    assert.equal(repeatsFor(10, 0, 120000), 10)
  })

  it('says why a cell got fewer repeats, and nothing when it got them all', () => {
    assert.equal(budgetNote(10, 4, 30000, 120000), '4 of 10 repeats: the first took 30.0 s and the budget is 2 min per cell')
    assert.equal(budgetNote(10, 10, 1000, 120000), null)
  })

  it('reads durations in seconds or minutes', () => {
    assert.equal(parseDuration('90'), 90000)
    assert.equal(parseDuration('90s'), 90000)
    assert.equal(parseDuration('2m'), 120000)
    assert.equal(parseDuration('1.5 min'), 90000)
    for (const bad of ['', 'x', '-1', '0', '2h', '1e3']) assert.equal(parseDuration(bad), null, bad)
    assert.equal(formatDuration(45000), '45 s')
    assert.equal(formatDuration(120000), '2 min')
    assert.equal(formatDuration(150000), '2 min 30 s')
  })

  it('estimates throttled cells from the preset: a Regular 2G cell far outweighs an unthrottled one', () => {
    const [regular2g] = expand(['network'])
    const wifi = expand(['network'])[5]
    const opts = { kind: kindOf('page'), lanes: 3, repeats: 10, budgetMs: 120000 }
    // 30 × 0.1 MB through 32,000 B/s is about 98 s per lane: one repeat only.
    const slow = estimateCellMs(regular2g, opts)
    assert.ok(slow > 250000 && slow < 350000, String(slow))
    assert.ok(estimateCellMs(wifi, opts) < 60000)
    // push-protocol: tiny.
    assert.ok(estimateCellMs(expand(['push-protocol'])[0], { ...opts, kind: kindOf('push-protocol'), lanes: 2 }) < 5000)
  })

  it("takes an experiment's own estimate over its kind's, and its kind's where it has none", () => {
    const [ttfb] = expand(['h3-ttfb'])
    const [page] = expand(['delay'])
    const opts = { lanes: 2, repeats: 1, budgetMs: 120000 }
    const kind = { estimateMs: () => 1234 }
    assert.equal(estimateCellMs(ttfb, { ...opts, kind }), ttfb.experiment.estimateMs(ttfb.cell, { lanes: 2 }))
    assert.equal(estimateCellMs(page, { ...opts, kind }), 1234)
    // A kind that gives none (its experiments give their own): two loads a lane of the cell's assets.
    const pushCell = expand(['push-protocol'])[0]
    assert.equal(estimateCellMs(pushCell, { ...opts, kind: { estimateMs: null } }), estimateCellMs(pushCell, { ...opts, kind: kindOf('push-protocol') }))
  })

  it('scales the remaining estimate by how the finished cells compared with theirs', () => {
    assert.equal(remainingMs({ doneEstimateMs: 0, doneActualMs: 0, leftEstimateMs: 1000 }), 1000)
    assert.equal(remainingMs({ doneEstimateMs: 100, doneActualMs: 200, leftEstimateMs: 1000 }), 2000)
    assert.equal(remainingMs({ doneEstimateMs: 100, doneActualMs: 10000, leftEstimateMs: 1000 }), 4000)
  })
})

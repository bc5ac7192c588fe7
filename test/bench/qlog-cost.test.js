'use strict'

// npm run bench:qlog-cost (bench/qlog-cost/qlog-cost.js): its figures from the pairs it ran.
const assert = require('node:assert/strict')
const { summarise, parseQlogCostArgs } = require('../../bench/qlog-cost/qlog-cost')

describe('npm run bench:qlog-cost: what the edge\'s qlog costs the h3 lane', () => {
  it('reports medians per side and on ÷ off per pair (median and range), not a ratio of medians', () => {
    const run = (totalMs, serverCpuMs, qlogBytes = 0) => ({ totalMs, serverCpuMs, qlogBytes })
    const s = summarise({
      label: 'w',
      pairs: [
        { off: run(100, 50), on: run(110, 60, 1e6) },
        { off: run(200, 100), on: run(220, 130, 2e6) },
        { off: run(300, 150), on: run(300, 150, 3e6) }
      ]
    })
    assert.deepEqual(s, {
      label: 'w',
      pairs: 3,
      timeMs: { off: 200, on: 220 },
      time: { median: 1.1, min: 1, max: 1.1 },
      serverCpuMs: { off: 100, on: 130 },
      serverCpu: { median: 1.2, min: 1, max: 1.3 },
      qlogBytesPerRun: 2e6
    })
  })

  it('takes --repeats 1…50, --smoke alone', () => {
    assert.equal(parseQlogCostArgs([]).repeats, 7)
    assert.equal(parseQlogCostArgs(['--repeats', '3']).repeats, 3)
    assert.deepEqual(parseQlogCostArgs(['--smoke']), { help: false, repeats: 1, smoke: true, json: false })
    assert.throws(() => parseQlogCostArgs(['--repeats', '51']), /--repeats must be a whole number from 1 to 50; got "51"/)
    assert.throws(() => parseQlogCostArgs(['--smoke', '--repeats', '2']), /--smoke runs 1 pair/)
  })
})

'use strict'

// Fabricated result rows for unit tests of the runner's verdicts and
// reports: the shape bench/cells/helpers.js produces, with samples chosen by the test.
const stats = require('../../shared/stats')
const { row } = require('../../bench/cells/helpers')
const { experimentById } = require('../../bench/experiments')
const { withRatios } = require('../../bench/report/runner/conclusions')

// rows(id, { lane (or 'lane mode'): [samples per cell …] }, { asked, notes })
// → rows of experiment `id` with those samples (ms), ratios filled in.
// A cell's samples may be [] (nothing measured) or a number (one sample).
function fabricate (id, byLane, { asked = null, failures = {}, outcome = null, note = null } = {}) {
  const experiment = experimentById(id)
  const out = []
  for (const [key, perCell] of Object.entries(byLane)) {
    const [lane, mode = null] = key.split(' ')
    perCell.forEach((samples, index) => {
      const list = Array.isArray(samples) ? samples : [samples]
      out.push(row({
        entry: { experiment, index, cell: experiment.cells[index] },
        lane,
        mode,
        samples: list,
        failures: (failures[key] || [])[index] || 0,
        protocol: lane === 'h1' ? 'http/1.1' : 'h2',
        asked: asked ?? Math.max(list.length, 1),
        note,
        extra: mode ? { pushOutcome: mode === 'push' ? outcome : 'not asked (mode=none)' } : {}
      }))
    })
  }
  return withRatios(out)
}

// Samples around `median` (±spread), n of them.
function around (median, n = 5, spread = 0.02) {
  return Array.from({ length: n }, (_, i) => median * (1 + spread * (i - (n - 1) / 2) / n))
}

module.exports = { fabricate, around, stats }

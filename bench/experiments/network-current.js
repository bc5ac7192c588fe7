'use strict'

// Not in the source: the network experiment (30 requests of 0.1 MB at 10 ms
// delay) under today's DevTools presets, whose latencies are far higher than
// the 2016 ones (3G: 2 s per request).
const { ratioRange, verdict, fasterStatus, within } = require('../runner/conclusions')

const PRESETS = ['3G', 'Slow 4G', 'Fast 4G']

module.exports = {
  id: 'network-current',
  title: "Today's DevTools network presets (30 × 0.1 MB, 10 ms delay; not in the source)",
  kind: 'page',
  sweep: { param: 'preset', label: 'network preset' },
  cells: PRESETS.map(preset => ({ requests: 30, size: '0.1mb', delay: 10, preset })),
  // 3G holds every request 2 s: the smoke run keeps only the fastest preset.
  smokeCells: cells => cells.filter(c => c.preset === 'Fast 4G').map(c => ({ ...c, requests: 2, size: '1kb' })),
  source: null,
  conclusions: [{
    text: "On poor networks HTTP/2 is faster than HTTP/1.1, with today's presets too (the source's conclusion, asked again)",
    check (rows) {
      const r = ratioRange(rows, 'h1', 'h2')
      if (!r) return verdict('not measured', 'needs lanes h1 and h2')
      return verdict(fasterStatus(r, ['holds', 'partly holds', 'does not hold']),
        `h1 takes ${r.median.toFixed(2)}× h2's time (median over ${r.n} presets; ${r.min.toFixed(2)}–${r.max.toFixed(2)}×)${within(r, 'presets')}`)
    }
  }]
}

'use strict'

// Not in the source: the network experiment (30 requests of 0.1 MB at 10 ms
// delay) under today's DevTools presets, whose latencies are far higher than
// the 2016 ones (3G: 2 s per request).

const PRESETS = ['3G', 'Slow 4G', 'Fast 4G']

module.exports = {
  id: 'network-current',
  title: "Today's DevTools network presets (30 × 0.1 MB, 10 ms delay; not in the source)",
  kind: 'page',
  sweep: { param: 'preset', label: 'network preset' },
  cells: PRESETS.map(preset => ({ requests: 30, size: '0.1mb', delay: 10, preset })),
  // 3G holds every request 2 s: the smoke run keeps only the fastest preset.
  smokeCells: cells => cells.filter(c => c.preset === 'Fast 4G').map(c => ({ ...c, requests: 2, size: '1kb' })),
  source: null
}

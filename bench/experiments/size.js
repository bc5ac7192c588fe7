'use strict'

// Source section 四.3: 30 requests at 10 ms delay, 0.2 … 2.0 MB each.

const SIZES = [0.2, 0.4, 0.6, 0.8, 1.0, 1.2, 1.4, 1.6, 1.8, 2.0]

module.exports = {
  id: 'size',
  title: 'Response size sweep (30 requests, 10 ms delay)',
  kind: 'page',
  sweep: { param: 'sizeMB', label: 'response size (MB)' },
  cells: SIZES.map(mb => ({ requests: 30, size: `${mb}mb`, delay: 10, preset: 'No throttling' })),
  smoke: cell => ({ ...cell, requests: 2, size: `${parseFloat(cell.size) * 10}kb` }),
  source: { unit: 's', x: SIZES, h1: [0.21, 0.37, 0.59, 0.68, 0.68, 0.78, 0.94, 1.02, 1.07, 1.13], h2: [0.25, 0.45, 0.61, 0.83, 0.73, 0.92, 0.86, 1.08, 1.26, 1.33] }
}

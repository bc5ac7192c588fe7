'use strict'

// Source section 四.2, second table: 6 … 3750 requests of 0.1 MB at 30 ms delay.
const { countConclusions } = require('../conclusions')

const COUNTS = [6, 30, 150, 750, 3750]

module.exports = {
  id: 'count-30ms',
  title: 'Request-count sweep at 30 ms delay (0.1 MB each)',
  kind: 'page',
  sweep: { param: 'requests', label: 'requests' },
  cells: COUNTS.map(requests => ({ requests, size: '0.1mb', delay: 30, preset: 'No throttling' })),
  smoke: cell => ({ ...cell, requests: Math.min(cell.requests, 2 + COUNTS.indexOf(cell.requests) * 4), size: '1kb' }),
  source: { unit: 's', x: COUNTS, h1: [0.07, 0.24, 1.32, 5.63, 28.82], h2: [0.07, 0.17, 0.78, 3.81, 18.78] },
  conclusions: countConclusions(30)
}

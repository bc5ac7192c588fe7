'use strict'

// Source section 四.2, first table: 6 … 3750 requests of 0.1 MB at 10 ms delay.
const { countConclusions } = require('../conclusions')

const COUNTS = [6, 30, 150, 750, 3750]

module.exports = {
  id: 'count-10ms',
  title: 'Request-count sweep at 10 ms delay (0.1 MB each)',
  kind: 'page',
  sweep: { param: 'requests', label: 'requests' },
  cells: COUNTS.map(requests => ({ requests, size: '0.1mb', delay: 10, preset: 'No throttling' })),
  smoke: cell => ({ ...cell, requests: Math.min(cell.requests, 2 + COUNTS.indexOf(cell.requests) * 4), size: '1kb' }),
  source: { unit: 's', x: COUNTS, h1: [0.04, 0.16, 0.63, 3.03, 20.72], h2: [0.04, 0.16, 0.71, 3.28, 19.34] },
  conclusions: countConclusions(10)
}

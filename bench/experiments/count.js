'use strict'

// Source section 四.2: 6 … 3750 requests of 0.1 MB, unthrottled, once at
// 10 ms and once at 30 ms server delay (count-10ms.js, count-30ms.js).

const COUNTS = [6, 30, 150, 750, 3750]

// `source`: the published times (s) for h1 and h2, one per count.
function countExperiment ({ delay, source }) {
  return {
    id: `count-${delay}ms`,
    title: `Request-count sweep at ${delay} ms delay (0.1 MB each)`,
    kind: 'page',
    sweep: { param: 'requests', label: 'requests' },
    cells: COUNTS.map(requests => ({ requests, size: '0.1mb', delay, preset: 'No throttling' })),
    smoke: cell => ({ ...cell, requests: Math.min(cell.requests, 2 + COUNTS.indexOf(cell.requests) * 4), size: '1kb' }),
    source: { unit: 's', x: COUNTS, ...source }
  }
}

module.exports = { countExperiment, COUNTS }

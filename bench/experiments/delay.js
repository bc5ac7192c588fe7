'use strict'

// Source section 四.1: 100 requests of 0.1 MB, server delay 0 … 40 ms.

const DELAYS = [0, 10, 20, 30, 40]

module.exports = {
  id: 'delay',
  title: 'Server delay sweep (100 × 0.1 MB)',
  kind: 'page',
  sweep: { param: 'delayMs', label: 'server delay (ms)' },
  cells: DELAYS.map(delay => ({ requests: 100, size: '0.1mb', delay, preset: 'No throttling' })),
  smoke: cell => ({ ...cell, requests: 6, size: '1kb' }),
  source: { unit: 's', x: DELAYS, h1: [0.38, 0.51, 0.62, 0.78, 0.94], h2: [0.48, 0.51, 0.49, 0.48, 0.50] }
}

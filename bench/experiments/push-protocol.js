'use strict'

// Push where it still works: Node's http2.connect() client accepts pushes.
// Page + N scripts by push against page, then N scripts by request, under
// added server delay, on both HTTP/2 lanes (no browser; bench/cells/push-protocol.js).

const DELAYS = [0, 10, 30, 100]

module.exports = {
  id: 'push-protocol',
  title: 'Push vs request at the protocol level (Node http2 client, 6 × 290 KB)',
  kind: 'push-protocol',
  lanes: ['h2', 'h2n'],
  sweep: { param: 'delayMs', label: 'server delay (ms)' },
  cells: DELAYS.map(delay => ({ assets: 6, size: '290kb', delay, preset: 'No throttling' })),
  smoke: cell => ({ ...cell, assets: 2, size: '10kb' }),
  source: null
}

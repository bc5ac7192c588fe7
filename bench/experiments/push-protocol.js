'use strict'

// Push where it still works: Node's http2.connect() client accepts pushes.
// Page + N scripts by push against page, then N scripts by request, under
// added server delay, on both HTTP/2 lanes (no browser; bench/cells/push-protocol.js).
const { verdict, engineVerdict, verdictCounts, statusOf } = require('../runner/conclusions')
const stats = require('../../client/js/stats')

const DELAYS = [0, 10, 30, 100]

module.exports = {
  id: 'push-protocol',
  title: 'Push vs request at the protocol level (Node http2 client, 6 × 290 KB)',
  kind: 'push-protocol',
  lanes: ['h2', 'h2n'],
  sweep: { param: 'delayMs', label: 'server delay (ms)' },
  cells: DELAYS.map(delay => ({ assets: 6, size: '290kb', delay, preset: 'No throttling' })),
  smoke: cell => ({ ...cell, assets: 2, size: '10kb' }),
  source: null,
  conclusions: [{
    text: 'Without DevTools in the way, push is faster than request (source, unthrottled: 18 ms vs 56 ms)',
    check (rows) {
      const ratios = []
      const verdicts = [] // by the verdict engine: push against request, per lane and delay
      for (const p of rows.filter(r => r.mode === 'push' && r.samples.length)) {
        const q = rows.find(r => r.mode === 'request' && r.lane === p.lane && r.cell === p.cell && r.samples.length)
        if (q && p.median > 0) {
          ratios.push(q.median / p.median)
          verdicts.push(engineVerdict(q, p))
        }
      }
      if (!ratios.length) return verdict('not measured', 'no push/request pairs')
      const m = stats.median(ratios)
      const status = statusOf(verdicts)
      return verdict(status,
        `request takes ${m.toFixed(2)}× push's time (median over lanes and delays; ${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)}×); by the verdict engine push is ${verdictCounts(verdicts, 'lanes and delays')}`)
    }
  }]
}

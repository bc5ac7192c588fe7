'use strict'

// Source section 四.1: 100 requests of 0.1 MB, server delay 0 … 40 ms.
const { growth, verdict, at, engineVerdict } = require('../runner/conclusions')

const DELAYS = [0, 10, 20, 30, 40]

module.exports = {
  id: 'delay',
  title: 'Server delay sweep (100 × 0.1 MB)',
  kind: 'page',
  sweep: { param: 'delayMs', label: 'server delay (ms)' },
  cells: DELAYS.map(delay => ({ requests: 100, size: '0.1mb', delay, preset: 'No throttling' })),
  smoke: cell => ({ ...cell, requests: 6, size: '1kb' }),
  source: { unit: 's', x: DELAYS, h1: [0.38, 0.51, 0.62, 0.78, 0.94], h2: [0.48, 0.51, 0.49, 0.48, 0.50] },
  conclusions: [{
    text: 'HTTP/1.1 time grows with server delay while HTTP/2 stays flat (100 requests)',
    check (rows) {
      const h1 = growth(rows, 'h1', 'delayMs', 0, 40)
      const h2 = growth(rows, 'h2', 'delayMs', 0, 40)
      if (!h1 || !h2) return verdict('not measured', 'needs lanes h1 and h2 at delays 0 and 40')
      // By the verdict engine: h1 at 0 ms against h1 at 40 ms ('faster': it grew), and h2 the same way.
      const grew = lane => engineVerdict(at(rows, lane, 'delayMs', 40), at(rows, lane, 'delayMs', 0))
      const h1v = grew('h1')
      const h2v = grew('h2')
      const status = h1v === 'not measured' ? 'not measured' : h1v === 'faster' && h2 < h1 * 0.8 ? 'reproduced' : 'not reproduced'
      const extra = growth(rows, 'h2n', 'delayMs', 0, 40) ? `; h2n ×${growth(rows, 'h2n', 'delayMs', 0, 40).toFixed(2)}` : ''
      const said = { faster: 'grew', slower: 'shrank', 'no difference': 'no difference', inconclusive: 'inconclusive', 'not measured': 'not measured' }
      return verdict(status, `h1 ×${h1.toFixed(2)} from 0 to 40 ms, h2 ×${h2.toFixed(2)}${extra}; by the verdict engine h1 ${said[h1v]}, h2 ${said[h2v]}`)
    }
  }]
}

'use strict'

// Source section 四.4: 30 requests of 0.1 MB at 10 ms delay under the 2016
// DevTools presets.
const { ratioRange, verdict, fasterStatus, within } = require('../runner/conclusions')

const PRESETS = ['Regular 2G', 'Good 2G', 'Regular 3G', 'Good 3G', 'Regular 4G', 'WiFi']

module.exports = {
  id: 'network',
  title: 'DevTools network presets, 2016 set (30 × 0.1 MB, 10 ms delay)',
  kind: 'page',
  sweep: { param: 'preset', label: 'network preset' },
  cells: PRESETS.map(preset => ({ requests: 30, size: '0.1mb', delay: 10, preset })),
  smoke: cell => ({ ...cell, requests: 2, size: '1kb' }),
  source: { unit: 's', x: PRESETS, h1: [222.66, 116.64, 67.37, 32.82, 11.89, 0.87], h2: [138.06, 71.02, 40.77, 20.82, 7.70, 0.94] },
  conclusions: [{
    text: 'On poor networks (DevTools presets) HTTP/2 is faster than HTTP/1.1',
    check (rows) {
      const slow = rows.filter(r => r.preset !== 'WiFi')
      const r = ratioRange(slow, 'h1', 'h2')
      if (!r) return verdict('not measured', 'needs lanes h1 and h2 under the 2G-4G presets')
      const h2n = ratioRange(slow, 'h1', 'h2n')
      const status = fasterStatus(r, ['reproduced', 'partly reproduced', 'not reproduced'])
      return verdict(status,
        `h1 takes ${r.median.toFixed(2)}× h2's time (median over the 2G–4G presets; ${r.min.toFixed(2)}–${r.max.toFixed(2)}×; source 1.54–1.65×)${within(r, 'presets')}` +
        (h2n ? `; h2n: ${h2n.median.toFixed(2)}×` : '') +
        (status !== 'not measured' && !r.verdicts.faster ? '. Under request-level throttling the 3 MB through the one shared pipe dominate; the ⌈30/6⌉ latencies HTTP/1.1 pays add little' : ''))
    }
  }]
}

'use strict'

// Source section 四.4: 30 requests of 0.1 MB at 10 ms delay under the 2016
// DevTools presets.

const PRESETS = ['Regular 2G', 'Good 2G', 'Regular 3G', 'Good 3G', 'Regular 4G', 'WiFi']

module.exports = {
  id: 'network',
  title: 'DevTools network presets, 2016 set (30 × 0.1 MB, 10 ms delay)',
  kind: 'page',
  sweep: { param: 'preset', label: 'network preset' },
  cells: PRESETS.map(preset => ({ requests: 30, size: '0.1mb', delay: 10, preset })),
  smoke: cell => ({ ...cell, requests: 2, size: '1kb' }),
  source: { unit: 's', x: PRESETS, h1: [222.66, 116.64, 67.37, 32.82, 11.89, 0.87], h2: [138.06, 71.02, 40.77, 20.82, 7.70, 0.94] }
}

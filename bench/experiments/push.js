'use strict'

// Source section 五: one 290 KB script pushed with its page vs requested by
// it, under the 2016 presets and unthrottled. In today's Chrome push is
// refused (SETTINGS_ENABLE_PUSH=0): the result says so instead of timing a
// push that did not happen; push-protocol measures push where it works.

const PRESETS = ['Regular 2G', 'Good 2G', 'Regular 3G', 'Good 3G', 'Regular 4G', 'WiFi', 'No throttling']

module.exports = {
  id: 'push',
  title: 'Push vs request of a 290 KB script in Chrome (page load)',
  kind: 'push-page',
  lanes: ['h2', 'h2n'],
  modes: ['push', 'none'],
  sweep: { param: 'preset', label: 'network preset' },
  cells: PRESETS.map(preset => ({ assets: 1, size: '290kb', preset })),
  smoke: cell => ({ ...cell, size: '10kb' }),
  source: { unit: 's', x: PRESETS, series: { 'request (total)': [9.59, 5.30, 3.21, 1.57, 0.63, 0.12, 0.056], 'push (total)': [18.83, 10.46, 6.31, 3.09, 1.19, 0.20, 0.018] } }
}

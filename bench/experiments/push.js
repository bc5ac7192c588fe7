'use strict'

// Source section 五: one 290 KB script pushed with its page vs requested by
// it, under the 2016 presets and unthrottled. In today's Chrome push is
// refused (SETTINGS_ENABLE_PUSH=0): the result says so instead of timing a
// push that did not happen; push-protocol measures push where it works.
const { verdict, ratioRange, statusOf, verdictCounts } = require('../runner/conclusions')

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
  source: { unit: 's', x: PRESETS, series: { 'request (total)': [9.59, 5.30, 3.21, 1.57, 0.63, 0.12, 0.056], 'push (total)': [18.83, 10.46, 6.31, 3.09, 1.19, 0.20, 0.018] } },
  conclusions: [{
    text: 'Server push looks slower under DevTools throttling but much faster unthrottled',
    check (rows) {
      const pushed = rows.filter(r => r.mode === 'push' && r.samples.length)
      if (!pushed.length) return verdict('not measured', 'no push loads completed')
      // push time / request time per lane and preset, throttled and not.
      const ratios = throttledToo => ['h2', 'h2n'].map(lane => ratioRange(rows.filter(r => (r.preset !== 'No throttling') === throttledToo), lane, lane, { modeA: 'push', modeB: 'none' })).filter(Boolean)
      const span = list => list.length ? `${Math.min(...list.map(r => r.min)).toFixed(2)}–${Math.max(...list.map(r => r.max)).toFixed(2)}×` : 'not measured'
      const figures = `push/request time ${span(ratios(true))} under the presets, ${span(ratios(false))} unthrottled (source 1.67–1.97× and 0.32×)`
      if (pushed.every(r => r.pushOutcome === 'refused by the browser')) {
        return verdict('cannot be reproduced in this browser',
          `push was refused by the browser (Chrome sends SETTINGS_ENABLE_PUSH=0), so both modes loaded the script by request: ${figures}; push-protocol measures push with a client that accepts it`)
      }
      // By the verdict engine per lane and preset: request against push ('faster': request is, so push is slower).
      const list = throttledToo => ratios(throttledToo).flatMap(r => Object.entries(r.verdicts).flatMap(([k, n]) => Array(n).fill(k)))
      const slower = statusOf(list(true), ['all', 'some', 'none'], 'faster')
      const faster = statusOf(list(false), ['all', 'some', 'none'], 'slower')
      const status = slower === 'not measured' || faster === 'not measured' ? 'not measured'
        : slower === 'all' && faster === 'all' ? 'reproduced' : slower !== 'none' || faster !== 'none' ? 'partly reproduced' : 'not reproduced'
      return verdict(status, `${figures}; by the verdict engine request against push is ${verdictCounts(list(true), 'throttled lanes and presets')} (faster: push slower), ` +
        `${verdictCounts(list(false), 'unthrottled lanes')} (slower: push faster); push outcomes: ${[...new Set(pushed.map(r => r.pushOutcome))].join(', ')}`)
    }
  }]
}

'use strict'

// The source's push table (section 五: one 290 KB script, pushed with its page
// or requested by it, under the 2016 presets and unthrottled), answered
// without the DevTools artefact: the presets as a packet-level link, and a
// client that accepts push (Node's http2, in the link's namespace), since
// browsers refuse push today. Push saves the round trip of the request; under
// DevTools, where the pushed bytes were throttled twice over, it seemed to
// double the time instead.
const { verdict, engineVerdict, verdictCounts, statusOf } = require('../runner/conclusions')
const stats = require('../../client/js/stats')
const push = require('./push')

module.exports = {
  id: 'push-link',
  title: 'Push vs request of a 290 KB script through the packet-level link (Node http2 client)',
  kind: 'push-protocol',
  lanes: ['h2', 'h2n'],
  networks: ['link'],
  sweep: { param: 'preset', label: 'link preset' },
  cells: push.cells.map(cell => ({ ...cell, delay: 0 })),
  smokeCells: cells => cells.filter(c => ['Regular 4G', 'No throttling'].includes(c.preset)).map(c => ({ ...c, size: '10kb' })),
  source: push.source,
  conclusions: [{
    text: 'Server push looks slower under DevTools throttling but much faster unthrottled',
    check (rows) {
      const ratios = []
      for (const p of rows.filter(r => r.mode === 'push' && r.samples.length && r.failures === 0)) {
        const q = rows.find(r => r.mode === 'request' && r.lane === p.lane && r.cell === p.cell && r.samples.length && r.failures === 0)
        if (q && q.median > 0) ratios.push({ preset: p.preset, ratio: p.median / q.median, verdict: engineVerdict(q, p) })
      }
      if (!ratios.length) return verdict('not measured', 'no push/request pairs through the link')
      const throttledRows = ratios.filter(r => r.preset !== 'No throttling')
      const throttled = throttledRows.map(r => r.ratio)
      const m = throttled.length ? stats.median(throttled) : null
      // By the verdict engine on the throttled presets: reproduced where push is slower than request, not where it is faster.
      const vs = throttledRows.map(r => r.verdict)
      const status = statusOf(vs, undefined, 'slower')
      return verdict(status,
        `push/request time ${m === null ? '–' : `${m.toFixed(2)}×`} through the link (median over the presets; by the verdict engine push is ${verdictCounts(vs, 'throttled presets and lanes')}; ` +
        `${Math.min(...ratios.map(r => r.ratio)).toFixed(2)}–${Math.max(...ratios.map(r => r.ratio)).toFixed(2)}×; source under DevTools 1.67–1.97×): ` +
        'with real packets push saves the request\'s round trip; the source\'s slower push was DevTools throttling the pushed bytes')
    }
  }]
}

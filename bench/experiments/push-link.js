'use strict'

// The source's push table (section 五: one 290 KB script, pushed with its page
// or requested by it, under the 2016 presets and unthrottled), answered
// without the DevTools artefact: the presets as a packet-level link, and a
// client that accepts push (Node's http2, in the link's namespace), since
// browsers refuse push today. Push saves the round trip of the request; under
// DevTools, where the pushed bytes were throttled twice over, it seemed to
// double the time instead.
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
  source: push.source
}

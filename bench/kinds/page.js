'use strict'

// Kind `page` (experiments delay, count, size, network, network-current): the h2bench page's
// window.h2bench.run, the Run button's code path, one batch a lane a repeat (bench/cells/page.js).
// The cell runner loads when a cell runs, not when a report reads a bound (it brings the browser drivers).
const cells = () => require('../cells/page')
const { presetCost } = require('../cells/budget')
const { inSharedEnv } = require('./shared-env')
const { boundFrom, wireOf, isH1, BROWSER_CONNECTIONS } = require('./bound-form')

// The page's batch of n requests of `size` bytes: HTTP/1.1 in rounds of the browser's six
// connections, HTTP/2 and HTTP/3 in one. The page warms up min(n, 6) connections first, so no
// handshake is in the bound. hol's batch is the same (bench/kinds/hol.js).
function batchBound (row) {
  const n = row.params.requests
  const wire = wireOf(row)
  const size = row.params.sizeBytes || 0
  const rounds = isH1(row) ? Math.ceil(n / BROWSER_CONNECTIONS) : 1
  return boundFrom(row, { rounds, bytes: n * wire(size), perConnection: rounds * wire(size) })
}

module.exports = {
  kind: 'page',
  needs: {
    browser: true,
    ownServers: false,
    ownBrowser: false,
    // Firefox (no CDP: no DevTools throttling) runs the page's batches behind the link only.
    browsers: network => network === 'link' ? ['chromium', 'firefox'] : ['chromium']
  },
  run: ctx => inSharedEnv(ctx, cells().runPageCell),
  // Per lane: the requests' bytes through the preset, and a round of its latency and the server's delay per six requests.
  estimateMs ({ cell }, { lanes, bytesPerMs }) {
    const { latencyMs, transferMs, size, delayMs } = presetCost(cell, bytesPerMs)
    const rounds = Math.ceil(cell.requests / 6)
    return lanes * (transferMs(cell.requests * size) + rounds * (latencyMs + delayMs) + 30)
  },
  bound: batchBound
}

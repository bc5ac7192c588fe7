'use strict'

// Seed 001 (Evert Pot, "Are HTTP/2's many small requests as fast as one
// compound document?"): a REST collection of 25 and of 500 items, visited
// in the browser as separate requests, as one compound document, with 90 %
// of the items fresh in the cache, with 90 % cached but revalidated (304),
// and with Prefer-Push. The page's own requests (window.h2bench.rest,
// client/js/rest.js), in Chromium and Firefox, on every lane; push also at
// the protocol level (Node's http2 client accepts it, browsers do not).
//
// The link: the source ran from an AWS instance over the internet, path not
// published. Its Chrome medians put one round trip near 100-140 ms (the
// compound document, one request, 0.147 s; separate requests over HTTP/2,
// two round trips, 0.276 s), so the link is the one the HTTP/3 study uses:
// rtt=100ms, 20 Mbit/s down, 5 up, a queue of one bandwidth-delay product
// (bench/experiments/h3-common.js). The source's server also added 40-80 ms
// per response in its first round; here the server adds none (delay 0).
const { LINK, RTT_MS } = require('./h3-common')

const ITEM_BYTES = 512

const browserOf = r => r.browser || 'chromium'

const CELLS = [25, 500].map(n => ({ requests: n, size: String(ITEM_BYTES), delay: 0, link: LINK, preset: `${n} items` }))

module.exports = {
  id: 'rest',
  title: 'REST: many small requests vs one compound document, with cache and push, in Chromium and Firefox (Evert Pot, seed 001)',
  kind: 'rest',
  lanes: ['h1', 'h2', 'h2n', 'h2e', 'h3'],
  networks: ['link'],
  browsers: ['chromium', 'firefox'],
  sweep: { param: 'requests', label: 'items in the collection' },
  cells: CELLS,
  smokeCells: () => [{ requests: 10, size: String(ITEM_BYTES), delay: 0, link: 'rtt=20ms', preset: '10 items' }],
  // Per repeat and lane: five visits; separate ones on h1 take a round trip per six items.
  estimateMs: (cell, { lanes }) => lanes * 5 * (6 * RTT_MS + cell.requests * 2) + 3 * Math.ceil(cell.requests / 6) * RTT_MS * 2,
  // The main table and chart: the source's own lanes (h1 and h2), every scenario; the tables below have every lane.
  mainRows: rows => rows.filter(r => ['h1', 'h2'].includes(r.lane) && browserOf(r) !== 'node:http2'),
  source: null,
  itemBytes: ITEM_BYTES
}

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
const { sourceName } = require('../cells/rest')

const ITEM_BYTES = 512
// The source's order of its scenarios at 25 items, in its words (seed 001, "测试1:25个请求": compound "显然是速度最快的",
// push and cache "只有略微提升", h2 separate "第二个最慢的", h1 separate the slowest). Its 25-item Chrome medians are in
// charts the seed's text does not carry, so no figure of them is quoted here.
const SOURCE_ORDER_25 = 'the compound documents fastest; then push and the cache, a slight gain; h2 separate requests second slowest; h1 separate requests slowest (its words; no times in the seed\'s text)'
const BROWSER_NAMES = { chromium: 'Chromium', firefox: 'Firefox', 'node:http2': 'Node http2' }

const ok = r => r && r.samples.length > 0 && r.median !== null
const browserOf = r => r.browser || 'chromium'
const find = (rows, { browser, cell, lane, mode }) => rows.find(r => browserOf(r) === browser && r.cell === cell && r.lane === lane && r.mode === mode && ok(r))
const x = v => v === null ? '–' : `${v.toFixed(2)}×`
const s = ms => (ms / 1000).toFixed(3)
const itemsOf = rows => cell => (rows.find(r => r.cell === cell) || { params: {} }).params.requests
const browsersIn = rows => ['chromium', 'firefox'].filter(b => rows.some(r => browserOf(r) === b))
const cellsIn = rows => [...new Set(rows.map(r => r.cell))].sort((a, b) => a - b)

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
  extraTables (rows) {
    const items = itemsOf(rows)
    const tables = []
    const counts = r => r.rest ? `${r.rest.network} / ${r.rest.cache} / ${r.rest.revalidated}` : '–'
    const conns = r => r.rest && r.rest.connections !== null && r.rest.connections !== undefined ? String(r.rest.connections) : '–'
    for (const c of cellsIn(rows)) {
      for (const b of [...browsersIn(rows), 'node:http2']) {
        const mine = rows.filter(r => browserOf(r) === b && r.cell === c)
        if (!mine.length) continue
        const version = (mine.find(r => r.browserVersion) || {}).browserVersion || ''
        const body = mine.map(r => {
          const comp = find(rows, { browser: b, cell: c, lane: r.lane, mode: 'compound' })
          const name = r.rest ? r.rest.scenario : sourceName(r.lane, r.mode)
          const timed = r.rest ? `${r.samples.length} / ${r.rest.visits}` : String(r.samples.length)
          return [r.lane, name, ok(r) ? `${s(r.median)} (${s(r.q1)}–${s(r.q3)})` : r.failures ? `failed (${r.failures})` : 'not timed', timed,
            counts(r), conns(r), r.protocol || '–', comp && ok(r) && r.mode !== 'compound' ? x(r.median / comp.median) : '–', r.note || '']
        })
        tables.push({
          title: `${items(c)} items of ${ITEM_BYTES} B, ${BROWSER_NAMES[b]}${version ? ` (${version})` : ''}: medians (s, quartiles), visits timed / made, requests per visit to the network / from the cache / answered 304 (medians; 304s counted by the server), connections the server saw them on (its ledger; a cache visit's earlier visit included), time ÷ the same lane's compound document`,
          head: ['lane', 'scenario', 'median (s)', 'visits timed', 'network / cache / 304', 'connections', 'protocol', '÷ compound', 'note'],
          body
        })
      }
    }
    // The order of the source's seven scenarios (h1 and h2 lanes), fastest first, as found and as the source had it.
    const SEVEN = [['h1', 'separate'], ['h1', 'compound'], ['h2', 'separate'], ['h2', 'compound'], ['h2', 'cache'], ['h2', 'cache-stale'], ['h2', 'push']]
    const order = []
    for (const c of cellsIn(rows)) {
      for (const b of browsersIn(rows)) {
        const found = SEVEN.map(([lane, mode]) => find(rows, { browser: b, cell: c, lane, mode })).filter(Boolean).sort((p, q) => p.median - q.median)
        if (found.length) order.push([`${items(c)} items`, BROWSER_NAMES[b], found.map(r => `${sourceName(r.lane, r.mode)} ${s(r.median)}`).join(' < ')])
      }
    }
    order.push(['25 items', 'source (Chrome)', SOURCE_ORDER_25])
    tables.push({ title: 'The seven scenarios of the source (lanes h1 and h2), fastest first', head: ['collection', 'browser', 'order (median s)'], body: order })
    return tables
  }
}

'use strict'

// rest's tables (bench/experiments/rest.js): every lane per collection and browser, and the source's seven scenarios in order.
const { itemBytes: ITEM_BYTES } = require('../../experiments/rest')
const { sourceName } = require('../../cells/rest')

const browserOf = r => r.browser || 'chromium'
// The source's order of its scenarios at 25 items, in its words (seed 001, "测试1:25个请求": compound "显然是速度最快的",
// push and cache "只有略微提升", h2 separate "第二个最慢的", h1 separate the slowest). Its 25-item Chrome medians are in
// charts the seed's text does not carry, so no figure of them is quoted here.
const SOURCE_ORDER_25 = 'the compound documents fastest; then push and the cache, a slight gain; h2 separate requests second slowest; h1 separate requests slowest (its words; no times in the seed\'s text)'
const BROWSER_NAMES = { chromium: 'Chromium', firefox: 'Firefox', 'node:http2': 'Node http2' }
const find = (rows, { browser, cell, lane, mode }) => rows.find(r => browserOf(r) === browser && r.cell === cell && r.lane === lane && r.mode === mode && ok(r))
const x = v => v === null ? '–' : `${v.toFixed(2)}×`
const s = ms => (ms / 1000).toFixed(3)
const itemsOf = rows => cell => (rows.find(r => r.cell === cell) || { params: {} }).params.requests
const browsersIn = rows => ['chromium', 'firefox'].filter(b => rows.some(r => browserOf(r) === b))
const cellsIn = rows => [...new Set(rows.map(r => r.cell))].sort((a, b) => a - b)
const ok = r => r && r.samples.length > 0 && r.median !== null

// The rest experiment's tables under its main one (bench/report/runner/report-sections.js): [{ title, head, body }].
module.exports = function tables (rows) {
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

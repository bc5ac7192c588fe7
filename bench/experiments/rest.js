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
const { verdict, engineVerdict, verdictCounts, statusOf, tooFewMeasured } = require('../runner/conclusions')
const { LINK, RTT_MS } = require('./h3-common')
const { sourceName } = require('../cells/rest')

const ITEM_BYTES = 512
// The source's Chrome medians for 25 items (s), by its scenario names.
const SOURCE_25 = { h1: 0.490, 'h1-compound': 0.147, h2: 0.276, 'h2-compound': 0.147, 'h2-cache': 0.221, 'h2-cache-stale': 0.243, 'h2-push': 0.215 }
// For 500 items it gave ratios: separate ÷ compound, and 501 requests ÷ the 51 of a warm cache.
const SOURCE_500 = { compound: { chromium: 3.26, firefox: 1.8 }, cache: { chromium: 2.3, firefox: 1.2 } }
const BROWSER_NAMES = { chromium: 'Chromium', firefox: 'Firefox', 'node:http2': 'Node http2' }

const ok = r => r && r.samples.length > 0 && r.median !== null
// The link's round trip (ms) from the row's spec, or null.
const rttOf = r => { const m = /rtt=(\d+(?:\.\d+)?)ms/.exec(r.linkSpec || ''); return m ? Number(m[1]) : null }
const browserOf = r => r.browser || 'chromium'
const find = (rows, { browser, cell, lane, mode }) => rows.find(r => browserOf(r) === browser && r.cell === cell && r.lane === lane && r.mode === mode && ok(r))
const ratio = (a, b) => a && b && b.median > 0 ? a.median / b.median : null
const x = v => v === null ? '–' : `${v.toFixed(2)}×`
const s = ms => (ms / 1000).toFixed(3)
const itemsOf = rows => cell => (rows.find(r => r.cell === cell) || { params: {} }).params.requests
const browsersIn = rows => ['chromium', 'firefox'].filter(b => rows.some(r => browserOf(r) === b))
const cellsIn = rows => [...new Set(rows.map(r => r.cell))].sort((a, b) => a - b)

// "Chromium: 25 items 1.91×, 500 items 4.10×; Firefox: …" for ratio f(browser, cell).
function perBrowser (rows, f, suffix = () => '') {
  const items = itemsOf(rows)
  return browsersIn(rows).map(b => `${BROWSER_NAMES[b]}: ${cellsIn(rows).map(c => `${items(c)} items ${x(f(b, c))}${suffix(b, c)}`).join(', ')}`).join('; ')
}

function allRatios (rows, f) {
  return browsersIn(rows).flatMap(b => cellsIn(rows).map(c => f(b, c))).filter(v => v !== null)
}

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
  source: {
    unit: 's',
    x: [25, 500],
    series: Object.fromEntries(Object.entries(SOURCE_25).map(([k, v]) => [`Chrome ${k}`, [v, null]]))
  },
  conclusions: [{
    text: 'One compound document is the fastest way to get the collection (Chrome, 25 items: 0.147 s against 0.276 s for separate requests over HTTP/2; 500 items: 3.26× faster in Chrome, 1.8× in Firefox)',
    check (rows) {
      const f = (b, c) => ratio(find(rows, { browser: b, cell: c, lane: 'h2', mode: 'separate' }), find(rows, { browser: b, cell: c, lane: 'h2', mode: 'compound' }))
      const list = allRatios(rows, f)
      if (!list.length) return verdict('not measured', 'needs the h2 lane\'s separate and compound visits')
      // Fastest: below every other scenario on the same lane, browser and cell.
      // By the verdict engine: compound against every other scenario of the same lane, browser and size.
      const beaten = []
      const unclear = []
      const verdicts = []
      for (const b of browsersIn(rows)) {
        for (const c of cellsIn(rows)) {
          for (const lane of ['h1', 'h2', 'h2n', 'h2e', 'h3']) {
            const comp = find(rows, { browser: b, cell: c, lane, mode: 'compound' })
            if (!comp) continue
            for (const other of rows.filter(r => browserOf(r) === b && r.cell === c && r.lane === lane && r.mode !== 'compound' && ok(r))) {
              const v = engineVerdict(other, comp) // 'faster': compound is
              verdicts.push(v)
              const what = `${BROWSER_NAMES[b]} ${itemsOf(rows)(c)} items ${lane} ${other.mode} ${s(other.median)} s, compound ${s(comp.median)} s`
              if (v === 'slower') beaten.push(what)
              else if (v !== 'faster') unclear.push(`${what} (${v})`)
            }
          }
        }
      }
      if (verdicts.length && verdicts.every(v => v === 'not measured')) return verdict('not measured', `fewer than 5 good visits a side in every comparison: ${verdictCounts(verdicts, 'comparisons')}`)
      const status = beaten.length || unclear.length ? 'partly reproduced' : 'reproduced'
      return verdict(status, `separate requests ÷ compound on h2: ${perBrowser(rows, f, (b, c) => itemsOf(rows)(c) === 500 && SOURCE_500.compound[b] ? ` (source ${SOURCE_500.compound[b]}×)` : '')}` +
        `; by the verdict engine compound is ${verdictCounts(verdicts, 'comparisons with another scenario')}` +
        (beaten.length ? `; compound was slower in: ${beaten.slice(0, 4).join('; ')}` : '') +
        (unclear.length ? `; not clearly faster in: ${unclear.slice(0, 4).join('; ')}${unclear.length > 4 ? `; and ${unclear.length - 4} more` : ''}` : '') +
        (!beaten.length && !unclear.length ? '; compound was the fastest scenario on every lane, size and browser' : ''))
    }
  }, {
    text: 'Over HTTP/2 separate requests cost less than over HTTP/1.1 (Chrome, 25 items: 0.276 s against 0.490 s)',
    check (rows) {
      const f = (b, c) => ratio(find(rows, { browser: b, cell: c, lane: 'h2', mode: 'separate' }), find(rows, { browser: b, cell: c, lane: 'h1', mode: 'separate' }))
      const list = allRatios(rows, f)
      if (!list.length) return verdict('not measured', 'needs the h1 and h2 lanes\' separate visits')
      const verdicts = browsersIn(rows).flatMap(b => cellsIn(rows).map(c => engineVerdict(find(rows, { browser: b, cell: c, lane: 'h1', mode: 'separate' }), find(rows, { browser: b, cell: c, lane: 'h2', mode: 'separate' })))).filter(Boolean)
      const status = statusOf(verdicts)
      return verdict(status, `h2 ÷ h1, separate requests: ${perBrowser(rows, f)} (source 0.56× at 25 items in Chrome); by the verdict engine h2 is ${verdictCounts(verdicts, 'browsers and sizes')}`)
    }
  }, {
    text: 'The cache helps little: 90 % of the items fresh in the cache saves 20 % at 25 items (0.221 s against 0.276 s); at 500 items 501 requests took 2.3× as long as the 51 of a warm cache in Chrome, 1.2× in Firefox',
    check (rows) {
      const f = (b, c) => ratio(find(rows, { browser: b, cell: c, lane: 'h2', mode: 'separate' }), find(rows, { browser: b, cell: c, lane: 'h2', mode: 'cache' }))
      const cacheRows = rows.filter(r => r.mode === 'cache')
      const unproven = cacheRows.filter(r => r.rest && r.rest.unproven)
      const list = allRatios(rows, f)
      if (!list.length) {
        return verdict('not measured', unproven.length ? `the cache hits were not proven (${unproven.map(r => `${r.lane} ${browserOf(r)}: ${r.rest.unproven} visits`).join(', ')}), so no cache visit was timed` : 'needs the h2 lane\'s separate and cache visits')
      }
      const small = browsersIn(rows).map(b => f(b, cellsIn(rows)[0])).filter(v => v !== null)
      const little = small.every(v => v < 1.5)
      // By the verdict engine: does the cache help at all (the cache visit faster than separate requests)?
      const verdicts = browsersIn(rows).flatMap(b => cellsIn(rows).map(c => engineVerdict(find(rows, { browser: b, cell: c, lane: 'h2', mode: 'separate' }), find(rows, { browser: b, cell: c, lane: 'h2', mode: 'cache' })))).filter(Boolean)
      const tooFew = tooFewMeasured(verdicts)
      const hits = cacheRows.filter(r => r.lane === 'h2' && r.rest).map(r => `${BROWSER_NAMES[browserOf(r)]} ${r.params.requests} items: ${r.rest.cache} from the cache, ${r.rest.network} to the network`).join('; ')
      // Why: while one item is missing, a visit still needs the collection and then a second round trip.
      const trips = rows.filter(r => r.mode === 'cache' && r.lane === 'h2' && ok(r) && rttOf(r)).map(r => `${BROWSER_NAMES[browserOf(r)]} ${r.params.requests} items ${(r.median / rttOf(r)).toFixed(1)}`)
      return verdict(tooFew ? 'not measured' : little ? 'reproduced' : 'not reproduced',
        `h2 separate ÷ h2 cache: ${perBrowser(rows, f, (b, c) => itemsOf(rows)(c) === 500 && SOURCE_500.cache[b] ? ` (source ${SOURCE_500.cache[b]}×)` : '')} (source at 25 items 1.25×); ` +
        `by the verdict engine the cache visit is ${verdictCounts(verdicts, 'browsers and sizes')}; ` +
        (trips.length ? `a cache visit over HTTP/2 still takes the collection's round trip and then one for the items not cached (medians in round trips: ${trips.join(', ')}): the cache saves bytes and requests, not round trips; ` : '') +
        `cache hits proven per visit by Resource Timing (transferSize 0 with a body) and the server's count: ${hits}` +
        (unproven.length ? `; visits without their cache hits, not timed: ${unproven.map(r => `${r.lane} ${browserOf(r)} ${r.rest.unproven}`).join(', ')}` : ''))
    }
  }, {
    text: 'Revalidating the cached items (304) helps less than a fresh cache, but still helps (Chrome, 25 items: 0.243 s against 0.221 s fresh and 0.276 s without)',
    check (rows) {
      const stale = (b, c) => ratio(find(rows, { browser: b, cell: c, lane: 'h2', mode: 'cache-stale' }), find(rows, { browser: b, cell: c, lane: 'h2', mode: 'separate' }))
      const vsFresh = (b, c) => ratio(find(rows, { browser: b, cell: c, lane: 'h2', mode: 'cache-stale' }), find(rows, { browser: b, cell: c, lane: 'h2', mode: 'cache' }))
      const list = allRatios(rows, stale)
      if (!list.length) return verdict('not measured', 'needs the h2 lane\'s separate and cache-stale visits')
      // By the verdict engine: cache-stale faster than separate requests (it helps), fresh cache faster than cache-stale (less).
      const pairs = browsersIn(rows).flatMap(b => cellsIn(rows).map(c => ({ b, c })))
      const at = (p, mode) => find(rows, { browser: p.b, cell: p.c, lane: 'h2', mode })
      const helpsV = pairs.map(p => engineVerdict(at(p, 'separate'), at(p, 'cache-stale'))).filter(Boolean)
      const lessV = pairs.map(p => engineVerdict(at(p, 'cache-stale'), at(p, 'cache'))).filter(Boolean)
      const helps = helpsV.filter(v => v === 'faster').length
      const slowerThanFresh = lessV.length > 0 && lessV.every(v => v === 'faster')
      const tooFew = tooFewMeasured(helpsV)
      const status = tooFew ? 'not measured' : helps === helpsV.length && slowerThanFresh ? 'reproduced' : helps || slowerThanFresh ? 'partly reproduced' : 'not reproduced'
      const r304 = rows.filter(r => r.mode === 'cache-stale' && r.lane === 'h2' && r.rest).map(r => `${BROWSER_NAMES[browserOf(r)]} ${r.params.requests} items: ${r.rest.revalidated} × 304`).join('; ')
      return verdict(status, `h2 cache-stale ÷ separate: ${perBrowser(rows, stale)} (source 0.88×); ÷ fresh cache: ${perBrowser(rows, vsFresh)} (source 1.10×); ` +
        `by the verdict engine cache-stale against separate is ${verdictCounts(helpsV, 'browsers and sizes')}, the fresh cache against cache-stale ${verdictCounts(lessV, 'browsers and sizes')}; 304s counted by the server: ${r304}`)
    }
  }, {
    text: 'Push helps a little (Chrome, 25 items: 0.215 s with Prefer-Push against 0.276 s)',
    check (rows) {
      const inBrowser = rows.filter(r => r.mode === 'push' && browserOf(r) !== 'node:http2')
      const refused = inBrowser.filter(r => /refused-by-client/.test(r.pushOutcome || ''))
      const f = (lane, c) => ratio(rows.find(r => r.mode === 'push-protocol' && r.lane === lane && r.cell === c && ok(r)), rows.find(r => r.mode === 'separate-protocol' && r.lane === lane && r.cell === c && ok(r)))
      const proto = ['h2', 'h2n'].flatMap(lane => cellsIn(rows).map(c => ({ lane, c, v: f(lane, c) }))).filter(p => p.v !== null)
      const browserPart = inBrowser.length
        ? `in the browsers push was ${refused.length === inBrowser.length ? 'refused every time' : `refused in ${refused.length} of ${inBrowser.length} rows`} (${[...new Set(inBrowser.map(r => `${BROWSER_NAMES[browserOf(r)]}: ${r.pushOutcome}`))].join('; ')}), so h2-push there is separate requests with one more header`
        : 'no browser push visits'
      if (!proto.length) return verdict(refused.length ? 'cannot be reproduced in this browser' : 'not measured', browserPart)
      const items = itemsOf(rows)
      // By the verdict engine: pushed against requested, per lane and size.
      const protoRow = (mode, lane, c) => rows.find(r => r.mode === mode && r.lane === lane && r.cell === c && ok(r))
      const verdicts = proto.map(p => engineVerdict(protoRow('separate-protocol', p.lane, p.c), protoRow('push-protocol', p.lane, p.c)))
      const helps = verdicts.filter(v => v === 'faster')
      const tooFew = tooFewMeasured(verdicts)
      const status = tooFew ? 'not measured' : helps.length === proto.length ? 'reproduced at the protocol level' : helps.length ? 'partly reproduced at the protocol level' : 'not reproduced at the protocol level'
      return verdict(status, `${browserPart}; with Node's http2 client, which accepts push, through the same link: pushed ÷ requested ${proto.map(p => `${p.lane} ${items(p.c)} items ${x(p.v)}`).join(', ')} (source in Chrome 0.78×); ` +
        `by the verdict engine push is ${verdictCounts(verdicts, 'lanes and sizes')}`)
    }
  }],
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
          const src = items(c) === 25 && SOURCE_25[name] !== undefined ? String(SOURCE_25[name]) : '–'
          const timed = r.rest ? `${r.samples.length} / ${r.rest.visits}` : String(r.samples.length)
          return [r.lane, name, ok(r) ? `${s(r.median)} (${s(r.q1)}–${s(r.q3)})` : r.failures ? `failed (${r.failures})` : 'not timed', timed,
            counts(r), conns(r), r.protocol || '–', comp && ok(r) && r.mode !== 'compound' ? x(r.median / comp.median) : '–', src, r.note || '']
        })
        tables.push({
          title: `${items(c)} items of ${ITEM_BYTES} B, ${BROWSER_NAMES[b]}${version ? ` (${version})` : ''}: medians (s, quartiles), visits timed / made, requests per visit to the network / from the cache / answered 304 (medians; 304s counted by the server), connections the server saw them on (its ledger; a cache visit's earlier visit included), time ÷ the same lane's compound document, the source's Chrome median`,
          head: ['lane', 'scenario', 'median (s)', 'visits timed', 'network / cache / 304', 'connections', 'protocol', '÷ compound', 'source Chrome (s)', 'note'],
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
    order.push(['25 items', 'source (Chrome)', Object.entries(SOURCE_25).sort((p, q) => p[1] - q[1]).map(([k, v]) => `${k} ${v.toFixed(3)}`).join(' ≤ ')])
    tables.push({ title: 'The seven scenarios of the source (lanes h1 and h2), fastest first', head: ['collection', 'browser', 'order (median s)'], body: order })
    return tables
  },
  SOURCE_25,
  SOURCE_500
}

'use strict'

// h3-pages's table (bench/experiments/h3-pages.js): HTTP/3 against each HTTP/2 lane, beside Cloudflare, with time to
// first byte and the page's physical lower bound.
const { CLOUDFLARE, lossOf, pageOf, ok, pageBoundMs, pairRatio, x } = require('../../experiments/h3-common')
const { composition } = require('../../../server/routes/site')
const { sitePageRows } = require('../site-page-rows')

// The h3-pages experiment's tables under its main one (bench/report/runner/report-sections.js): [{ title, head, body }].
module.exports = function tables (rows) {
  const { cells, at, s } = sitePageRows(rows)
  const body = cells.map(cell => {
    const any = rows.find(r => r.cell === cell)
    const page = pageOf(any)
    const clean = lossOf(any) === 0 && CLOUDFLARE[page]
    const h3 = at('h3', cell)
    const h2e = at('h2e', cell)
    return [page, lossOf(any) ? `${lossOf(any)} %` : '0', s(h3), s(h2e), s(at('h2', cell)), s(at('h2n', cell)), s(at('h1', cell)),
      x(pairRatio(rows, 'h3', 'h2e', cell)), x(pairRatio(rows, 'h3', 'h2', cell)),
      `${ok(h3) ? Math.round(h3.responseStartMedian) : '–'} / ${ok(h2e) ? Math.round(h2e.responseStartMedian) : '–'}`,
      (pageBoundMs(any.params.sizeBytes, composition(any.params.sizeBytes).length) / 1000).toFixed(3),
      clean ? String(CLOUDFLARE[page].h3) : '–', clean ? String(CLOUDFLARE[page].h2) : '–', clean ? x(CLOUDFLARE[page].h3 / CLOUDFLARE[page].h2) : '–']
  })
  return [{
    title: 'HTTP/3 against HTTP/2 (medians, s), beside Cloudflare; TTFB = Navigation Timing responseStart on a new connection; bound = two round trips + every byte at 20 Mbit/s',
    head: ['page', 'loss', 'h3', 'h2e', 'h2', 'h2n', 'h1', 'h3/h2e', 'h3/h2', 'TTFB h3 / h2e (ms)', 'lower bound', 'Cloudflare h3', 'Cloudflare h2', 'Cloudflare h3/h2'],
    body
  }]
}

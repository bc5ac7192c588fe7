'use strict'

// Not in the 2016 source: Cloudflare's "HTTP/3 vs HTTP/2" (seed 003). Their
// synthetic test loaded a 15 KB page in 443 ms over HTTP/3 and 458 ms over
// HTTP/2; at 1 MB the advantage was gone (2.33 s against 2.30 s), which they
// put down to congestion control (their TCP ran BBR v1, their QUIC CUBIC).
// Here: a real page (server/routes/site.js) of 15 KB and of 1 MB, navigated
// to in Chromium on every lane, through a packet-level link without and with
// random loss. The TCP lanes run BBR (Linux's tcp_bbr is BBR v1), as
// Cloudflare's did; the h3 lane is Caddy's quic-go (CUBIC). h3-cc varies that.
const { LOSSES, PAGES, CLOUDFLARE, RTT_MS, linkWithLoss, cellLabel, lossOf, pageOf, ok, pageBoundMs, pairRatio, x } = require('./h3-common')
const { composition } = require('../../server/routes/site')
const { parseSize } = require('../../server/payload')

const CELLS = PAGES.flatMap(page => LOSSES.map(loss => ({
  size: page.size, cc: 'bbr', link: linkWithLoss(loss), preset: cellLabel(page.label, loss)
})))
const labels = CELLS.map(c => c.preset)

module.exports = {
  id: 'h3-pages',
  title: 'HTTP/3 vs HTTP/2 page loads, 15 KB and 1 MB, clean and lossy link (Cloudflare, seed 003)',
  kind: 'site-page',
  lanes: ['h1', 'h2', 'h2n', 'h2e', 'h3'],
  networks: ['link'],
  sweep: { param: 'preset', label: 'page size and packet loss' },
  cells: CELLS,
  smokeCells: cells => cells.filter(c => c.size === '15kb' && !/loss=/.test(c.link)),
  estimateMs: (cell, { lanes }) => lanes * (6 * RTT_MS + parseSize(cell.size) * 8 / 20e3 * 1.5 + 500),
  source: {
    unit: 's',
    x: labels,
    series: {
      'Cloudflare h3': labels.map(l => l === '15 KB 0%' ? CLOUDFLARE['15 KB'].h3 : l === '1 MB 0%' ? CLOUDFLARE['1 MB'].h3 : null),
      'Cloudflare h2': labels.map(l => l === '15 KB 0%' ? CLOUDFLARE['15 KB'].h2 : l === '1 MB 0%' ? CLOUDFLARE['1 MB'].h2 : null)
    }
  },
  // HTTP/3 against each HTTP/2 lane, beside Cloudflare, with time to first
  // byte and the page's physical lower bound.
  extraTables (rows) {
    const cells = [...new Set(rows.map(r => r.cell))].sort((a, b) => a - b)
    const at = (lane, cell) => rows.find(r => r.lane === lane && r.cell === cell)
    const s = r => ok(r) ? (r.median / 1000).toFixed(3) : r ? `failed (${r.failures})` : '–'
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
}

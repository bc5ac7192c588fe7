'use strict'

// Not in the 2016 source: Cloudflare's "HTTP/3 vs HTTP/2" (seed 003). Their
// synthetic test loaded a 15 KB page in 443 ms over HTTP/3 and 458 ms over
// HTTP/2; at 1 MB the advantage was gone (2.33 s against 2.30 s), which they
// put down to congestion control (their TCP ran BBR v1, their QUIC CUBIC).
// Here: a real page (server/routes/site.js) of 15 KB and of 1 MB, navigated
// to in Chromium on every lane, through a packet-level link without and with
// random loss. The TCP lanes run BBR (Linux's tcp_bbr is BBR v1), as
// Cloudflare's did; the h3 lane is Caddy's quic-go (CUBIC). h3-cc varies that.
const { LOSSES, PAGES, CLOUDFLARE, RTT_MS, linkWithLoss, cellLabel } = require('./h3-common')
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
  }
}

'use strict'

// Cloudflare (seed 003) put the vanished 1 MB advantage of HTTP/3 down to
// congestion control: their HTTP/2 ran over TCP with BBR v1, their HTTP/3
// over QUIC with CUBIC. Here the same 1 MB page over HTTP/2 with the server's
// TCP congestion control set to CUBIC, BBR (v1, Linux's tcp_bbr) and Reno
// (bench/cells/congestion.js: in the runner's own network namespace, proven per row
// with ss -ti on the server's sockets), beside HTTP/3 (Caddy's quic-go: CUBIC,
// which no setting here changes), on a clean and a lossy link.
const { RTT_MS, linkWithLoss, cellLabel } = require('./h3-common')
const { parseSize } = require('../../server/payload')

const CCS = ['cubic', 'bbr', 'reno']
const LOSSES = [0, 2]

const CELLS = LOSSES.flatMap(loss => CCS.map(cc => ({ size: '1mb', cc, link: linkWithLoss(loss), preset: cellLabel(cc, loss) })))

module.exports = {
  id: 'h3-cc',
  title: 'Congestion control: 1 MB page, HTTP/2 over TCP with CUBIC, BBR v1 or Reno, beside HTTP/3 (quic-go CUBIC)',
  kind: 'site-page',
  lanes: ['h2', 'h2e', 'h3'],
  networks: ['link'],
  sweep: { param: 'preset', label: 'TCP congestion control and packet loss' },
  cells: CELLS,
  // Smoke: the 15 KB page, CUBIC and BBR on the clean link: the setting must show on the sockets.
  smokeCells: cells => cells.filter(c => c.cc !== 'reno' && !/loss=/.test(c.link)).map(c => ({ ...c, size: '15kb' })),
  estimateMs: (cell, { lanes }) => lanes * (6 * RTT_MS + parseSize(cell.size) * 8 / 20e3 * 1.5 + 500),
  source: null
}

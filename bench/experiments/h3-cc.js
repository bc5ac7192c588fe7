'use strict'

// Cloudflare (seed 003) put the vanished 1 MB advantage of HTTP/3 down to
// congestion control: their HTTP/2 ran over TCP with BBR v1, their HTTP/3
// over QUIC with CUBIC. Here the same 1 MB page over HTTP/2 with the server's
// TCP congestion control set to CUBIC, BBR (v1, Linux's tcp_bbr) and Reno
// (bench/cells/congestion.js: in the runner's own network namespace, proven per row
// with ss -ti on the server's sockets), beside HTTP/3 (Caddy's quic-go: CUBIC,
// which no setting here changes), on a clean and a lossy link.
const { RTT_MS, linkWithLoss, cellLabel, lossOf, ok, pairRatio, x } = require('./h3-common')
const { parseSize } = require('../../server/payload')

const CCS = ['cubic', 'bbr', 'reno']
const LOSSES = [0, 2]

const CELLS = LOSSES.flatMap(loss => CCS.map(cc => ({ size: '1mb', cc, link: linkWithLoss(loss), preset: cellLabel(cc, loss) })))
const ccOf = row => row.preset.split(' ')[0]

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
  source: null,
  extraTables (rows) {
    const cells = [...new Set(rows.map(r => r.cell))].sort((a, b) => a - b)
    const at = (lane, cell) => rows.find(r => r.lane === lane && r.cell === cell)
    const s = r => ok(r) ? (r.median / 1000).toFixed(3) : r ? `failed (${r.failures})` : '–'
    const body = cells.map(cell => {
      const any = rows.find(r => r.cell === cell)
      const h2e = at('h2e', cell)
      const h2 = at('h2', cell)
      return [ccOf(any), lossOf(any) ? `${lossOf(any)} %` : '0', s(h2e), s(h2), s(at('h3', cell)),
        x(pairRatio(rows, 'h3', 'h2e', cell)), x(pairRatio(rows, 'h3', 'h2', cell)),
        h2e ? `${h2e.ccSeen || 'none seen'}${h2e.ccVia ? ` (set by ${h2e.ccVia})` : ''}` : '–', h2 ? h2.ccSeen || 'none seen' : '–']
    })
    return [{
      title: 'Per congestion control (medians, s); "server sockets" is what ss -ti showed on the lane\'s accepted connections after each load',
      head: ['TCP cc', 'loss', 'h2e', 'h2', 'h3 (CUBIC)', 'h3/h2e', 'h3/h2', 'h2e server sockets', 'h2 server sockets'],
      body
    }]
  }
}

'use strict'

// Cloudflare (seed 003) put the vanished 1 MB advantage of HTTP/3 down to
// congestion control: their HTTP/2 ran over TCP with BBR v1, their HTTP/3
// over QUIC with CUBIC. Here the same 1 MB page over HTTP/2 with the server's
// TCP congestion control set to CUBIC, BBR (v1, Linux's tcp_bbr) and Reno
// (bench/cells/congestion.js: in the runner's own network namespace, proven per row
// with ss -ti on the server's sockets), beside HTTP/3 (Caddy's quic-go: CUBIC,
// which no setting here changes), on a clean and a lossy link.
const { RTT_MS, linkWithLoss, lossLabel, cellLabel, lossOf, ok, pairRatio, verdict, x, ms } = require('./h3-common')
const { parseSize } = require('../../server/payload')

const CCS = ['cubic', 'bbr', 'reno']
const LOSSES = [0, 2]

const CELLS = LOSSES.flatMap(loss => CCS.map(cc => ({ size: '1mb', cc, link: linkWithLoss(loss), preset: cellLabel(cc, loss) })))
const ccOf = row => row.preset.split(' ')[0]

function find (rows, lane, cc, loss) {
  return rows.find(r => r.lane === lane && ccOf(r) === cc && lossOf(r) === loss && ok(r)) || null
}

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
  conclusions: [{
    text: "HTTP/3's vanished advantage at 1 MB comes from congestion control (Cloudflare: BBR v1 on their TCP, CUBIC on their QUIC)",
    check (rows) {
      const lines = []
      let explains = 0
      let measured = 0
      const yes = []
      const no = []
      for (const loss of LOSSES) {
        const bbr = find(rows, 'h2e', 'bbr', loss)
        const cubic = find(rows, 'h2e', 'cubic', loss)
        const h3 = [find(rows, 'h3', 'cubic', loss), find(rows, 'h3', 'bbr', loss)].filter(Boolean)
        if (!bbr || !cubic || !h3.length) continue
        measured++
        const h3ms = h3.reduce((a, r) => a + r.median, 0) / h3.length
        const swing = bbr.median / cubic.median
        const gapBbr = h3ms / bbr.median
        const gapCubic = h3ms / cubic.median
        // cc explains the gap when BBR makes TCP clearly faster than CUBIC does and,
        // with CUBIC on both, HTTP/3 is no longer behind by as much.
        if (swing < 0.95 && gapCubic < gapBbr) {
          explains++
          yes.push(lossLabel(loss))
        } else no.push(`${lossLabel(loss)} (${swing >= 0.95 ? 'BBR no faster than CUBIC' : 'h3 no closer to h2e-CUBIC'})`)
        // With CUBIC on both: who is faster, unless their quartiles overlap (random loss spreads the loads widely).
        const h3q = [Math.min(...h3.map(r => r.q1)), Math.max(...h3.map(r => r.q3))]
        const overlap = h3q[0] <= cubic.q3 && cubic.q1 <= h3q[1]
        const sec = v => (v / 1000).toFixed(2)
        const both = overlap
          ? `; with CUBIC on both the loads overlap (quartiles h3 ${sec(h3q[0])}–${sec(h3q[1])} s, h2e ${sec(cubic.q1)}–${sec(cubic.q3)} s): neither is clearly faster`
          : `; with CUBIC on both h3 is clearly ${gapCubic < 1 ? 'faster' : 'slower'} (quartiles h3 ${sec(h3q[0])}–${sec(h3q[1])} s, h2e ${sec(cubic.q1)}–${sec(cubic.q3)} s)`
        lines.push(`${lossLabel(loss)}: h2e with BBR ${ms(bbr.median)}, with CUBIC ${ms(cubic.median)} (BBR/CUBIC ${x(swing)}); ` +
          `h3 (CUBIC) ${ms(h3ms)} = ${x(gapBbr)} h2e-BBR, ${x(gapCubic)} h2e-CUBIC${both}`)
      }
      if (!measured) return verdict('not measured', 'needs h2e with BBR and CUBIC and h3 on the same link')
      const status = explains === measured ? 'supported' : explains ? 'partly supported' : 'not supported'
      const why = explains && explains < measured
        ? `. Congestion control explains the gap at ${yes.join(', ')}, not at ${no.join(', ')}`
        : ''
      return verdict(status, lines.join('; ') + why)
    }
  }],
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

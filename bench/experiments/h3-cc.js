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
const { engineVerdict } = require('../runner/conclusions')
const stats = require('../../client/js/stats')
const { compareRows } = require('../runner/compare-rows')

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
      let notMeasured = 0
      const yes = []
      const no = []
      for (const loss of LOSSES) {
        const bbr = find(rows, 'h2e', 'bbr', loss)
        const cubic = find(rows, 'h2e', 'cubic', loss)
        const h3rows = [find(rows, 'h3', 'cubic', loss), find(rows, 'h3', 'bbr', loss)].filter(Boolean)
        if (!bbr || !cubic || !h3rows.length) continue
        measured++
        // The h3 lane is the same (quic-go's CUBIC, which no cell's setting changes) in the CUBIC and BBR cells: its
        // loads there are one sample, in the order they ran.
        const h3 = { ...h3rows[0], lane: 'h3', mode: null, samples: h3rows.flatMap(r => r.samples), runsLeftOut: h3rows.reduce((n, r) => n + (r.runsLeftOut || 0), 0) }
        const named = (r, cc) => ({ ...r, lane: `h2e-${cc}`, mode: null })
        // By the verdict engine: congestion control explains the gap when BBR makes h2e faster than CUBIC does
        // and, with CUBIC on both, h3 is no longer slower than h2e (faster, or no difference).
        const swing = engineVerdict(named(cubic, 'cubic'), named(bbr, 'bbr'))
        const withCubic = compareRows(named(cubic, 'cubic'), h3)
        const withBbr = compareRows(named(bbr, 'bbr'), h3)
        if (swing === 'faster' && (withCubic.verdict === 'faster' || withCubic.verdict === 'no difference')) {
          explains++
          yes.push(lossLabel(loss))
        } else {
          no.push(`${lossLabel(loss)} (${swing !== 'faster' ? `BBR not faster than CUBIC: ${swing}` : `with CUBIC on both h3 is ${withCubic.verdict}`})`)
        }
        if (swing === 'not measured' || withCubic.verdict === 'not measured') notMeasured++
        lines.push(`${lossLabel(loss)}: h2e with BBR ${ms(bbr.median)}, with CUBIC ${ms(cubic.median)} (BBR/CUBIC ${x(bbr.median / cubic.median)}; ${compareRows(named(cubic, 'cubic'), named(bbr, 'bbr')).sentence}); ` +
          `h3 (CUBIC) ${ms(stats.median(h3.samples))} over ${h3.samples.length} loads: against h2e-BBR ${withBbr.sentence}; against h2e-CUBIC ${withCubic.sentence}`)
      }
      if (!measured) return verdict('not measured', 'needs h2e with BBR and CUBIC and h3 on the same link')
      const status = notMeasured * 2 > measured ? 'not measured' : explains === measured ? 'supported' : explains ? 'partly supported' : 'not supported'
      const why = explains < measured ? `. Congestion control explains the gap ${yes.length ? `at ${yes.join(', ')}, ` : ''}not at ${no.join(', ')}` : ''
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

'use strict'

// h3-cc's table (bench/experiments/h3-cc.js): HTTP/2 under each TCP congestion control beside HTTP/3.
const { lossOf, pairRatio, x } = require('../../experiments/h3-common')
const { sitePageRows } = require('../site-page-rows')
const ccOf = row => row.preset.split(' ')[0]

// The h3-cc experiment's tables under its main one (bench/report/runner/report-sections.js): [{ title, head, body }].
module.exports = function tables (rows) {
  const { cells, at, s } = sitePageRows(rows)
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

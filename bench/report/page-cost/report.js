'use strict'

// npm run bench:page's figures (bench/page-cost/page-cost.js measures): per lane, the medians of the browser's
// CPU a batch through the page, a bare fetch() batch and a batch of the same $.get()s alone; page ÷ bare and
// jquery ÷ bare as the medians of the pairs' ratios (with their range); the batches' times and the lanes' CPU.
const stats = require('../../../shared/stats')

const median = xs => xs.length ? stats.median(xs) : null
const ms = v => v === null ? '–' : `${Math.round(v)}`
const x = v => v === null || !Number.isFinite(v) ? '–' : `${v.toFixed(2)}×`

// → [{ lane, protocol, pairs, page: { cpuMs, ms, serverCpuMs, ok, asked }, bare, jquery (the same; jquery null in a
// record without it), ratio, jqueryRatio: { median, min, max } (over bare) }]
function summarise ({ settings, batches }) {
  return settings.lanes.filter(lane => batches.some(b => b.lane === lane)).map(lane => {
    const mine = batches.filter(b => b.lane === lane)
    const side = name => {
      const list = mine.filter(b => b.side === name)
      return {
        cpuMs: median(list.map(b => b.browserCpuMs)),
        ms: median(list.map(b => b.ms)),
        serverCpuMs: median(list.map(b => b.serverCpuMs)),
        ok: list.reduce((a, b) => a + b.ok, 0),
        asked: list.length * settings.requests
      }
    }
    const over = name => {
      const rs = [...new Set(mine.map(b => b.pair))].map(pair => {
        const at = s => mine.find(b => b.pair === pair && b.side === s)
        return at(name) && at('bare') && at('bare').browserCpuMs > 0 ? at(name).browserCpuMs / at('bare').browserCpuMs : null
      }).filter(r => r !== null)
      return { n: rs.length, median: median(rs), min: rs.length ? Math.min(...rs) : null, max: rs.length ? Math.max(...rs) : null }
    }
    const { n, ...ratio } = over('page')
    const { n: jn, ...jqueryRatio } = over('jquery')
    return {
      lane,
      protocol: (mine[0] || {}).protocol || null,
      pairs: n,
      page: side('page'),
      bare: side('bare'),
      jquery: mine.some(b => b.side === 'jquery') ? side('jquery') : null,
      ratio,
      jqueryRatio: jn ? jqueryRatio : null
    }
  })
}

function formatPageCost (record) {
  const { settings, environment } = record
  const lines = [
    `h2bench page cost: ${settings.requests} × ${settings.size} a batch, ${settings.pairs} pair${settings.pairs === 1 ? '' : 's'} a lane, Chromium on loopback (no throttling)`,
    `System: Node ${environment.node}, ${environment.cpu} × ${environment.cpus}, ${environment.os}; h2bench ${environment.h2bench}`,
    '',
    'lane  browser CPU a batch (ms): page  bare  page ÷ bare (pairs)  $.get alone  ÷ bare (pairs)   batch time (ms): page  bare   lanes\' CPU (ms): page  bare   ok: page  bare'
  ]
  const range = r => r.min === null || r.min === r.max ? '' : ` (${r.min.toFixed(2)}–${r.max.toFixed(2)})`
  for (const s of summarise(record)) {
    lines.push([
      s.lane.padEnd(4), ms(s.page.cpuMs).padStart(30), ms(s.bare.cpuMs).padStart(5), `${x(s.ratio.median)}${range(s.ratio)}`.padStart(20),
      ms(s.jquery ? s.jquery.cpuMs : null).padStart(12), (s.jqueryRatio ? `${x(s.jqueryRatio.median)}${range(s.jqueryRatio)}` : '–').padStart(20),
      ms(s.page.ms).padStart(23), ms(s.bare.ms).padStart(5), ms(s.page.serverCpuMs).padStart(22), ms(s.bare.serverCpuMs).padStart(5),
      `${s.page.ok}/${s.page.asked}`.padStart(10), `${s.bare.ok}/${s.bare.asked}`.padStart(8)
    ].join(' '))
  }
  return lines.join('\n')
}

module.exports = { summarise, formatPageCost }

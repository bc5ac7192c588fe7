'use strict'

// h2load-netem's tables (bench/experiments/h2load-netem.js): the source's rows beside ours, and oha against h2load.
const { NETEM_ROWS } = require('../../../load/presets')
const CLEAN = NETEM_ROWS[0].label
const s = v => v === null || v === undefined ? '–' : (v / 1000).toFixed(2)
const x = v => v === null || !Number.isFinite(v) ? '–' : `${v.toFixed(2)}×`
// h1's time over h3's in a cell: > 1 means HTTP/3 ahead (the source's sense
// of "advantage"). h2load's h1 (pipelined, as the source's h2load --h1 -m 100
// was) against oha's h3; oha on h1 too (one tool on both sides, but oha does
// not pipeline) beside it when that variant ran, and in its place when
// h2load's h1 did not run.
function edge (rows, label) {
  const h3 = find(rows, 'h3', label)
  if (!h3 || !ok(h3)) return null
  // Runs with a failed request are not samples (bench/cells/load.js): a row
  // with samples counts, its failed runs are said; one with none did not finish.
  const ratioOf = h1 => !h1 ? null : h1.samples.length ? h1.median / h3.median : h1.failures ? Infinity : null
  const same = find(rows, 'h1', label, 'oha')
  const h2l = find(rows, 'h1', label)
  const ratio = ratioOf(h2l) ?? ratioOf(same)
  if (ratio === null) return null
  const h1 = ratioOf(h2l) !== null ? h2l : same
  return {
    ratio,
    byOha: h1 === same,
    ohaRatio: h1 === same ? null : ratioOf(same),
    h1: h1.samples.length ? h1.median : null,
    h1Failed: h1.failures,
    h3: h3.median,
    h1Row: h1,
    h3Row: h3
  }
}
const src = label => {
  const r = NETEM_ROWS.find(q => q.label === label)
  return r && r.h3 ? (r.h1 ? r.h1.totalMs / r.h3.totalMs : Infinity) : null
}
const ok = r => r && r.samples.length > 0 && r.failures === 0
const find = (rows, lane, label, mode = null) => rows.find(r => r.lane === lane && r.preset === label && (r.mode || null) === mode) || null

// The h2load-netem experiment's tables under its main one (bench/report/runner/report-sections.js): [{ title, head, body }].
module.exports = function tables (rows) {
  const labels = NETEM_ROWS.map(r => r.label).filter(l => rows.some(q => q.preset === l))
  const lanes = [...new Set(rows.filter(r => !r.mode).map(r => r.lane))]
  const same = ['h1', 'h2e'].filter(l => rows.some(r => r.lane === l && r.mode === 'oha'))
  const cellText = r => !r ? '–' : ok(r) ? `${s(r.median)} s, ${Math.round(r.load.reqPerSec)} req/s, ${r.load.connections} conn` : r.samples.length ? `${s(r.median)} s, ${r.failures} runs failed` : `failed${r.note ? ` (${r.note.split(';')[0]})` : ''}`
  const srcText = v => v ? `${v.totalMs >= 1000 ? `${(v.totalMs / 1000).toFixed(2)} s` : `${v.totalMs} ms`}, ${Math.round(v.reqPerSec)} req/s, ${v.mbPerSec} MB/s` : 'too slow to finish'
  const table = {
    title: 'Per impairment: total time (median), req/s and the connections the server saw per lane (h2load on h1 and HTTP/2, oha on h3; "oha": oha on that lane too), h1 ÷ h3 (h2load\'s pipelined h1 over oha\'s h3; "oha h1" where only oha\'s h1 finished), and the source\'s h1 and h3 rows (h2load on both, nginx-quic on a LAN)',
    head: ['impairment', ...lanes, ...same.map(l => `${l} (oha)`), 'h1 ÷ h3', 'source h1', 'source h3', 'source h1 ÷ h3'],
    body: labels.map(label => {
      const e = edge(rows, label)
      const sr = NETEM_ROWS.find(r => r.label === label)
      return [label, ...lanes.map(l => cellText(find(rows, l, label))), ...same.map(l => cellText(find(rows, l, label, 'oha'))),
        e ? `${x(e.ratio)}${e.byOha ? ' (oha h1)' : ''}` : '–', srcText(sr.h1), srcText(sr.h3), x(src(label))]
    })
  }
  const cal = rows.filter(r => r.mode === 'oha' && r.preset === CLEAN && r.protocol === 'h2').map(r => {
    const base = find(rows, r.lane, CLEAN)
    return [r.lane, ok(base) ? s(base.median) : '–', ok(r) ? s(r.median) : '–', ok(base) && ok(r) ? x(base.median / r.median) : '–',
      ok(base) ? String(Math.round(base.load.reqPerSec)) : '–', ok(r) ? String(Math.round(r.load.reqPerSec)) : '–']
  })
  return cal.length
    ? [table, { title: 'The HTTP/3 client against h2load: oha and h2load with the same workload on the same HTTP/2 lanes, clean link (medians)', head: ['lane', 'h2load (s)', 'oha (s)', 'h2load ÷ oha', 'h2load req/s', 'oha req/s'], body: cal }]
    : [table]
}

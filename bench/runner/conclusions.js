'use strict'

// Helpers for the one-sentence verdicts each experiment gives on the source
// study's conclusions, and the per-row ratios. Rows are result rows (see
// docs/runner.md); a row's value is its median (ms).
const stats = require('../../client/js/stats')

function verdict (status, detail) {
  return { status, detail }
}

function paramOf (row, param) {
  return param === 'preset' ? row.preset : row.params[param]
}

// A row counts when it has samples and none of its requests failed: failed
// requests end early, so such a batch timed less than the workload.
const measured = r => r.samples.length > 0 && r.median !== null && r.failures === 0

function at (rows, lane, param, value) {
  return rows.find(r => r.lane === lane && paramOf(r, param) === value && measured(r)) || null
}

// How many times longer `lane` took at param=to than at param=from.
function growth (rows, lane, param, from, to) {
  const a = at(rows, lane, param, from)
  const b = at(rows, lane, param, to)
  return a && b && a.median > 0 ? b.median / a.median : null
}

// Per cell, median(a) / median(b), a and b being lane names (and, with
// `mode`, a push mode); summarised over the cells both measured. Null when
// no cell has both.
function ratioRange (rows, a, b, { modeA = null, modeB = null } = {}) {
  const ratios = []
  const used = []
  for (const ra of rows.filter(r => r.lane === a && r.mode === modeA && measured(r))) {
    const rb = rows.find(r => r.lane === b && r.mode === modeB && r.cell === ra.cell && r.network === ra.network && r.browser === ra.browser && measured(r))
    if (rb && rb.median > 0) {
      ratios.push(ra.median / rb.median)
      used.push(ra)
    }
  }
  if (!ratios.length) return null
  return { median: stats.median(ratios), min: Math.min(...ratios), max: Math.max(...ratios), n: ratios.length, used }
}

// The row each row is compared with in its cell: h1 for the page
// experiments, request for push (mode=none in the browser, "request" at the
// protocol level), on the same lane.
function baselineOf (row, rows) {
  const same = r => r !== row && r.experiment === row.experiment && r.cell === row.cell && r.network === row.network && r.browser === row.browser && measured(r)
  if (row.mode === null) return rows.find(r => same(r) && r.lane === 'h1' && r.mode === null) || null
  if (row.mode !== 'push') return null
  return rows.find(r => same(r) && r.lane === row.lane && (r.mode === 'request' || r.mode === 'none')) || null
}

// Adds `baseline` ("h1", "h2 none", "h2n request") and `ratioToBaseline`
// (this row's median / the baseline's) to every row; both null for the
// baseline rows themselves and where the baseline was not measured.
function withRatios (rows) {
  return rows.map(row => {
    const base = measured(row) ? baselineOf(row, rows) : null
    return {
      ...row,
      baseline: base ? (base.mode ? `${base.lane} ${base.mode}` : base.lane) : null,
      ratioToBaseline: base && base.median > 0 ? +(row.median / base.median).toFixed(3) : null
    }
  })
}

const x = n => `${n.toFixed(2)}×`

// "Faster" as the source meant it: the other lane takes at least 10 % longer.
// Below 3 % the two are about the same.
const CLEARLY = 1.1
const SLIGHTLY = 1.03

// Status of "h2 is faster than h1" from r = ratioRange(rows, 'h1', 'h2'):
// clearly in every cell; clearly in most, or slightly in every one; or not.
// `words`: the three outcomes ('reproduced' or 'holds' forms).
function fasterStatus (r, [all, partly, none]) {
  if (r.min >= CLEARLY) return all
  return r.median >= CLEARLY || r.min > SLIGHTLY ? partly : none
}
const pct = v => `${Math.round((v - 1) * 100)} %`
function within (r) {
  if (r.max < SLIGHTLY) return `: within ${pct(SLIGHTLY)}, about the same`
  if (r.max < CLEARLY) return `: less than ${pct(CLEARLY)} apart`
  return ''
}

// The request-count experiments check both count-related conclusions.
function countConclusions (delay) {
  return [{
    text: 'Below about 30 requests HTTP/1.1 and HTTP/2 perform about the same',
    check (rows) {
      const few = rows.filter(r => r.params.requests <= 30)
      const r = ratioRange(few, 'h1', 'h2')
      if (!r) return verdict('not measured', 'needs lanes h1 and h2 at 6 and 30 requests')
      const same = r.min >= 0.67 && r.max <= 1.5
      return verdict(same ? 'reproduced' : 'not reproduced',
        `h1 takes ${x(r.min)}–${x(r.max)} h2's time at 6 and 30 requests, ${delay} ms delay (about the same: within 0.67–1.5×)`)
    }
  }, {
    text: "HTTP/2's advantage appears with many requests and latency of 30 ms or more",
    check (rows) {
      const many = rows.filter(r => r.params.requests >= 150)
      const r = ratioRange(many, 'h1', 'h2')
      if (!r) return verdict('not measured', 'needs lanes h1 and h2 at 150 requests or more')
      const wins = r.median >= 1.2
      const counts = r.used.map(u => u.params.requests)
      const left = many.filter(m => m.lane === 'h1' && !counts.includes(m.params.requests)).map(m => m.params.requests)
      const what = `h1 takes ${x(r.median)} h2's time (median over ${counts.join(', ')} requests; ${x(r.min)}–${x(r.max)}) at ${delay} ms` +
        (left.length ? `; ${left.join(', ')} left out (failed requests)` : '')
      if (delay >= 30) return verdict(wins ? 'reproduced' : 'not reproduced', what)
      return verdict(wins ? 'not reproduced' : 'reproduced',
        `${what}; the source saw no advantage at ${delay} ms${wins ? ', we do' : ''}`)
    }
  }]
}

module.exports = { verdict, at, growth, ratioRange, baselineOf, withRatios, countConclusions, paramOf, measured, fasterStatus, within, CLEARLY }

'use strict'

// Helpers for the one-sentence verdicts each experiment gives on the source
// study's conclusions, and the per-row ratios. Rows are result rows (see
// docs/runner.md); a row's value is its median (ms).
const stats = require('../../client/js/stats')
const { compareRows, compareRowSlowdowns, comparisonRecord, workloadOf, RULES } = require('./compare-rows')

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
// `mode`, a push mode); summarised over the cells both measured, with the
// verdict engine's comparison of each cell (compare-rows.js: 'faster' means b
// is faster than a) counted in `verdicts`. Null when no cell has both.
function ratioRange (rows, a, b, { modeA = null, modeB = null } = {}) {
  const ratios = []
  const used = []
  const verdicts = {}
  for (const ra of rows.filter(r => r.lane === a && r.mode === modeA && measured(r))) {
    const rb = rows.find(r => r.lane === b && r.mode === modeB && r.cell === ra.cell && r.network === ra.network && r.browser === ra.browser && measured(r))
    if (rb && rb.median > 0) {
      ratios.push(ra.median / rb.median)
      used.push(ra)
      const v = compareRows(ra, rb).verdict
      verdicts[v] = (verdicts[v] || 0) + 1
    }
  }
  if (!ratios.length) return null
  return { median: stats.median(ratios), min: Math.min(...ratios), max: Math.max(...ratios), n: ratios.length, used, verdicts }
}

// The verdict engine on two rows: how `b` compares with `a` ('faster': b is
// faster than a; 'slower', 'no difference', 'inconclusive', 'not measured'),
// or null when either is missing.
function engineVerdict (a, b) {
  return a && b ? compareRows(a, b).verdict : null
}

// The engine on how a change slows b down against how it slows a down, each
// against its row without it: the comparison ('faster': b suffers less), or
// null when a row is missing. `pick`: a row's samples.
function slowdownComparison (a0, a, b0, b, pick) {
  return a0 && a && b0 && b ? compareRowSlowdowns([a0, a], [b0, b], pick) : null
}

// Counts of verdicts, in the sentence's order: "faster in 3, inconclusive in 1 of 4".
function verdictCounts (list, unit = 'cells') {
  const got = list.filter(Boolean)
  const counts = {}
  for (const v of got) counts[v] = (counts[v] || 0) + 1
  return `${VERDICT_ORDER.filter(k => counts[k]).map(k => `${k} in ${counts[k]}`).join(', ')} of ${got.length} ${unit}`
}

// The experiments whose source compares HTTP/3 with HTTP/2 at one edge (seed 003): their rows are held against h2e,
// the same Caddy over TCP, in the same mode (cold or repeat visit), as their verdicts are; h1 is no lane of h3-hol.
const BASELINE_LANE = { 'h3-ttfb': 'h2e', 'h3-hol': 'h2e', 'h3-pages': 'h2e', 'h3-cc': 'h2e' }

// The row each row is compared with in its cell: h1 for the page
// experiments (for a site, HTTP/1.1 forced in the same view; h2e in the same
// mode for the HTTP/3 experiments, BASELINE_LANE), request for push
// (mode=none in the browser, "request" at the protocol level), on the same lane.
function baselineOf (row, rows) {
  const same = r => r !== row && r.experiment === row.experiment && r.cell === row.cell && r.network === row.network && r.browser === row.browser && measured(r)
  if (row.site) return rows.find(r => same(r) && r.lane === 'h1' && r.mode === row.mode) || null
  const lane = BASELINE_LANE[row.experiment]
  if (lane) return rows.find(r => same(r) && r.lane === lane && r.mode === row.mode) || null
  if (row.mode === null) return rows.find(r => same(r) && r.lane === 'h1' && r.mode === null) || null
  if (row.mode !== 'push') return null
  return rows.find(r => same(r) && r.lane === row.lane && (r.mode === 'request' || r.mode === 'none')) || null
}

// Adds `baseline` ("h1", "h2 none", "h2n request"), `ratioToBaseline`
// (this row's median / the baseline's) and `comparison` (the verdict engine's
// ratio, 95 % interval, runs and verdict of this row against its baseline,
// compare-rows.js) to every row; all null for the baseline rows themselves and
// where the baseline was not measured. And `workload`, where the row's kind has one.
function withRatios (rows) {
  return rows.map(row => {
    const base = measured(row) ? baselineOf(row, rows) : null
    return {
      ...row,
      baseline: base ? (base.mode ? `${base.lane} ${base.mode}` : base.lane) : null,
      ratioToBaseline: base && base.median > 0 ? +(row.median / base.median).toFixed(3) : null,
      comparison: base ? comparisonRecord(compareRows(base, row)) : null,
      workload: workloadOf(row)
    }
  })
}

const x = n => `${n.toFixed(2)}×`

const OPPOSITE = { faster: 'slower', slower: 'faster' }

// More than half the engine's verdicts 'not measured' (or none at all): a
// conclusion resting on the few left would not be the source's.
function tooFewMeasured (verdicts) {
  const vs = verdicts.filter(Boolean)
  return !vs.length || vs.filter(v => v === 'not measured').length * 2 > vs.length
}

// The status of a conclusion from the engine's verdicts over its cells, one
// rule for every experiment: 'not measured' (tooFewMeasured); words[0] when
// every cell says `want`; words[1] when more cells say `want` than its
// opposite; words[2] otherwise.
function statusOf (verdicts, words = ['reproduced', 'partly reproduced', 'not reproduced'], want = 'faster') {
  const vs = verdicts.filter(Boolean)
  const n = k => vs.filter(v => v === k).length
  if (tooFewMeasured(vs)) return 'not measured'
  if (n(want) === vs.length) return words[0]
  return n(want) > n(OPPOSITE[want]) ? words[1] : words[2]
}

// The verdict counts of a ratioRange as a list, for statusOf.
const verdictList = r => Object.entries(r.verdicts || {}).flatMap(([k, n]) => Array(n).fill(k))
const tooFewCells = r => tooFewMeasured(verdictList(r))

// Status of "b is faster than a" from r = ratioRange(rows, a, b) by statusOf.
// `words`: the three outcomes ('reproduced' or 'holds' forms).
function fasterStatus (r, words) {
  return statusOf(verdictList(r), words)
}

const VERDICT_ORDER = ['faster', 'slower', 'no difference', 'inconclusive', 'not comparable', 'not measured']

// The engine's verdicts over the cells, for the sentence: "; by the verdict
// engine: faster in 3, inconclusive in 2 of 5 cells".
function within (r, unit = 'cells') {
  const v = r.verdicts || {}
  const parts = VERDICT_ORDER.filter(k => v[k]).map(k => `${k} in ${v[k]}`)
  if ((v['no difference'] || 0) === r.n) return `; by the verdict engine: no difference (±${Math.round(RULES.tolerance * 100)} %) in all ${r.n} ${unit}`
  return `; by the verdict engine: ${parts.join(', ')} of ${r.n} ${unit}`
}

// The request-count experiments check both count-related conclusions, by the
// verdict engine: "about the same" is no difference (±5 %) in every cell; an
// advantage is h2 faster (its interval clear of 1) in every cell.
function countConclusions (delay) {
  return [{
    text: 'Below about 30 requests HTTP/1.1 and HTTP/2 perform about the same',
    check (rows) {
      const few = rows.filter(r => r.params.requests <= 30)
      const r = ratioRange(few, 'h1', 'h2')
      if (!r) return verdict('not measured', 'needs lanes h1 and h2 at 6 and 30 requests')
      const v = r.verdicts
      const status = tooFewCells(r) ? 'not measured'
        : (v['no difference'] || 0) === r.n ? 'reproduced'
          : v.faster || v.slower ? 'not reproduced' : 'inconclusive'
      return verdict(status, `h1 takes ${x(r.min)}–${x(r.max)} h2's time at 6 and 30 requests, ${delay} ms delay${within(r, 'request counts')}`)
    }
  }, {
    text: "HTTP/2's advantage appears with many requests and latency of 30 ms or more",
    check (rows) {
      const many = rows.filter(r => r.params.requests >= 150)
      const r = ratioRange(many, 'h1', 'h2')
      if (!r) return verdict('not measured', 'needs lanes h1 and h2 at 150 requests or more')
      const counts = r.used.map(u => u.params.requests)
      const left = many.filter(m => m.lane === 'h1' && !counts.includes(m.params.requests)).map(m => m.params.requests)
      const what = `h1 takes ${x(r.median)} h2's time (median over ${counts.join(', ')} requests; ${x(r.min)}–${x(r.max)}) at ${delay} ms${within(r, 'request counts')}` +
        (left.length ? `; ${left.join(', ')} left out (failed requests)` : '')
      const wins = fasterStatus(r, ['all', 'some', 'none'])
      if (wins === 'not measured') return verdict('not measured', what)
      if (delay >= 30) return verdict({ all: 'reproduced', some: 'partly reproduced', none: 'not reproduced' }[wins], what)
      return verdict(wins === 'none' ? 'reproduced' : 'not reproduced',
        `${what}; the source saw no advantage at ${delay} ms${wins === 'none' ? '' : ', we do'}`)
    }
  }]
}

module.exports = { verdict, at, growth, ratioRange, baselineOf, withRatios, countConclusions, paramOf, measured, fasterStatus, statusOf, tooFewMeasured, within, engineVerdict, slowdownComparison, verdictCounts }

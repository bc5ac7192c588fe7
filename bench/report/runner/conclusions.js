'use strict'

// Each result row against its baseline in its cell (withRatios), by the
// verdict engine; and what the reports read of a row (measured).
// Rows are result rows (see docs/runner.md); a row's value is its median
// (ms). The claims each experiment makes are bench/report/claims/'s.
const { compareRows, comparisonRecord, workloadOf } = require('./compare-rows')

// A row counts when it has samples and none of its requests failed: failed
// requests end early, so such a batch timed less than the workload.
const measured = r => r.samples.length > 0 && r.median !== null && r.failures === 0

// The verdict engine on two rows: how `b` compares with `a` ('faster': b is
// faster than a; 'slower', 'no difference', 'inconclusive', 'not measured'),
// or null when either is missing.
function engineVerdict (a, b) {
  return a && b ? compareRows(a, b).verdict : null
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

module.exports = { baselineOf, withRatios, measured, engineVerdict }

'use strict'

// The tables of an experiment's section, as { head, body } (report-markdown.js
// and report-html.js write them): the main one (our series, ratios, the
// source's) and the one against the physical lower bounds.
const { paramOf } = require('../../cells/helpers')
const { closeness, boundOf } = require('./bounds')
const { dominantCost, timedMsOf } = require('./costs')
const { pairingOf, randomEffects } = require('../pairing/pairing')
const { seconds, seriesName, multiNetwork, multiBrowsers, seriesOf, sourceSeries } = require('./report-series')
const { drift, RULES } = require('../../../shared/verdict')

// Ratio columns: each series against its baseline (h1, or request), as
// recorded in the rows.
function ratioSeries (series) {
  return series.map(s => {
    const withBase = s.rows.find(r => r && r.baseline)
    if (!withBase) return null
    const base = withBase.baseline.replace(/ none$/, ' request')
    return { name: `${s.name}/${base}`, values: s.rows.map(r => r && r.ratioToBaseline !== null ? r.ratioToBaseline : null) }
  }).filter(Boolean)
}

function tableOf (experiment, rows) {
  const { xs, series } = seriesOf(experiment, rows)
  const ratios = ratioSeries(series)
  const src = sourceSeries(experiment, xs)
  const head = [experiment.sweep.label, ...series.map(s => `${s.name} (s)`), ...ratios.map(r => r.name),
    ...src.series.map(s => `${s.name} (s)`), ...(src.ratio ? [src.ratio.name] : [])]
  const body = xs.map((x, i) => [
    String(x),
    ...series.map(s => {
      const r = s.rows[i]
      if (!r || !r.samples.length) return r && r.failures ? `failed (${r.failures})` : '–'
      const iqr = r.samples.length > 1 ? ` (${seconds(r.q1)}–${seconds(r.q3)})` : ''
      const n = r.repeatsGot < r.repeatsAsked ? ` n=${r.repeatsGot}` : ''
      return `${seconds(r.median)}${iqr}${n}${r.failures ? `, ${r.failures} failed` : ''}`
    }),
    ...ratios.map(r => r.values[i] === null ? '–' : `${r.values[i].toFixed(2)}×`),
    ...src.series.map(s => s.values[i] === null ? '–' : String(s.values[i])),
    ...(src.ratio ? [src.ratio.values[i] === null ? '–' : `${src.ratio.values[i].toFixed(2)}×`] : [])
  ])
  return { head, body }
}

// Every measured row against the physical lower bound of its workload on
// its network (bench/report/runner/bounds.js): what no protocol could beat, how close the
// measurement came, and the bound's larger part. A row below its bound says
// INSTRUMENT ERROR there, not a percentage.
function boundsTable (experiment, rows) {
  const multi = multiNetwork(rows)
  const multiB = multiBrowsers(rows)
  const body = rows.filter(r => r.samples.length).map(r => {
    const c = closeness(r, experiment.kind)
    if (!c) return null
    return [String(paramOf(r, experiment.sweep.param)), seriesName(r, multi, multiB), seconds(r.median), seconds(c.boundMs),
      c.instrumentError ? 'INSTRUMENT ERROR' : `${Math.round(c.ofBound * 100)} %`, c.dominant, measuredCost(r, experiment.kind)]
  }).filter(Boolean)
  return body.length ? { head: [experiment.sweep.label, 'series', 'measured (s)', 'lower bound (s)', 'bound / measured', "the bound's larger part", 'dominant cost (measured)'], body } : null
}

// The client whose CPU a row's costs name: its load tool, or its browser.
const clientOf = row => row.load && row.load.tool ? row.load.tool : row.browser === 'firefox' ? 'Firefox' : 'Chromium'
// The transport a row's loss was recovered by: QUIC where it spoke HTTP/3.
const transportOf = row => row.protocol === 'h3' ? 'quic' : 'tcp'

// The dominant cost a row's measured costs name (bench/report/runner/costs.js), '–' where none were measured.
function measuredCost (row, kind) {
  if (!row.costs) return '–'
  const d = dominantCost(row.costs, boundOf(row, kind), clientOf(row), timedMsOf(row), transportOf(row))
  return d ? d.dominant + (d.cpuShaped ? ' (CPU-SHAPED: the machine, not HTTP)' : '') : '–'
}

// A row's flags for the claims resting on it, [{ kind, detail }]: its runs drift, or the machine's CPU shaped it.
function rowFlags (row, kind) {
  const flags = []
  const d = row.samples && row.samples.length ? drift(row.samples, RULES) : null
  if (d && d.drifting) flags.push({ kind: 'drifts', detail: `each run ${d.direction} than the last, Mann-Kendall p = ${d.p.toFixed(3)}` })
  const c = row.costs && row.samples.length ? dominantCost(row.costs, boundOf(row, kind), clientOf(row), timedMsOf(row), transportOf(row)) : null
  if (c && c.cpuShaped) flags.push({ kind: 'CPU-shaped (the machine, not HTTP: see the CPU-shaped cells above)', detail: '' })
  return flags
}

// Every row whose measured costs say the machine's CPU shaped it (costs.js:
// client or server CPU busy 80 % of its time or more), one line each; the
// ratios and verdicts built on them describe this machine's CPU as much as HTTP.
function cpuShapedCells (experiment, rows) {
  const multi = multiNetwork(rows)
  const multiB = multiBrowsers(rows)
  return rows.filter(r => r.costs && r.samples.length).map(r => {
    const d = dominantCost(r.costs, boundOf(r, experiment.kind), clientOf(r), timedMsOf(r), transportOf(r))
    return d && d.cpuShaped ? `${experiment.id}, ${experiment.sweep.label} ${paramOf(r, experiment.sweep.param)}, ${seriesName(r, multi, multiB)}: ${d.dominant}` : null
  }).filter(Boolean)
}

// Every row whose runs drift by the verdict engine's trend test (Mann-Kendall
// over the runs in the order they ran, p < RULES.driftP), one line each: its
// median is no steady state, and the ratios and verdicts built on it are
// qualified by that (a verdict that compares it says so in its flags too).
const change = xs => { const c = (xs[xs.length - 1] / xs[0] - 1) * 100; return `${c > 0 ? '+' : ''}${c.toFixed(Math.abs(c) < 10 ? 1 : 0)} %` }
function driftingCells (experiment, rows) {
  const multi = multiNetwork(rows)
  const multiB = multiBrowsers(rows)
  return rows.filter(r => r.samples.length).map(r => {
    const d = drift(r.samples, RULES)
    if (!d.drifting) return null
    return `${experiment.id}, ${experiment.sweep.label} ${paramOf(r, experiment.sweep.param)}, ${seriesName(r, multi, multiB)}: ` +
      `each run ${d.direction} than the last (${r.samples.map(seconds).join(', ')} s, in the order they ran, ${change(r.samples)} from the first to the last; Mann-Kendall p = ${d.p.toFixed(3)})`
  }).filter(Boolean)
}

// Every row measured below its bound, one line each: "rest, 500 items, h2 compound · chromium: INSTRUMENT ERROR: …".
function instrumentErrors (experiment, rows) {
  const multi = multiNetwork(rows)
  const multiB = multiBrowsers(rows)
  return rows.filter(r => r.samples.length).map(r => {
    const c = closeness(r, experiment.kind)
    return c && c.instrumentError ? `${experiment.id}, ${experiment.sweep.label} ${paramOf(r, experiment.sweep.param)}, ${seriesName(r, multi, multiB)}: ${c.instrumentError}` : null
  }).filter(Boolean)
}

const times = v => v === null ? '–' : `${v >= 10 ? v.toFixed(1) : v.toFixed(2)}×`

// Every row against its baseline by the verdict engine (compare-rows.js): the
// baseline's median over the row's (above 1: the row is faster), its 95 %
// interval, the good runs of each side, and the verdict with its flags.
function comparisonsTable (experiment, rows) {
  const multi = multiNetwork(rows)
  const multiB = multiBrowsers(rows)
  const body = rows.filter(r => r.comparison).map(r => {
    const c = r.comparison
    const flags = [c.failed[0] || c.failed[1] ? `failed runs left out: ${c.failed[0]} and ${c.failed[1]}` : null, ...c.flags].filter(Boolean)
    return [String(paramOf(r, experiment.sweep.param)), seriesName(r, multi, multiB), c.against, times(c.ratio),
      c.low === null ? '–' : `${times(c.low)}–${times(c.high)}`, `${c.runs[0]} / ${c.runs[1]}`, c.verdict + (flags.length ? ` (${flags.join('; ')})` : '')]
  })
  return body.length ? { head: [experiment.sweep.label, 'series', 'against', 'its time ÷ the series\'', '95 % interval', 'good runs', 'verdict'], body } : null
}

// Each row against its baseline, where their runs met the link's seeds (pairing.js): the spread of the
// per-repeat ratio within a seed (paired) and across seeds (as unpaired), and what pairing removed.
function pairingTable (experiment, rows) {
  const multi = multiNetwork(rows)
  const multiB = multiBrowsers(rows)
  const spread = v => v === null ? '–' : v.toFixed(3)
  // A link that decides nothing at random (no loss, jitter, …) gives every seed the same packets: no row to pair.
  const body = rows.filter(r => r.comparison && r.linkSeeds && randomEffects(r.linkSpec).length).map(r => {
    const base = rows.find(q => q !== r && q.cell === r.cell && q.network === r.network && q.browser === r.browser && `${q.lane}${q.mode ? ` ${q.mode}` : ''}` === r.baseline)
    const p = pairingOf(base, r)
    if (!p) return null
    return [String(paramOf(r, experiment.sweep.param)), seriesName(r, multi, multiB), r.baseline, String(p.n), spread(p.within), spread(p.across),
      p.removed === null ? (p.n ? '–' : 'unpaired run: no seed shared') : `${Math.round(p.removed * 100)} %`]
  }).filter(Boolean)
  return body.length ? { head: [experiment.sweep.label, 'series', 'against', 'repeats on a shared seed', 'spread paired (sd of ln ratio)', 'spread across seeds (as unpaired)', 'pairing removed'], body } : null
}

module.exports = { rowFlags, tableOf, boundsTable, instrumentErrors, comparisonsTable, cpuShapedCells, driftingCells, pairingTable }

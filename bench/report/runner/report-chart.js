'use strict'

// The chart of an experiment in report.html: which lines (our series and the
// source's), in which colours and dashes; bench/report/chart/line-chart.js draws it.
const { measured } = require('./conclusions')
const { seriesOf, sourceSeries } = require('./report-series')
const { sweepChart } = require('../chart/line-chart')

const COLORS = ['#c2571a', '#2563a6', '#2f8a4c', '#8b5cf6', '#b91c1c', '#0e7490', '#a16207', '#475569', '#db2777', '#65a30d', '#0891b2', '#7c2d12']
// One colour per lane in every chart; a lane's other modes (push/request,
// another tool) share it with a dotted line; other series take the rest.
const LANE_COLORS = { h1: COLORS[0], h2: COLORS[1], h2n: COLORS[2], h3: COLORS[3], h2e: COLORS[4] }

// An experiment's chart: time (s) against the swept parameter (one tick per
// cell), one line per lane (and mode), the source's lines dashed.
// Logarithmic when the values span more than 30×, as the request-count
// sweeps do.
function svgChart (experiment, rows) {
  const { xs, series } = seriesOf(experiment, rows)
  const ours = series.map(s => ({ name: s.name, values: s.rows.map(r => r && measured(r) ? r.median / 1000 : null) }))
  const all = [...ours, ...sourceSeries(experiment, xs).series.map(s => ({ ...s, source: true }))]
  const others = COLORS.filter(c => !Object.values(LANE_COLORS).includes(c))
  const DASHES = ['', '2 3', '8 3 2 3', '1 2']
  const perLane = new Map() // a lane's series so far: its first solid, the next dotted, dash-dotted …
  let spare = 0
  const lines = all.map(s => {
    const lane = s.name.split(' ')[0]
    const known = !s.source && LANE_COLORS[lane]
    const color = known ? LANE_COLORS[lane] : others[spare++ % others.length]
    const k = known ? (perLane.get(lane) || 0) : 0
    if (known) perLane.set(lane, k + 1)
    const dash = s.source ? '5 4' : DASHES[k % DASHES.length]
    return { label: `${s.name}${s.source ? ' (dashed)' : ''}`, values: s.values, color, dash, marker: s.source ? 2 : 3 }
  })
  return sweepChart({ xs, series: lines, xLabel: experiment.sweep.label, ariaLabel: `${experiment.id}: time against ${experiment.sweep.label}` })
}

module.exports = { svgChart }

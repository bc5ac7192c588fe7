'use strict'

// The result rows of an experiment as the report shows them: seconds, the
// name of each series (lane and mode; the network and browser when rows
// have several) and the series by swept value, ours and the source's.
const { paramOf, cellParams } = require('../../cells/helpers')

// ms → "0.512" (seconds; three decimals below 10 s).
const seconds = ms => ms === null || ms === undefined ? '–' : (ms / 1000).toFixed(ms < 10000 ? 3 : 2)
// mode=none in the browser means the page requests its scripts.
const modeName = mode => mode === 'none' ? 'request' : mode
// A row's network; rows of runs before the link have none: all DevTools.
const networkOf = r => r.network || 'devtools'
const NETWORK_NAMES = { devtools: 'DevTools throttling (request-level)', link: 'packet-level link' }
// With rows of both networks, each series says which ("h1 · link").
const multiNetwork = rows => new Set(rows.map(networkOf)).size > 1
// A row's browser; rows of runs before Firefox have none: all Chromium.
const browserOf = r => r.browser || 'chromium'
// With rows of more than one browser, each series says which ("h2 separate · firefox").
const seriesName = (r, multi = false, multiBrowser = false) => `${r.mode ? `${r.lane} ${modeName(r.mode)}` : r.lane}${multi ? ` · ${networkOf(r)}` : ''}${multiBrowser ? ` · ${browserOf(r)}` : ''}`
const multiBrowsers = rows => new Set(rows.map(browserOf)).size > 1
// The rows an experiment's main table and chart show (all, unless it says: rest shows the source's lanes).
const mainRows = (experiment, rows) => experiment.mainRows ? experiment.mainRows(rows) : rows

// For one experiment: the swept values, and per lane (and mode) its rows
// by cell.
function seriesOf (experiment, all) {
  const rows = mainRows(experiment, all)
  const xs = experiment.cells.map(cell => paramOf({ params: cellParams(cell), preset: cell.preset }, experiment.sweep.param))
  const multi = multiNetwork(rows)
  const multiB = multiBrowsers(rows)
  const names = [...new Set(rows.map(r => seriesName(r, multi, multiB)))]
  const series = names.map(name => ({
    name,
    rows: experiment.cells.map((c, i) => rows.find(r => r.cell === i && seriesName(r, multi, multiB) === name) || null)
  }))
  return { xs, series }
}

// The source's table as series of seconds, and its ratio as the report
// shows ours (h2/h1, push/request); null where our cell is not the source's
// (a smoke run's tiny cells).
function sourceSeries (experiment, xs) {
  if (!experiment.source) return { series: [], ratio: null }
  const s = experiment.source
  const same = i => s.x[i] === xs[i]
  const named = s.series || { h1: s.h1, h2: s.h2 }
  const series = Object.entries(named).map(([name, values]) => ({ name: `source ${name}`, values: xs.map((x, i) => same(i) ? values[i] : null) }))
  const [a, b] = s.series ? [named['push (total)'], named['request (total)']] : [s.h2, s.h1]
  const ratio = a && b ? { name: s.series ? 'source push/request' : 'source h2/h1', values: xs.map((x, i) => same(i) ? a[i] / b[i] : null) } : null
  return { series, ratio }
}

module.exports = { seconds, networkOf, NETWORK_NAMES, multiNetwork, seriesName, multiBrowsers, seriesOf, sourceSeries }

'use strict'

// The runner's outputs: results.json, results.csv, report.md and a
// self-contained report.html (inline SVG charts, no external resources).
// Everything here is computed from the result rows, so a report can be
// rebuilt from a results.json alone (with the experiment definitions).
// One file per output (report-csv.js, report-markdown.js, report-html.js
// with report-chart.js); what the two reports share: report-sections.js,
// report-tables.js, report-verdicts.js, report-series.js.
const fs = require('node:fs')
const path = require('node:path')
const { toCsv, CSV_COLUMNS } = require('./report-csv')
const { toMarkdown } = require('./report-markdown')
const { toHtml } = require('./report-html')
const { svgChart } = require('./report-chart')
const { verdicts } = require('./report-verdicts')
const { tableOf } = require('./report-tables')

function writeOutputs (dir, report) {
  fs.mkdirSync(dir, { recursive: true })
  const json = { environment: report.environment, results: report.results }
  fs.writeFileSync(path.join(dir, 'results.json'), JSON.stringify(json, null, 2) + '\n')
  fs.writeFileSync(path.join(dir, 'results.csv'), toCsv(report.results))
  fs.writeFileSync(path.join(dir, 'report.md'), toMarkdown(report))
  fs.writeFileSync(path.join(dir, 'report.html'), toHtml(report))
  return json
}

module.exports = { writeOutputs, toCsv, toMarkdown, toHtml, svgChart, verdicts, tableOf, CSV_COLUMNS }

'use strict'

// npm run bench:page (bin/h2bench-page-cost.js): the browser CPU of the page's measuring path against a bare
// fetch() of the same URLs, per lane. What it measures: bench/page-cost/page-cost.js; its figures and study:
// bench/report/page-cost/report.js.
const fs = require('node:fs')
const { measure, parsePageCostArgs, HELP } = require('../page-cost/page-cost')
const { formatPageCost, summarise, readStudy, writeStudy } = require('../report/page-cost/report')

async function main (argv) {
  const opts = parsePageCostArgs(argv)
  if (opts.help) {
    process.stdout.write(HELP + '\n')
    return 0
  }
  const log = line => process.stderr.write(line + '\n')
  const print = record => process.stdout.write((opts.json ? JSON.stringify({ ...record, summary: summarise(record) }, null, 2) : formatPageCost(record)) + '\n')
  if (opts.from) { // measure nothing: the study again from its results.json
    const record = readStudy(opts.from)
    log(`bench:page: wrote ${writeStudy(opts.out, record).join(' and ')} from ${opts.from}`)
    print(record)
    return 0
  }
  // Where the study goes is checked before minutes of measuring, not after.
  if (opts.out) fs.mkdirSync(opts.out, { recursive: true })
  const record = await measure(opts, argv, log)
  if (opts.out) log(`bench:page: wrote ${writeStudy(opts.out, record).join(' and ')}`)
  print(record)
  return 0
}

module.exports = { main }

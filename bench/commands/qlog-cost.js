'use strict'

// npm run bench:qlog-cost (bin/h2bench-qlog-cost.js): what the edge's qlog costs the h3 lane. What it
// measures: bench/qlog-cost/qlog-cost.js; its figures and study: bench/report/qlog-cost/report.js.
const fs = require('node:fs')
const { measure, parseQlogCostArgs, HELP } = require('../qlog-cost/qlog-cost')
const { resultOf, formatQlogCost, readStudy, writeStudy } = require('../report/qlog-cost/report')

async function main (argv) {
  const opts = parseQlogCostArgs(argv)
  if (opts.help) {
    process.stdout.write(HELP + '\n')
    return 0
  }
  const log = line => process.stderr.write(line + '\n')
  const print = result => process.stdout.write((opts.json ? JSON.stringify(result, null, 2) : formatQlogCost(result)) + '\n')
  if (opts.from) { // measure nothing: the study again from its results.json
    const result = readStudy(opts.from)
    log(`bench:qlog-cost: wrote ${writeStudy(opts.out, result).join(' and ')} from ${opts.from}`)
    print(result)
    return 0
  }
  // Where the study goes is checked before minutes of measuring, not after.
  if (opts.out) fs.mkdirSync(opts.out, { recursive: true })
  const started = new Date()
  const runs = await measure(opts, log)
  const result = resultOf({ argv, opts, runs, started })
  if (opts.out) log(`bench:qlog-cost: wrote ${writeStudy(opts.out, result).join(' and ')}`)
  print(result)
  return 0
}

module.exports = { main }

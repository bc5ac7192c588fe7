'use strict'

// npm run bench:page (bin/h2bench-page-cost.js): the browser CPU of the page's measuring path against a bare
// fetch() of the same URLs, per lane. What it measures: bench/page-cost/page-cost.js; its figures:
// bench/report/page-cost/report.js.
const { measure, parsePageCostArgs, HELP } = require('../page-cost/page-cost')
const { formatPageCost, summarise } = require('../report/page-cost/report')

async function main (argv) {
  const opts = parsePageCostArgs(argv)
  if (opts.help) {
    process.stdout.write(HELP + '\n')
    return 0
  }
  const log = line => process.stderr.write(line + '\n')
  const record = await measure(opts, argv, log)
  if (opts.json) process.stdout.write(JSON.stringify({ ...record, summary: summarise(record) }, null, 2) + '\n')
  else process.stdout.write(formatPageCost(record) + '\n')
  return 0
}

module.exports = { main }

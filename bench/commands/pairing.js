'use strict'

// npm run bench:pairing (bin/h2bench-pairing.js): how much of the spread of an h1 ÷ h3 ratio pairing
// the link's seeds removes. What it measures: bench/pairing/pairing.js; its reading and report:
// bench/report/pairing/ (report.js analysed, report).
const fs = require('node:fs')
const path = require('node:path')
const { options, measure, HELP } = require('../pairing/pairing')
const { report, analysed } = require('../report/pairing/report')
const { readResults, writeStudyFiles } = require('../report/study-files')

async function main (argv, { entry } = {}) {
  const o = options(argv)
  if (o.help) {
    console.log(HELP)
    return 0
  }
  if (o.from) { // run nothing: the report again from a results.json, beside it
    const record = readResults(o.from)
    fs.writeFileSync(path.join(path.dirname(o.from), 'report.md'), report(record))
    process.stdout.write(report(record))
    return 0
  }
  const log = line => process.stderr.write(`${line}\n`)
  const measured = await measure(o, argv, { entry, log })
  if ('code' in measured) return measured.code
  const record = analysed(measured)
  const text = report(record)
  process.stdout.write(text)
  if (o.out) log(`wrote ${writeStudyFiles(o.out, record, text)[0]} and report.md`)
  return 0
}

module.exports = { main }

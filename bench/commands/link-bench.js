'use strict'

// npm run bench:link (bin/h2bench-link-bench.js): the packet-level link's forwarder against the kernel's
// path and a Python one. What it measures: bench/link-bench/link-bench.js; the study it writes (and
// --from writes again): bench/report/link-bench/study.js.
const fs = require('node:fs')
const path = require('node:path')
const { measureLinkBench, parseOptions, commandOf, HELP } = require('../link-bench/link-bench')
const { formatRecord, readStudy, writeStudy } = require('../report/link-bench/study')

const log = msg => process.stderr.write(`${msg}\n`)

// The record on stdout: the JSON, or the tables.
const print = (record, json) => console.log(json ? JSON.stringify(record, null, 2) : formatRecord(record))

// --from: the study again from its record, measuring nothing.
function rebuild (opts) {
  const record = readStudy(opts.from, { commandOf })
  const files = writeStudy(opts.out || path.dirname(opts.from), record)
  if (opts.save) fs.writeFileSync(opts.save, `${JSON.stringify(record, null, 2)}\n`)
  log(`bench:link: wrote ${files.join(' and ')} from ${opts.from}`)
  print(record, opts.json)
}

async function main (argv, { entry } = {}) {
  const opts = parseOptions(argv)
  if (opts.help) {
    console.log(HELP)
    return
  }
  if (opts.from) return rebuild(opts)
  if (opts.out) fs.mkdirSync(opts.out, { recursive: true }) // where the study goes is checked before minutes of measuring
  const measured = await measureLinkBench(opts, argv, { entry, log })
  if ('code' in measured) return measured.code
  const { record } = measured
  if (opts.save) fs.writeFileSync(opts.save, `${JSON.stringify(record, null, 2)}\n`)
  if (opts.out) log(`bench:link: wrote ${writeStudy(opts.out, record).join(' and ')}`)
  print(record, opts.json)
}

module.exports = { main }

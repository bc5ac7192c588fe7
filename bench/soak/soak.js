#!/usr/bin/env node
'use strict'

// npm run soak: mixed page batches against every lane, continuously, in
// headless Chromium, while the server (its own process, bench/soak-server.js)
// reports its RSS, open fds and event-loop delay; ends with a verdict: RSS and
// fds flat after the warm-up (bench/soak-trend.js), zero failed requests.
// Its command line: soak-args.js; one run: soak-run.js (the load:
// soak-workload.js; the samples: soak-samples.js; the result:
// soak-result.js); what it prints and writes: soak-report.js.
const path = require('node:path')
const { parseSoakArgs, UsageError, HELP } = require('./soak-args')
const { WORKLOADS } = require('./soak-workload')
const { soak } = require('./soak-run')
const { SIGNALS } = require('./soak-result')
const { formatReport, writeOutputs } = require('./soak-report')

async function main (argv) {
  let opts
  try {
    opts = parseSoakArgs(argv)
  } catch (err) {
    if (!(err instanceof UsageError)) throw err
    process.stderr.write(`soak: ${err.message}\n`)
    return 2
  }
  if (opts.help) {
    process.stdout.write(HELP + '\n')
    return 0
  }
  opts.argv = argv
  const log = line => process.stderr.write(line + '\n')
  // Ctrl-C (or SIGTERM): stop the load, take a last sample, report, close the
  // browser and the server. Another one, a second or more later: end now.
  // (Under npm run, one Ctrl-C arrives twice: from the terminal and
  // forwarded by npm.)
  let signalled = null
  let signalledAt = 0
  let stopLoadRef = null
  const onSignal = signal => {
    if (signalled) {
      if (Date.now() - signalledAt < 1000) return
      log(`${signal} again: ending without a report`)
      process.exit(130)
    }
    signalled = signal
    signalledAt = Date.now()
    log(`\n${signal}: stopping the load; reporting what was measured (again to end at once)`)
    if (stopLoadRef) stopLoadRef(signal)
  }
  for (const s of SIGNALS) process.on(s, onSignal)
  const result = await soak(opts, log, fn => { stopLoadRef = fn; if (signalled) fn(signalled) })
  const report = formatReport(result)
  if (opts.json) {
    log(report)
    process.stdout.write(JSON.stringify(result, null, 2) + '\n')
  } else {
    process.stdout.write(report + '\n')
  }
  if (opts.out) {
    const dir = path.resolve(opts.out)
    const files = writeOutputs(dir, result)
    log(`wrote ${path.relative(process.cwd(), dir) || '.'}/{${files.join(',')}}`)
  }
  if (result.interrupted) return 130
  return result.verdict.pass ? 0 : 1
}

if (require.main === module) {
  main(process.argv.slice(2)).then(code => { process.exitCode = code }, err => {
    process.stderr.write(`soak: ${err.message}\n`)
    process.exitCode = 1
  })
}

module.exports = { main, parseSoakArgs, UsageError, WORKLOADS, HELP }

'use strict'

// npm run soak (bin/h2bench-soak.js): mixed page batches against every lane, continuously, in
// headless Chromium, while the server (its own process, bench/soak/soak-server.js) reports its RSS,
// open fds and event-loop delay; ends with a verdict: RSS and fds flat after the warm-up
// (bench/report/soak/soak-trend.js), zero failed requests. What it measures: bench/soak/ (the command
// line: soak-args.js; one run: soak-run.js; the load: soak-workload.js; the samples: soak-samples.js;
// the result: soak-result.js). What it reads and writes of that: bench/report/soak/ (the verdict:
// soak-rebuild.js judged; the report: soak-report.js; --from, a finished soak judged again).
const path = require('node:path')
const { parseSoakArgs, HELP } = require('../soak/soak-args')
const { signalExitCode } = require('../../common/cli')
const { soak } = require('../soak/soak-run')
const { SIGNALS } = require('../soak/soak-result')
const { formatReport, writeOutputs } = require('../report/soak/soak-report')
const { rebuildSoak, judged } = require('../report/soak/soak-rebuild')

// The report (stdout, or stderr with --json and the result on stdout), and
// the files when --out names a directory.
function output (opts, result, log) {
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
}

// → the exit code (common/cli.js): 0 pass, 1 fail, 128 + n when signal n interrupted it.
async function main (argv) {
  const opts = parseSoakArgs(argv) // UsageError: one line, exit 2
  if (opts.help) {
    process.stdout.write(HELP + '\n')
    return 0
  }
  opts.argv = argv
  const log = line => process.stderr.write(line + '\n')
  if (opts.from) {
    const result = rebuildSoak(opts.from) // UsageError for a missing or foreign file
    output(opts, result, log)
    return result.verdict.pass ? 0 : 1
  }
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
      process.exit(signalExitCode(signal))
    }
    signalled = signal
    signalledAt = Date.now()
    log(`\n${signal}: stopping the load; reporting what was measured (again to end at once)`)
    if (stopLoadRef) stopLoadRef(signal)
  }
  for (const s of SIGNALS) process.on(s, onSignal)
  const result = judged(await soak(opts, log, fn => { stopLoadRef = fn; if (signalled) fn(signalled) }))
  output(opts, result, log)
  if (result.interrupted) return signalExitCode(result.interrupted)
  return result.verdict.pass ? 0 : 1
}

module.exports = { main }

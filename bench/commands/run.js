'use strict'

// npm run bench (bin/h2bench-run.js): the runner's command. What it measures: bench/runner/run.js (the
// cells of the asked experiments, network by network and browser by browser); what it writes of that:
// bench/report/runner/ (report.js; --from: rebuild.js; --merge: merge.js; results.json's schema:
// results-schema.js, docs/runner.md). This room (bench/commands/) is the one that joins the two.
const path = require('node:path')
const { parseRunArgs, HELP } = require('../runner/run-args')
const { prepare, run } = require('../runner/run')
const { formatDuration } = require('../cells/budget')
const { merge } = require('../report/runner/merge')
const { rebuild } = require('../report/runner/rebuild')
const { withRatios } = require('../report/runner/conclusions')
const { writeOutputs } = require('../report/runner/report')
const { validateResults } = require('../report/runner/results-schema')

// → the exit code (common/cli.js); `entry`: the script that was started (bin/h2bench-run.js),
// which starts itself again in its private namespace.
async function main (argv, { entry } = {}) {
  const opts = parseRunArgs(argv) // UsageError: one line, exit 2
  if (opts.help) {
    process.stdout.write(HELP + '\n')
    return 0
  }
  if (opts.from) return rebuild(opts)
  if (opts.merge) return merge(opts)
  const ready = await prepare(opts, argv, { entry })
  if ('code' in ready) return ready.code
  const { out, log } = ready
  const measured = await run(opts, log)
  const report = { ...measured, results: withRatios(measured.results) }
  const json = writeOutputs(out, report)
  log(`done in ${formatDuration(report.environment.durationSeconds * 1000)}; wrote ${path.relative(process.cwd(), out) || '.'}/{results.json,results.csv,report.md,report.html}`)
  if (opts.json) process.stdout.write(JSON.stringify(json, null, 2) + '\n')
  // A bug here must not pass for a result: say so, after writing what there is.
  const problems = validateResults(json)
  if (problems.length) {
    log(`results.json does not match its schema (docs/runner.md):\n  ${problems.slice(0, 20).join('\n  ')}`)
    return 1
  }
  return 0
}

module.exports = { main }

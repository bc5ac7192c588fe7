'use strict'

// npm run bench -- --from results.json: a finished run's outputs again.
const fs = require('node:fs')
const path = require('node:path')
const { select } = require('../../experiments')
const { withRatios } = require('./conclusions')
const { writeOutputs } = require('./report')
const { validateResults } = require('./results-schema')

// --from: the outputs of a finished run again, from its results.json (after
// a change to the report, say); the experiments are this checkout's.
function rebuild (opts) {
  let json
  try {
    json = JSON.parse(fs.readFileSync(opts.from, 'utf8'))
  } catch (err) {
    process.stderr.write(`h2bench-run: --from ${opts.from}: ${err.code === 'ENOENT' ? 'no such file' : err.message}\n`)
    return 2
  }
  const problems = validateResults(json)
  if (problems.length) {
    process.stderr.write(`h2bench-run: --from ${opts.from} is not a results.json of this version:\n  ${problems.slice(0, 10).join('\n  ')}\n`)
    return 2
  }
  const ids = [...new Set(json.results.map(r => r.experiment))]
  const experiments = select(ids, { smoke: json.environment.smoke, site: json.environment.site || null, replay: json.environment.replay || null })
  const out = path.resolve(opts.out || path.dirname(opts.from))
  writeOutputs(out, { environment: json.environment, results: withRatios(json.results), experiments })
  process.stderr.write(`rebuilt ${path.relative(process.cwd(), out) || '.'}/{results.json,results.csv,report.md,report.html} from ${opts.from}\n`)
  if (opts.json) process.stdout.write(JSON.stringify(json, null, 2) + '\n')
  return 0
}

module.exports = { rebuild }

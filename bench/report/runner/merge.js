'use strict'

// npm run bench -- merge <dir|results.json>… --out <dir>: the results.json of
// the n shards of one study (each run with --shard i/n, on any machines) joined
// into one results.json and report, the same as one run of the whole plan
// would write: its rows in the plan's order, ratios and verdicts computed
// over all of them. It refuses what would not be one study: shards of other
// code (the commit in environment.h2bench, with or without uncommitted
// changes) or other options (the command without its --shard and --out), a
// shard twice, a missing one, a run that was not a shard.
const fs = require('node:fs')
const path = require('node:path')
const { select } = require('../../experiments')
const { withRatios } = require('./conclusions')
const { writeOutputs } = require('./report')
const { validateResults } = require('./results-schema')
const { UserError } = require('../../../common/errors')

// What must be equal in every shard, by the environment's fields.
const SAME = ['h2bench', 'lanes', 'networks', 'browsers', 'repeats', 'budgetSeconds', 'smoke', 'linkSeed', 'pairedSeeds']

// The command a shard ran, without what differs between shards (--shard, --out, --json).
function commandOf (env) {
  return env.command.replace(/\s--shard(=|\s+)\S+/g, '').replace(/\s--out(=|\s+)\S+/g, '').replace(/\s--json\b/g, '').trim()
}

function readShard (where) {
  const file = fs.existsSync(where) && fs.statSync(where).isDirectory() ? path.join(where, 'results.json') : where
  let json
  try {
    json = JSON.parse(fs.readFileSync(file, 'utf8'))
  } catch (err) {
    throw new UserError(`merge: ${file}: ${err.code === 'ENOENT' ? 'no such file' : err.message}`, { status: 400 })
  }
  const problems = validateResults(json)
  if (problems.length) throw new UserError(`merge: ${file} is not a results.json of this version: ${problems.slice(0, 3).join('; ')}`, { status: 400 })
  if (!json.environment.shard) throw new UserError(`merge: ${file} is not a shard (its run had no --shard i/n)`, { status: 400 })
  return { file, json }
}

// The shards (results.json objects) → one results.json: { environment, results }. UserError when they are not one study.
function mergeShards (shards) {
  const [first] = shards
  const count = first.json.environment.shard.count
  const seen = new Map()
  for (const s of shards) {
    const env = s.json.environment
    for (const key of SAME) {
      if (JSON.stringify(env[key]) !== JSON.stringify(first.json.environment[key])) {
        throw new UserError(`merge: ${s.file} differs from ${first.file} in ${key} (${JSON.stringify(env[key])} against ${JSON.stringify(first.json.environment[key])}): shards must be one study, the same code and options`, { status: 400 })
      }
    }
    if (commandOf(env) !== commandOf(first.json.environment)) {
      throw new UserError(`merge: ${s.file} ran "${commandOf(env)}", ${first.file} "${commandOf(first.json.environment)}": shards must run the same command but for --shard`, { status: 400 })
    }
    if (env.shard.count !== count) throw new UserError(`merge: ${s.file} is a shard of ${env.shard.count}, ${first.file} of ${count}`, { status: 400 })
    if (seen.has(env.shard.index)) throw new UserError(`merge: shard ${env.shard.index} of ${count} twice (${seen.get(env.shard.index)} and ${s.file})`, { status: 400 })
    seen.set(env.shard.index, s.file)
  }
  const missing = Array.from({ length: count }, (_, i) => i + 1).filter(i => !seen.has(i))
  if (missing.length) throw new UserError(`merge: shard${missing.length > 1 ? 's' : ''} ${missing.join(', ')} of ${count} missing`, { status: 400 })
  // Rows in the plan's order; within a cell, as their run wrote them.
  const rows = shards.flatMap(s => s.json.results.map((row, i) => ({ row, i })))
  rows.sort((a, b) => a.row.planned - b.row.planned || a.i - b.i)
  const envs = shards.map(s => s.json.environment).sort((a, b) => a.shard.index - b.shard.index)
  const environment = { ...first.json.environment }
  delete environment.shard
  const start = Math.min(...envs.map(e => Date.parse(e.date)))
  Object.assign(environment, {
    date: new Date(start).toISOString(),
    // The study's span: from the first shard's start to the last one's end.
    durationSeconds: Math.round((Math.max(...envs.map(e => Date.parse(e.date) + e.durationSeconds * 1000)) - start) / 1000),
    command: commandOf(first.json.environment),
    machine: [...new Set(envs.map(e => e.machine || 'unknown'))].join(', '),
    shards: envs.map(e => ({
      index: e.shard.index,
      count: e.shard.count,
      machine: e.machine || null,
      date: e.date,
      durationSeconds: e.durationSeconds,
      cpu: e.cpu,
      cpus: e.cpus
    }))
  })
  // Ratios and comparisons again, over all the rows (a baseline may be in another shard).
  const results = withRatios(rows.map(({ row }) => row))
  return { environment, results }
}

// → the exit code.
function merge (opts) {
  const shards = opts.merge.map(readShard)
  const { environment, results } = mergeShards(shards)
  const ids = [...new Set(results.map(r => r.experiment))]
  const out = path.resolve(opts.out)
  const experiments = select(ids, { smoke: environment.smoke, site: environment.site || null, replay: environment.replay || null })
  const json = writeOutputs(out, { environment, results, experiments })
  process.stderr.write(`merged ${shards.length} shards (${results.length} rows) into ${path.relative(process.cwd(), out) || '.'}/{results.json,results.csv,report.md,report.html}\n`)
  if (opts.json) process.stdout.write(JSON.stringify(json, null, 2) + '\n')
  return validateResults(json).length ? 1 : 0
}

module.exports = { merge, mergeShards, commandOf }

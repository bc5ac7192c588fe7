'use strict'

// npm run bench:link as a study: results.json (the record a run returns: its
// environment names the command, the code, the machine and the date) and
// report.md, written from that record alone, so that
//   npm run bench:link -- --from <dir>/results.json --out <dir>
// writes the report again without measuring (after a change to the report,
// say). A record --save wrote before --out existed (its environment was
// `provenance` then) becomes a results.json with the same figures, its
// provenance kept as the environment and the command read from its options.
const path = require('node:path')
const { UsageError } = require('../../../common/errors')
const { readResults, writeStudyFiles } = require('../study-files')
const { formatTables } = require('../../link-bench/report')
const { EFFECTS, EFFECT_RATE_MBPS, formatEffects } = require('../../link-bench/effects')

const { TOOL } = require('../../link-bench/link-bench')

// The effects a record measured, as this checkout names them (one it no longer knows: its spec from the runs).
function effectsOf (record) {
  return (record.options.effects || []).map(id => EFFECTS.find(e => e.id === id) ||
    { id, spec: (record.runs.find(r => r.effect === id) || {}).spec || '', what: '(not an effect of this checkout)' })
}

// What a run prints: a line of provenance, the settings, and its tables.
function formatRecord (record) {
  const env = record.environment
  const o = record.options
  const load = env.loadAverage ? `  load ${env.loadAverage.join(' ')}` : ''
  return [
    `bench:link  ${env.date}  commit ${env.commit || '?'}  ${env.kernel}  ${env.cpu} × ${env.cpus}  node ${env.node}  ${env.python || 'no python3'}${load}`,
    `${o.repeats} run(s) of ${o.duration} s per cell (medians), after ${o.warmup} s of warm-up; goals: ≥ ${record.goals.maxMbps} Mbit/s, < ${record.goals.addedP99Ms} ms p99 added`,
    '',
    o.effects
      ? formatEffects({ runs: record.runs, effects: effectsOf(record), delayMs: o.delay })
      : formatTables({ paths: record.paths, summary: record.summary, rates: record.setup.offeredMbps, delayMs: o.delay })
  ].join('\n')
}

// report.md: what was measured, on what, when and with which code, then the tables as the run printed them.
function reportMarkdown (record) {
  const env = record.environment
  const o = record.options
  const names = record.paths.map(p => p.name)
  const what = o.effects
    ? [
        '# The packet-level link\'s forwarder: what each link effect costs it',
        '',
        `The C forwarder (\`link/forwarder/forwarder.c\`) with each of ${o.effects.length} link effects on in turn (up direction, on top of`,
        `${o.delay} ms configured each way), each beside the same repeat's run with nothing but the delay: a UDP flood of 1500-byte packets`,
        `(the most it moves with the effect on, and its CPU then) and paced UDP at ${EFFECT_RATE_MBPS} Mbit/s (the delay it adds).`
      ]
    : [
        '# The packet-level link\'s forwarder against the kernel\'s path and a Python one',
        '',
        `${names.join(', ')}: the most each moves of 1500-byte packets with nothing emulated (a TCP bulk transfer and a UDP`,
        `flood), with the forwarder's CPU, and the delay each adds beyond ${o.delay} ms configured each way under paced UDP of`,
        `${record.setup.offeredMbps.join(', ')} Mbit/s.`
      ]
  const machine = [`${env.cpu} × ${env.cpus}`, env.memoryGiB === undefined ? null : `${env.memoryGiB} GiB`, env.os || env.kernel].filter(Boolean).join(', ')
  return [
    ...what,
    '',
    `- Measured: ${env.date}, \`${env.command}\``,
    `- Code: h2bench ${env.h2bench}`,
    `- Machine: ${machine}; Node ${env.node}, ${env.python || 'no python3'}${env.loadAverage ? `; load average ${env.loadAverage.join(' ')} at the start` : ''}`,
    `- ${o.repeats} run${o.repeats === 1 ? '' : 's'} of ${o.duration} s per measurement and path, after ${o.warmup} s of warm-up; the tables give the medians over the runs` +
      ' (results.json has the range and every run)',
    ...(record.converted ? [`- ${record.converted.note}`] : []),
    '',
    'What the figures are and how they are taken: `docs/link-bench.md`. Written from `results.json` alone:',
    '`npm run bench:link -- --from results.json` writes this report again without measuring.',
    '',
    '```',
    formatRecord(record),
    '```',
    ''
  ].join('\n')
}

// A record → a study's record: `environment` and `tool` first; one --save wrote before (with `provenance`)
// converted, its provenance the environment and its command `commandOf(its options)` (link-bench.js's, which
// knows the defaults). `from`: where it was read.
function studyRecord (json, { from = 'the record', commandOf }) {
  if (!json || typeof json !== 'object') throw new UsageError(`--from ${from}: not a bench:link record`)
  const missing = ['options', 'goals', 'setup', 'paths', 'summary', 'runs'].filter(k => json[k] === undefined)
  const env = json.environment || json.provenance
  if (!env) missing.unshift('environment')
  if (missing.length) throw new UsageError(`--from ${from} is not a bench:link record (missing ${missing.join(', ')})`)
  if (json.environment) return json
  const { provenance, ...rest } = json
  const command = commandOf(json.options)
  return {
    tool: TOOL,
    environment: { ...provenance, command },
    converted: {
      from: from.split(path.sep).join('/'),
      note: `Converted from ${from.split(path.sep).join('/')}, which \`--save\` wrote before \`--out\` existed: the same record, its provenance the environment; the command read from its options.`
    },
    ...rest
  }
}

// The record at `file` (a results.json, or a record --save wrote), as a study's.
function readStudy (file, { commandOf }) {
  return studyRecord(readResults(file), { from: file, commandOf })
}

// <dir>/results.json and <dir>/report.md; → their paths.
const writeStudy = (dir, record) => writeStudyFiles(dir, record, reportMarkdown(record))

module.exports = { TOOL, formatRecord, reportMarkdown, studyRecord, readStudy, writeStudy }

'use strict'

// npm run bench:qlog-cost's figures as text, and as a study: results.json
// (what a run returns: its environment names the command, the code, the
// machine and the date; each workload's figures and every pair's runs) and
// report.md, written from that record alone, so that
//   npm run bench:qlog-cost -- --from <dir>/results.json --out <dir>
// writes the report again without measuring.
const { UsageError } = require('../../../common/errors')
const { readResults, writeStudyFiles } = require('../study-files')
const { quantile } = require('../../../shared/stats')
const { environmentRecord, gitCommit } = require('../../../harness/provenance')
const { commandLine } = require('../../../common/cli')

const TOOL = 'h2bench qlog cost'

// `npm run bench:qlog-cost -- …` for the arguments as run.
const commandLineOf = argv => commandLine('npm run bench:qlog-cost', argv)

const median = xs => xs.length ? quantile(xs, 0.5) : null
const r3 = x => x === null ? null : +x.toFixed(3)

// A workload's figures: medians per side, and on ÷ off per pair (median, min, max).
function summarise ({ label, pairs }) {
  const ratio = f => {
    const rs = pairs.map(p => f(p.on) / f(p.off)).filter(Number.isFinite)
    return { median: r3(median(rs)), min: r3(Math.min(...rs)), max: r3(Math.max(...rs)) }
  }
  return {
    label,
    pairs: pairs.length,
    timeMs: { off: r3(median(pairs.map(p => p.off.totalMs))), on: r3(median(pairs.map(p => p.on.totalMs))) },
    time: ratio(p => p.totalMs),
    serverCpuMs: { off: r3(median(pairs.map(p => p.off.serverCpuMs))), on: r3(median(pairs.map(p => p.on.serverCpuMs))) },
    serverCpu: ratio(p => p.serverCpuMs),
    qlogBytesPerRun: median(pairs.map(p => p.on.qlogBytes))
  }
}

// What a run returns (--json, results.json): the environment with the date and the command as run, each
// workload's figures and every pair's runs (measureWorkload's). `commit`: git's unless given.
function resultOf ({ argv, opts, runs, started, commit = gitCommit() }) {
  return {
    tool: TOOL,
    environment: { ...environmentRecord({ commit }), date: started.toISOString(), command: commandLineOf(argv) },
    repeats: opts.repeats,
    smoke: opts.smoke,
    workloads: runs.map(summarise),
    runs
  }
}

// What a run prints: the settings, the machine and a line a workload.
function formatQlogCost ({ environment, repeats, workloads }) {
  const lines = [
    `h2bench qlog cost: the h3 lane (Caddy) with its qlog on and off, in turn, ${repeats} pair${repeats === 1 ? '' : 's'} per workload, oha on loopback`,
    `System: Node ${environment.node}, ${environment.cpu} × ${environment.cpus}, ${environment.os}; h2bench ${environment.h2bench}`,
    ''
  ]
  for (const w of workloads) {
    const range = r => r.min === r.max ? '' : ` (pairs ${r.min.toFixed(2)}–${r.max.toFixed(2)}×)`
    lines.push(`${w.label}: time ${(w.timeMs.off / 1000).toFixed(3)} s off, ${(w.timeMs.on / 1000).toFixed(3)} s on: on ÷ off ${w.time.median.toFixed(2)}×${range(w.time)}; ` +
      `Caddy and the app's CPU ${(w.serverCpuMs.off / 1000).toFixed(2)} s off, ${(w.serverCpuMs.on / 1000).toFixed(2)} s on: ${w.serverCpu.median.toFixed(2)}×${range(w.serverCpu)}; ` +
      `qlog ${(w.qlogBytesPerRun / 1e6).toFixed(1)} MB a run`)
  }
  return lines.join('\n')
}

const ratio = (on, off) => off > 0 ? (on / off).toFixed(2) : '–'

// Every pair of every workload, as the run measured it (a record without them: none).
function pairsTable (runs = []) {
  const rows = runs.flatMap(w => w.pairs.map((p, i) => [
    w.label, i + 1, i % 2 ? 'on' : 'off',
    (p.off.totalMs / 1000).toFixed(3), (p.on.totalMs / 1000).toFixed(3), ratio(p.on.totalMs, p.off.totalMs),
    (p.off.serverCpuMs / 1000).toFixed(2), (p.on.serverCpuMs / 1000).toFixed(2), ratio(p.on.serverCpuMs, p.off.serverCpuMs),
    (p.on.qlogBytes / 1e6).toFixed(1)
  ]))
  if (!rows.length) return []
  return [
    'Every pair (the order alternates: off first in odd pairs, on first in even ones):',
    '',
    '| workload | pair | first | time off (s) | time on (s) | on ÷ off | CPU off (s) | CPU on (s) | on ÷ off | qlog (MB) |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
    ...rows.map(r => `| ${r.join(' | ')} |`),
    ''
  ]
}

// report.md: what was measured, on what, when and with which code, the figures as the run printed them, and every pair.
function reportMarkdown (result) {
  const env = result.environment
  return [
    '# What the edge\'s qlog costs the h3 lane',
    '',
    'The runner\'s load cells turn Caddy\'s qlog (QLOGDIR: quic-go writes a JSON record for every packet) on for the h3',
    'lane where their link can drop packets, to count QUIC\'s own recovery. This runs the same oha workloads on the h3 lane',
    'with the qlog on and off, in turn (the order alternating), on loopback, where Caddy\'s CPU is what limits, so any cost',
    'shows in full. Each ratio is the median of the pairs\' on ÷ off, with the range of the pairs; the times and CPU are the',
    'medians of each side. CPU: Caddy\'s and the lane\'s app\'s, over the run.',
    '',
    `- Measured: ${env.date || 'date not recorded'}, \`${env.command || 'npm run bench:qlog-cost'}\``,
    `- Code: h2bench ${env.h2bench}`,
    `- Machine: ${env.cpu} × ${env.cpus}${env.memoryGiB === undefined ? '' : `, ${env.memoryGiB} GiB`}, ${env.os}; Node ${env.node}`,
    `- ${result.repeats} pair${result.repeats === 1 ? '' : 's'} of runs per workload${result.smoke ? ' (--smoke: smaller workloads, to check that it works)' : ''}`,
    '',
    'Written from `results.json` alone: `npm run bench:qlog-cost -- --from results.json` writes this report again without',
    'measuring.',
    '',
    '```',
    formatQlogCost(result),
    '```',
    '',
    ...pairsTable(result.runs)
  ].join('\n')
}

// The record at `file`, a results.json this tool wrote.
function readStudy (file) {
  const json = readResults(file)
  const missing = ['environment', 'repeats', 'workloads'].filter(k => json[k] === undefined)
  if (json.tool !== TOOL || missing.length) {
    throw new UsageError(`--from ${file} is not a results.json of bench:qlog-cost (tool "${json.tool}"${missing.length ? `; missing ${missing.join(', ')}` : ''})`)
  }
  return json
}

// <dir>/results.json and <dir>/report.md; → their paths.
const writeStudy = (dir, result) => writeStudyFiles(dir, result, reportMarkdown(result))

module.exports = { TOOL, summarise, resultOf, formatQlogCost, reportMarkdown, readStudy, writeStudy }

'use strict'

// What the soak benchmark (bench/commands/soak.js) prints and writes: the table of
// samples per time bucket, the verdict in words, an SVG chart (no external
// resources) and report.md.
// The time buckets: soak-buckets.js; the chart: soak-chart.js.
const fs = require('node:fs')
const path = require('node:path')
const { quantile } = require('../../../shared/stats')
const { f, signed, int, clock } = require('../../soak/soak-format')
const { chartSvg } = require('./soak-chart')

function table (header, rows, alignLeft = 1) {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map(r => String(r[i]).length)))
  const line = cells => cells.map((c, i) => String(c)[i < alignLeft ? 'padEnd' : 'padStart'](widths[i])).join('  ').trimEnd()
  return [line(header), line(widths.map(w => '-'.repeat(w))), ...rows.map(line)].join('\n')
}

function bucketTable (rows, totals) {
  const fds = r => r.fdsMin === null ? '–' : r.fdsMin === r.fdsMax ? `${r.fdsMin}` : `${r.fdsMin}–${r.fdsMax}`
  return table(
    ['from', 'RSS MiB', 'observer', 'fds', 'loop p50 ms', 'p99 ms', 'max ms', 'batches', 'requests', 'failed'],
    [
      ...rows.map(r => [
        clock(r.from), f(r.rssMiB), f(r.rssObserverMiB), fds(r), f(r.loopP50, 2), f(r.loopP99, 1), f(r.loopMax, 1), int(r.batches), int(r.requests), r.failed
      ]),
      ['total', '', '', '', '', '', '', int(totals.batches), int(totals.requests), totals.failed]
    ])
}

function observersLine (o) {
  return `RSS and fds are read twice per sample: by the server itself (process.memoryUsage().rss, /proc/self/fd) and by ` +
    `this process (/proc/<pid>/status VmRSS, /proc/<pid>/fd). They ${o.agree ? 'agree' : 'DISAGREE'}: ` +
    `RSS differs by ${f(o.rssMedianAbsDiffMiB, 2)} MiB in the median sample (at most ${f(o.rssMaxAbsDiffMiB, 1)} MiB), ` +
    `fds by ${o.fdsMedianAbsDiff} (at most ${o.fdsMaxAbsDiff}).`
}

function trendLines (trend) {
  const { rss, fds } = trend
  if (!trend.enough) return [`Trend: only ${trend.samples} samples after the warm-up (${f(trend.warmupSeconds, 0)} s); no verdict on growth.`]
  return [
    `Warm-up: the first ${clock(trend.warmupSeconds)} (20 % of the run, at least 1 min for runs of 5 min or more) is left out of the trend.`,
    `RSS after it: ${f(rss.first)} → ${f(rss.last)} MiB (min ${f(rss.min)}, max ${f(rss.max)}, mean ${f(rss.mean)}); least-squares slope ` +
      `${signed(rss.slopePerMinute, 2)} MiB/min, growth over the ${f(rss.spanSeconds / 60)} min measured ${signed(rss.growth)} MiB ` +
      `(last half alone ${signed(rss.lateGrowth)} MiB); tolerance ${f(rss.toleranceMiB)} MiB (the larger of 5 % of the mean RSS and 16 MiB): ` +
      `${rss.flat ? 'flat' : 'GROWING'}`,
    `Open fds after it${fds.lessPool ? ', less the edge pool below' : ''}: ${fds.min}…${fds.max} (range ${fds.spread}, tolerance ${fds.tolerance}; slope ${signed(fds.slopePerMinute, 2)}/min): ` +
      `${fds.flat ? 'flat' : 'NOT FLAT'}${fds.sockets ? `; all sockets ${fds.sockets.min}…${fds.sockets.max}, other fds ${fds.others.min}…${fds.others.max}` : ''}` +
      `${trend.clients ? `; the browser's and other TCP connections ${trend.clients.min}…${trend.clients.max}` : ''}`,
    ...poolLines(trend)
  ]
}

// The edge pool and CLOSE_WAIT (soaks that counted sockets by owner).
function poolLines ({ pool, closeWait }) {
  if (!pool) return ['Sockets were not counted by owner in this run (the edge pool is among the fds above).']
  return [
    `Edge pool (connections Caddy holds to the edge lanes' apps) after it: ${pool.min}…${pool.max} (bound ${pool.bound}: ` +
      `${pool.withinBound ? 'within' : 'EXCEEDED'}); least-squares slope ${signed(pool.slopePerMinute, 2)}/min, growth over the ` +
      `${f(pool.spanSeconds / 60)} min ${signed(pool.growth)} (tolerance ${f(pool.growthTolerance, 0)}): ${pool.notGrowing ? 'not growing' : 'GROWING'}`,
    `Sockets in CLOSE_WAIT (the peer closed, the server has not) after it: ${closeWait.min}…${closeWait.max}; growth ` +
      `${signed(closeWait.growth)} (tolerance ${closeWait.growthTolerance}): ${closeWait.flat ? 'not growing' : 'GROWING'}`
  ]
}

function failureLines (result) {
  const lines = []
  for (const [lane, l] of Object.entries(result.perLane)) {
    const page = Object.entries(l.errors).map(([e, n]) => `${e} (${n}×)`).join(', ')
    const browser = Object.entries(l.browserErrors).map(([e, n]) => `${e} (${n}×)`).join(', ')
    lines.push(`${lane.padEnd(4)} ${int(l.batches)} batches, ${int(l.requests)} requests, ${f(l.bytes / 1e9, 2)} GB, ` +
      `${l.failed} failed${page ? `: ${page}` : ''}; Chromium requestfailed: ${browser || 'none'}` +
      `${l.protocolMismatches ? `; ${l.protocolMismatches} batches not all on ${l.protocol}` : ''}`)
  }
  const other = Object.entries(result.browserFailures.other || {})
  if (other.length) lines.push(`other origins (the page server): ${other.map(([e, n]) => `${e} (${n}×)`).join(', ')}`)
  return lines
}

// The report as text: the settings, the table, failures, trend, verdict.
function formatReport (result) {
  const { settings, environment, totals, observers, trend, verdict } = result
  const loopP99s = result.samples.map(s => s.loop.p99).filter(v => v !== null)
  const lines = [
    `h2bench soak, ${environment.date}: ${f(result.durationSeconds / 60)} min of load${result.interrupted ? ` (INTERRUPTED by ${result.interrupted}; planned ${settings.minutes} min)` : ''}, ` +
      `lanes ${settings.lanes.join(', ')}, a sample every ${settings.intervalSeconds} s`,
    `System: Node ${environment.node}, ${environment.chromium}, ${environment.cpu} × ${environment.cpus}, ${environment.os}; h2bench ${environment.h2bench}`,
    ...(result.rebuilt ? [`Trend, verdict and this report rebuilt ${result.rebuilt.date} by h2bench ${result.rebuilt.h2bench} from the samples recorded (npm run soak -- --from)`] : []),
    `Workload rotation, each one window.h2bench.run({ repeats: 1, lanes: all }) on the h2bench page: ${settings.workloads.map(w => w.label).join(', ')}`,
    observersLine(observers),
    '',
    `Server samples per ${settings.bucketSeconds >= 60 ? 'minute' : `${settings.bucketSeconds} s`} (RSS: mean; fds: min–max; loop delay beyond the 10 ms timer: ` +
      'median of p50, worst p99, max; batches/requests/failed: of the runs finished then):',
    bucketTable(result.buckets, totals),
    '',
    `Before the load: RSS ${f(result.baseline ? result.baseline.rssMiB : null)} MiB, ${result.baseline ? result.baseline.fds : '–'} fds. ` +
      `Event-loop delay p99 per ${settings.intervalSeconds} s interval: ${f(Math.min(...loopP99s), 1)}–${f(Math.max(...loopP99s), 1)} ms ` +
      `(median ${f(loopP99s.length ? quantile(loopP99s, 0.5) : null, 1)}).`,
    ...failureLines(result),
    ...trendLines(trend),
    '',
    `VERDICT${result.interrupted ? ` (on the ${f(result.durationSeconds / 60)} min that ran before ${result.interrupted})` : ''}: ${verdict.pass ? 'PASS' : 'FAIL'}: ${verdict.pass
      ? `RSS and open fds flat after the warm-up${trend.pool ? ', the edge pool within its bound and not growing' : ''}, ${int(totals.requests)} requests in ${int(totals.batches)} batches with zero failures`
      : verdict.reasons.join('; ')}`
  ]
  if (result.serverExit) lines.push(`The server process exited during the run: ${result.serverExit}`)
  for (const note of result.notes) lines.push(`Note: ${note}`)
  return lines.join('\n')
}

function reportMarkdown (result, chartFile) {
  return `# h2bench soak, ${result.environment.date}

Command: \`${result.environment.command}\`

![RSS, fds and event-loop delay over time](${chartFile})

\`\`\`
${formatReport(result)}
\`\`\`
`
}

function writeOutputs (dir, result) {
  fs.mkdirSync(dir, { recursive: true })
  fs.writeFileSync(path.join(dir, 'results.json'), JSON.stringify(result, null, 2) + '\n')
  fs.writeFileSync(path.join(dir, 'chart.svg'), chartSvg(result))
  fs.writeFileSync(path.join(dir, 'report.md'), reportMarkdown(result, 'chart.svg'))
  return ['results.json', 'chart.svg', 'report.md']
}

module.exports = { formatReport, writeOutputs }

'use strict'

// What the soak benchmark (bench/soak.js) prints and writes: the table of
// samples per time bucket, the verdict in words, an SVG chart (no external
// resources) and report.md.
const fs = require('node:fs')
const path = require('node:path')
const { quantile } = require('../../client/js/stats')

const f = (x, d = 1) => x === null || x === undefined || Number.isNaN(x) ? '–' : x.toFixed(d)
const signed = (x, d = 1) => `${x >= 0 ? '+' : '−'}${Math.abs(x).toFixed(d)}`
const int = n => n.toLocaleString('en-US')
const clock = s => `${Math.floor(s / 60)}:${String(Math.floor(s % 60)).padStart(2, '0')}`

function table (header, rows, alignLeft = 1) {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map(r => String(r[i]).length)))
  const line = cells => cells.map((c, i) => String(c)[i < alignLeft ? 'padEnd' : 'padStart'](widths[i])).join('  ').trimEnd()
  return [line(header), line(widths.map(w => '-'.repeat(w))), ...rows.map(line)].join('\n')
}

// Samples and finished runs grouped into buckets of `seconds` from t = 0.
// Per bucket: RSS mean (the server's own figure and the observer's), fds
// min…max, event-loop delay p50 (median of the intervals' p50), p99 (the
// worst interval's p99) and max; batches, requests and failed requests of the
// runs that finished in it.
function buckets ({ samples, runs, seconds }) {
  const end = Math.max(0, ...samples.map(s => s.t), ...runs.map(r => r.t))
  const out = []
  for (let from = 0; from <= end || out.length === 0; from += seconds) {
    const to = from + seconds
    const last = to > end
    const inside = t => t >= from && (t < to || (last && t <= to))
    const ss = samples.filter(s => inside(s.t))
    const rs = runs.filter(r => inside(r.t))
    const p50s = ss.map(s => s.loop.p50).filter(v => v !== null)
    const p99s = ss.map(s => s.loop.p99).filter(v => v !== null)
    const maxs = ss.map(s => s.loop.max).filter(v => v !== null)
    const mean = xs => xs.length ? +(xs.reduce((a, b) => a + b, 0) / xs.length).toFixed(2) : null
    out.push({
      from,
      to: Math.min(to, end),
      samples: ss.length,
      rssMiB: mean(ss.map(s => s.rssMiB)),
      rssObserverMiB: mean(ss.map(s => s.observer.rssMiB)),
      fdsMin: ss.length ? Math.min(...ss.map(s => s.fds)) : null,
      fdsMax: ss.length ? Math.max(...ss.map(s => s.fds)) : null,
      loopP50: p50s.length ? +quantile(p50s, 0.5).toFixed(2) : null,
      loopP99: p99s.length ? Math.max(...p99s) : null,
      loopMax: maxs.length ? Math.max(...maxs) : null,
      runs: rs.length,
      batches: rs.reduce((n, r) => n + r.batches, 0),
      requests: rs.reduce((n, r) => n + r.requests, 0),
      failed: rs.reduce((n, r) => n + r.failed, 0)
    })
    if (last) break
  }
  return out
}

function bucketTable (rows, totals) {
  const fds = r => r.fdsMin === null ? '–' : r.fdsMin === r.fdsMax ? `${r.fdsMin}` : `${r.fdsMin}–${r.fdsMax}`
  return table(
    ['from', 'RSS MiB', 'observer', 'fds', 'loop p50 ms', 'p99 ms', 'max ms', 'batches', 'requests', 'failed'],
    [
      ...rows.map(r => [clock(r.from), f(r.rssMiB), f(r.rssObserverMiB), fds(r), f(r.loopP50, 2), f(r.loopP99, 1), f(r.loopMax, 1), int(r.batches), int(r.requests), r.failed]),
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
    `Open fds after it: ${fds.min}…${fds.max} (range ${fds.spread}, tolerance ${fds.tolerance}; slope ${signed(fds.slopePerMinute, 2)}/min): ` +
      `${fds.flat ? 'flat' : 'NOT FLAT'}${fds.sockets ? `; of them sockets ${fds.sockets.min}…${fds.sockets.max}, other fds ${fds.others.min}…${fds.others.max}` : ''}`
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
      ? `RSS and open fds flat after the warm-up, ${int(totals.requests)} requests in ${int(totals.batches)} batches with zero failures`
      : verdict.reasons.join('; ')}`
  ]
  if (result.serverExit) lines.push(`The server process exited during the run: ${result.serverExit}`)
  for (const note of result.notes) lines.push(`Note: ${note}`)
  return lines.join('\n')
}

const esc = s => String(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')

// Round axis steps: 1, 2, 5 × 10^k.
function niceStep (range, ticks) {
  const raw = range / Math.max(1, ticks)
  const p = 10 ** Math.floor(Math.log10(raw || 1))
  return [1, 2, 5, 10].map(m => m * p).find(s => s >= raw) || p * 10
}

// One panel: series [{ points: [[x, y]], color, dash, label }], shaded warm-up.
function panel ({ x0, y0, width, height, xMax, title, unit, series, warmup, yMinFloor = null }) {
  const ys = series.flatMap(s => s.points.map(p => p[1])).filter(v => v !== null && Number.isFinite(v))
  let lo = ys.length ? Math.min(...ys) : 0
  let hi = ys.length ? Math.max(...ys) : 1
  if (yMinFloor !== null) lo = Math.min(lo, yMinFloor)
  if (hi - lo < 1e-9) { hi += 1; lo -= 1 }
  const pad = (hi - lo) * 0.08
  lo -= pad
  hi += pad
  if (yMinFloor !== null) lo = Math.max(lo, yMinFloor)
  const yStep = niceStep(hi - lo, 4)
  lo = Math.floor(lo / yStep) * yStep
  hi = Math.ceil(hi / yStep) * yStep
  const X = x => x0 + (x / (xMax || 1)) * width
  const Y = y => y0 + height - ((y - lo) / (hi - lo)) * height
  const out = [`<text x="${x0}" y="${y0 - 8}" class="title">${esc(title)}</text>`]
  if (warmup > 0) out.push(`<rect x="${X(0)}" y="${y0}" width="${X(Math.min(warmup, xMax)) - X(0)}" height="${height}" class="warm"/>`)
  for (let v = lo; v <= hi + 1e-9; v += yStep) {
    out.push(`<line x1="${x0}" x2="${x0 + width}" y1="${Y(v).toFixed(1)}" y2="${Y(v).toFixed(1)}" class="grid"/>`)
    out.push(`<text x="${x0 - 6}" y="${(Y(v) + 4).toFixed(1)}" class="ytick">${esc(+v.toFixed(6))}</text>`)
  }
  const xStep = niceStep(xMax / 60, 8) * 60
  for (let x = 0; x <= xMax + 1e-9; x += xStep) {
    out.push(`<line x1="${X(x).toFixed(1)}" x2="${X(x).toFixed(1)}" y1="${y0 + height}" y2="${y0 + height + 4}" class="axis"/>`)
    out.push(`<text x="${X(x).toFixed(1)}" y="${y0 + height + 16}" class="xtick">${esc(+(x / 60).toFixed(2))}</text>`)
  }
  out.push(`<rect x="${x0}" y="${y0}" width="${width}" height="${height}" class="frame"/>`)
  out.push(`<text x="${x0 - 44}" y="${y0 + height / 2}" class="unit" transform="rotate(-90 ${x0 - 44} ${y0 + height / 2})">${esc(unit)}</text>`)
  let lx = x0 + width
  for (const s of [...series].reverse()) {
    const pts = s.points.filter(p => p[1] !== null && Number.isFinite(p[1]))
    if (pts.length) {
      const d = pts.map((p, i) => `${i ? 'L' : 'M'}${X(p[0]).toFixed(1)},${Y(p[1]).toFixed(1)}`).join('')
      out.push(`<path d="${d}" fill="none" stroke="${s.color}" stroke-width="${s.width || 1.5}"${s.dash ? ` stroke-dasharray="${s.dash}"` : ''}/>`)
    }
    const w = s.label.length * 6.2 + 26
    lx -= w
    out.push(`<line x1="${lx}" x2="${lx + 16}" y1="${y0 - 12}" y2="${y0 - 12}" stroke="${s.color}" stroke-width="2"${s.dash ? ` stroke-dasharray="${s.dash}"` : ''}/>`)
    out.push(`<text x="${lx + 20}" y="${y0 - 8}" class="legend">${esc(s.label)}</text>`)
  }
  return out.join('\n')
}

// RSS (the server's own figure, the observer's, the trend line after the
// warm-up), open fds, and the event-loop delay p99 per interval over time.
function chartSvg (result) {
  const width = 820
  const plotW = 700
  const plotH = 170
  const x0 = 80
  const samples = result.samples
  const xMax = Math.max(result.durationSeconds, ...samples.map(s => s.t), 1)
  const trend = result.trend
  const warmup = trend.warmupSeconds
  const rssTrend = trend.enough
    ? [[warmup, trend.rss.intercept + trend.rss.slopePerMinute / 60 * warmup], [samples[samples.length - 1].t, trend.rss.intercept + trend.rss.slopePerMinute / 60 * samples[samples.length - 1].t]]
    : []
  const panels = [
    {
      title: 'Server RSS',
      unit: 'MiB',
      yMinFloor: 0,
      series: [
        { label: 'server (memoryUsage)', color: '#1f6feb', points: samples.map(s => [s.t, s.rssMiB]) },
        { label: 'observer (VmRSS)', color: '#f0883e', dash: '4 3', width: 1.2, points: samples.map(s => [s.t, s.observer.rssMiB]) },
        { label: `trend ${signed(trend.enough ? trend.rss.growth : 0)} MiB`, color: '#cf222e', width: 2, points: rssTrend }
      ]
    },
    {
      title: 'Server open file descriptors',
      unit: 'fds',
      yMinFloor: 0,
      series: [
        { label: 'server (/proc/self/fd)', color: '#1a7f37', points: samples.map(s => [s.t, s.fds]) },
        { label: 'observer (/proc/<pid>/fd)', color: '#8250df', dash: '4 3', width: 1.2, points: samples.map(s => [s.t, s.observer.fds]) }
      ]
    },
    {
      title: `Event-loop delay p99 per ${result.settings.intervalSeconds} s interval`,
      unit: 'ms',
      yMinFloor: 0,
      series: [{ label: 'p99', color: '#57606a', points: samples.map(s => [s.t, s.loop.p99]) }]
    }
  ]
  const top = 84
  const gap = 70
  const height = top + panels.length * (plotH + gap) + 10
  const body = panels.map((p, i) => panel({ ...p, x0, y0: top + i * (plotH + gap), width: plotW, height: plotH, xMax, warmup })).join('\n')
  const v = result.verdict
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="system-ui, -apple-system, 'Segoe UI', Helvetica, Arial, sans-serif">
<style>
.title { font-size: 13px; font-weight: 600; fill: #24292f }
.legend { font-size: 11px; fill: #24292f }
.ytick { font-size: 10px; fill: #57606a; text-anchor: end }
.xtick { font-size: 10px; fill: #57606a; text-anchor: middle }
.unit { font-size: 11px; fill: #57606a; text-anchor: middle }
.grid { stroke: #d0d7de; stroke-width: 0.6 }
.axis { stroke: #57606a }
.frame { fill: none; stroke: #8c959f; stroke-width: 0.8 }
.warm { fill: #eaeef2 }
</style>
<rect width="100%" height="100%" fill="#ffffff"/>
<text x="${x0}" y="22" style="font-size:15px;font-weight:700;fill:#24292f">${esc(`h2bench soak: ${f(result.durationSeconds / 60)} min, lanes ${result.settings.lanes.join(', ')} — ${v.pass ? 'PASS' : 'FAIL'}`)}</text>
<text x="${x0}" y="40" class="legend">${esc(`${int(result.totals.requests)} requests, ${result.totals.failed} failed; shaded: warm-up (${clock(warmup)}), left out of the trend; x: minutes since the load started`)}</text>
${body}
</svg>
`
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

module.exports = { buckets, formatReport, chartSvg, writeOutputs, clock }

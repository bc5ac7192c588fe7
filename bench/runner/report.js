'use strict'

// The runner's outputs: results.json, results.csv, report.md and a
// self-contained report.html (inline SVG charts, no external resources).
// Everything here is computed from the result rows, so a report can be
// rebuilt from a results.json alone (with the experiment definitions).
const fs = require('node:fs')
const path = require('node:path')
const { paramOf, measured } = require('./conclusions')
const { presetByName, describePreset, throttled } = require('../../link/devtools-presets')
const { cellParams } = require('../cells/page')
const { closeness } = require('./bounds')

const CSV_COLUMNS = ['experiment', 'cell', 'requests', 'assets', 'sizeBytes', 'sizeMB', 'delayMs', 'preset', 'network', 'link', 'lane', 'mode',
  'protocol', 'median', 'q1', 'q3', 'mean', 'min', 'max', 'failures', 'repeatsAsked', 'repeatsGot', 'baseline', 'ratioToBaseline',
  'pushOutcome', 'assetMedian', 'samples', 'note']

function csvCell (v) {
  if (v === null || v === undefined || (typeof v === 'number' && Number.isNaN(v))) return ''
  const s = Array.isArray(v) ? v.join(' ') : String(v)
  return /[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s
}

function toCsv (results) {
  const lines = [CSV_COLUMNS.join(',')]
  for (const r of results) {
    const flat = { ...r.params, ...r }
    lines.push(CSV_COLUMNS.map(c => csvCell(flat[c])).join(','))
  }
  return lines.join('\n') + '\n'
}

// ms → "0.512" (seconds; three decimals below 10 s).
const seconds = ms => ms === null || ms === undefined ? '–' : (ms / 1000).toFixed(ms < 10000 ? 3 : 2)
// mode=none in the browser means the page requests its scripts.
const modeName = mode => mode === 'none' ? 'request' : mode
// A row's network; rows of runs before the link have none: all DevTools.
const networkOf = r => r.network || 'devtools'
const NETWORK_NAMES = { devtools: 'DevTools throttling (request-level)', link: 'packet-level link' }
// With rows of both networks, each series says which ("h1 · link").
const multiNetwork = rows => new Set(rows.map(networkOf)).size > 1
// A row's browser; rows of runs before Firefox have none: all Chromium.
const browserOf = r => r.browser || 'chromium'
// With rows of more than one browser, each series says which ("h2 separate · firefox").
const seriesName = (r, multi = false, multiBrowser = false) => `${r.mode ? `${r.lane} ${modeName(r.mode)}` : r.lane}${multi ? ` · ${networkOf(r)}` : ''}${multiBrowser ? ` · ${browserOf(r)}` : ''}`
const multiBrowsers = rows => new Set(rows.map(browserOf)).size > 1
// The rows an experiment's main table and chart show (all, unless it says: rest shows the source's lanes).
const mainRows = (experiment, rows) => experiment.mainRows ? experiment.mainRows(rows) : rows

// For one experiment: the swept values, and per lane (and mode) its rows
// by cell.
function seriesOf (experiment, all) {
  const rows = mainRows(experiment, all)
  const xs = experiment.cells.map(cell => paramOf({ params: cellParams(cell), preset: cell.preset }, experiment.sweep.param))
  const multi = multiNetwork(rows)
  const multiB = multiBrowsers(rows)
  const names = [...new Set(rows.map(r => seriesName(r, multi, multiB)))]
  const series = names.map(name => ({
    name,
    rows: experiment.cells.map((c, i) => rows.find(r => r.cell === i && seriesName(r, multi, multiB) === name) || null)
  }))
  return { xs, series }
}

// The source's table as series of seconds, and its ratio as the report
// shows ours (h2/h1, push/request); null where our cell is not the source's
// (a smoke run's tiny cells).
function sourceSeries (experiment, xs) {
  if (!experiment.source) return { series: [], ratio: null }
  const s = experiment.source
  const same = i => s.x[i] === xs[i]
  const named = s.series || { h1: s.h1, h2: s.h2 }
  const series = Object.entries(named).map(([name, values]) => ({ name: `source ${name}`, values: xs.map((x, i) => same(i) ? values[i] : null) }))
  const [a, b] = s.series ? [named['push (total)'], named['request (total)']] : [s.h2, s.h1]
  const ratio = a && b ? { name: s.series ? 'source push/request' : 'source h2/h1', values: xs.map((x, i) => same(i) ? a[i] / b[i] : null) } : null
  return { series, ratio }
}

// Ratio columns: each series against its baseline (h1, or request), as
// recorded in the rows.
function ratioSeries (series) {
  return series.map(s => {
    const withBase = s.rows.find(r => r && r.baseline)
    if (!withBase) return null
    const base = withBase.baseline.replace(/ none$/, ' request')
    return { name: `${s.name}/${base}`, values: s.rows.map(r => r && r.ratioToBaseline !== null ? r.ratioToBaseline : null) }
  }).filter(Boolean)
}

function tableOf (experiment, rows) {
  const { xs, series } = seriesOf(experiment, rows)
  const ratios = ratioSeries(series)
  const src = sourceSeries(experiment, xs)
  const head = [experiment.sweep.label, ...series.map(s => `${s.name} (s)`), ...ratios.map(r => r.name),
    ...src.series.map(s => `${s.name} (s)`), ...(src.ratio ? [src.ratio.name] : [])]
  const body = xs.map((x, i) => [
    String(x),
    ...series.map(s => {
      const r = s.rows[i]
      if (!r || !r.samples.length) return r && r.failures ? `failed (${r.failures})` : '–'
      const iqr = r.samples.length > 1 ? ` (${seconds(r.q1)}–${seconds(r.q3)})` : ''
      const n = r.repeatsGot < r.repeatsAsked ? ` n=${r.repeatsGot}` : ''
      return `${seconds(r.median)}${iqr}${n}${r.failures ? `, ${r.failures} failed` : ''}`
    }),
    ...ratios.map(r => r.values[i] === null ? '–' : `${r.values[i].toFixed(2)}×`),
    ...src.series.map(s => s.values[i] === null ? '–' : String(s.values[i])),
    ...(src.ratio ? [src.ratio.values[i] === null ? '–' : `${src.ratio.values[i].toFixed(2)}×`] : [])
  ])
  return { head, body }
}

function markdownTable ({ head, body }) {
  const line = cells => `| ${cells.map(c => String(c).replace(/\|/g, '\\|')).join(' | ')} |`
  return [line(head), line(head.map(() => '---')), ...body.map(line)].join('\n')
}

const COLORS = ['#c2571a', '#2563a6', '#2f8a4c', '#8b5cf6', '#b91c1c', '#0e7490', '#a16207', '#475569', '#db2777', '#65a30d', '#0891b2', '#7c2d12']
// One colour per lane in every chart; a lane's other modes (push/request,
// another tool) share it with a dotted line; other series take the rest.
const LANE_COLORS = { h1: COLORS[0], h2: COLORS[1], h2n: COLORS[2], h3: COLORS[3], h2e: COLORS[4] }
const esc = s => String(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')

// A line chart: time (s) against the swept parameter (one tick per cell),
// one line per lane (and mode), the source's lines dashed. Logarithmic when
// the values span more than 30×, as the request-count sweeps do.
function svgChart (experiment, rows) {
  const { xs, series } = seriesOf(experiment, rows)
  const ours = series.map(s => ({ name: s.name, values: s.rows.map(r => r && measured(r) ? r.median / 1000 : null) }))
  const all = [...ours, ...sourceSeries(experiment, xs).series.map(s => ({ ...s, source: true }))]
  const values = all.flatMap(s => s.values.filter(v => v !== null && v > 0))
  // Long or many tick labels are slanted, with the room they need below.
  const longest = Math.max(...xs.map(v => String(v).length))
  const slant = xs.length > 1 && longest * 6.2 > (680 - 64 - 170) / (xs.length - 1)
  const W = 680; const L = 64; const R = 170; const T = 16; const B = slant ? 44 + Math.min(110, longest * 4.6) : 44
  // Tall enough for the legend (15 px a series) as well as the plot.
  const H = Math.max(276 + B, T + 15 * all.length + 12)
  if (!values.length) return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${W} 40" width="${W}" height="40"><text x="10" y="24" font-family="sans-serif" font-size="12">no measurements</text></svg>`
  const lo = Math.min(...values)
  const hi = Math.max(...values)
  const log = hi / lo > 30
  const y0 = log ? Math.floor(Math.log10(lo)) : 0
  const y1 = log ? Math.ceil(Math.log10(hi)) : hi * 1.05
  const scale = v => log ? (Math.log10(v) - y0) / (y1 - y0) : v / y1
  const x = i => L + (xs.length === 1 ? (W - L - R) / 2 : i * (W - L - R) / (xs.length - 1))
  const y = v => T + (H - T - B) * (1 - scale(v))
  const label = v => v >= 10 ? v.toFixed(0) : v >= 1 ? v.toFixed(1) : +v.toPrecision(2) + ''
  const ticks = log ? Array.from({ length: y1 - y0 + 1 }, (_, k) => 10 ** (y0 + k)) : [0, 1, 2, 3, 4].map(k => y1 * k / 4)
  const parts = [`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${W} ${H}" width="${W}" height="${H}" font-family="sans-serif" font-size="11" role="img" aria-label="${esc(experiment.id)}: time against ${esc(experiment.sweep.label)}">`]
  for (const v of ticks) {
    parts.push(`<line x1="${L}" x2="${W - R}" y1="${y(v).toFixed(1)}" y2="${y(v).toFixed(1)}" stroke="#e5e7eb"/>`,
      `<text x="${L - 6}" y="${(y(v) + 4).toFixed(1)}" text-anchor="end">${label(v)} s</text>`)
  }
  xs.forEach((v, i) => parts.push(slant
    ? `<text transform="translate(${x(i).toFixed(1)},${H - B + 12}) rotate(-35)" text-anchor="end">${esc(v)}</text>`
    : `<text x="${x(i).toFixed(1)}" y="${H - B + 16}" text-anchor="middle">${esc(v)}</text>`))
  parts.push(`<text x="${(L + W - R) / 2}" y="${H - 8}" text-anchor="middle">${esc(experiment.sweep.label)}${log ? ' · time on a log scale' : ''}</text>`)
  const others = COLORS.filter(c => !Object.values(LANE_COLORS).includes(c))
  const DASHES = ['', ' stroke-dasharray="2 3"', ' stroke-dasharray="8 3 2 3"', ' stroke-dasharray="1 2"']
  const perLane = new Map() // a lane's series so far: its first solid, the next dotted, dash-dotted …
  let spare = 0
  all.forEach((s, n) => {
    const lane = s.name.split(' ')[0]
    const known = !s.source && LANE_COLORS[lane]
    const color = known ? LANE_COLORS[lane] : others[spare++ % others.length]
    const k = known ? (perLane.get(lane) || 0) : 0
    if (known) perLane.set(lane, k + 1)
    const dash = s.source ? ' stroke-dasharray="5 4"' : DASHES[k % DASHES.length]
    const pts = s.values.map((v, i) => v === null || v <= 0 ? null : [x(i).toFixed(1), y(v).toFixed(1)])
    let d = ''
    pts.forEach((p, i) => { if (p) d += `${d && pts[i - 1] ? ' L' : ' M'}${p[0]},${p[1]}` })
    if (d) parts.push(`<path d="${d.trim()}" fill="none" stroke="${color}" stroke-width="2"${dash}/>`)
    for (const p of pts) if (p) parts.push(`<circle cx="${p[0]}" cy="${p[1]}" r="${s.source ? 2 : 3}" fill="${color}"/>`)
    parts.push(`<line x1="${W - R + 8}" x2="${W - R + 28}" y1="${T + 15 * n + 4}" y2="${T + 15 * n + 4}" stroke="${color}" stroke-width="2"${dash}/>`,
      `<text x="${W - R + 32}" y="${T + 15 * n + 8}" fill="${color}">${esc(s.name)}${s.source ? ' (dashed)' : ''}</text>`)
  })
  parts.push('</svg>')
  return parts.join('')
}

// Each conclusion checked on each network's rows on their own.
function verdicts (experiment, rows) {
  const networks = [...new Set(rows.map(networkOf))]
  if (networks.length <= 1) return experiment.conclusions.map(c => ({ text: c.text, ...c.check(rows) }))
  return networks.flatMap(n => experiment.conclusions.map(c => ({ text: `${c.text} (${NETWORK_NAMES[n] || n})`, ...c.check(rows.filter(r => networkOf(r) === n)) })))
}

// Every measured row against the physical lower bound of its workload on
// its network (bench/bounds.js): what no protocol could beat, how close the
// measurement came, and what dominates.
function boundsTable (experiment, rows) {
  const multi = multiNetwork(rows)
  const multiB = multiBrowsers(rows)
  const body = rows.filter(r => r.samples.length).map(r => {
    const c = closeness(r, experiment.kind)
    if (!c) return null
    return [String(paramOf(r, experiment.sweep.param)), seriesName(r, multi, multiB), seconds(r.median), seconds(c.boundMs), `${Math.round(c.ofBound * 100)} %`, c.dominant]
  }).filter(Boolean)
  return body.length ? { head: [experiment.sweep.label, 'series', 'measured (s)', 'lower bound (s)', 'bound / measured', 'dominant cost'], body } : null
}

// Lines under an experiment's table: presets used, push outcomes,
// failures, cells with fewer repeats and why.
function remarks (experiment, rows) {
  const out = []
  const presets = [...new Set(rows.filter(r => networkOf(r) === 'devtools').map(r => r.preset))].map(presetByName).filter(throttled)
  if (presets.length) out.push(`Network (CDP, per request): ${presets.map(p => `${p.name} = ${describePreset(p)}`).join('; ')}.`)
  const links = [...new Set(rows.filter(r => networkOf(r) === 'link' && r.link).map(r => r.link))]
  if (links.length) out.push(`Network (packet-level link, every IP packet): ${links.join('; ')}.`)
  const outcomes = [...new Set(rows.filter(r => r.pushOutcome && r.mode !== 'none' && r.mode !== 'request').map(r => `${r.lane} ${r.mode}: ${r.pushOutcome}`))]
  if (outcomes.length) out.push(`Push outcome: ${outcomes.join('; ')}.`)
  const failures = rows.reduce((n, r) => n + r.failures, 0)
  if (failures) {
    out.push(`${failures} failed ${experiment.kind === 'page' ? 'requests' : 'loads'} (${rows.filter(r => r.failures).map(r => `${seriesName(r, multiNetwork(rows), multiBrowsers(rows))} at ${paramOf(r, experiment.sweep.param)}: ${r.failures}`).join(', ')});` +
      ' a row with failures is left out of the ratios, chart and verdicts: failed requests end early, so its time is not the workload\'s.')
  }
  // Notes per swept value, the same note for several lanes said once.
  const notes = new Map()
  for (const r of rows.filter(r => r.note)) {
    const key = `${experiment.sweep.label} ${paramOf(r, experiment.sweep.param)}`
    const list = notes.get(key) || new Map()
    list.set(r.note, [...(list.get(r.note) || []), seriesName(r, multiNetwork(rows), multiBrowsers(rows))])
    notes.set(key, list)
  }
  const lanesOf = new Set(rows.map(r => seriesName(r, multiNetwork(rows), multiBrowsers(rows)))).size
  for (const [key, list] of notes) {
    for (const [note, who] of list) out.push(`At ${key}${who.length < lanesOf ? ` (${who.join(', ')})` : ''}: ${note}.`)
  }
  return out
}

function environmentLines (env) {
  return [
    `Ran ${env.date} for ${Math.round(env.durationSeconds / 60)} min: \`${env.command}\``,
    `Machine: ${env.cpu} × ${env.cpus} cores, ${env.memoryGiB} GiB, ${env.os}`,
    `Software: Node ${env.node}, ${env.chromium || 'no browser needed'}, playwright-core ${env.playwrightCore}, h2bench ${env.h2bench}`,
    ...('caddyPath' in env ? [`Edge lanes' server: ${env.caddyPath ? `Caddy ${env.caddyVersion || '(version unknown)'} (\`${env.caddyPath}\`)` : 'none (no edge lane ran)'}` +
      `${env.caddyWarning ? `; WARNING: ${env.caddyWarning}` : ''}`] : []),
    `Lanes ${env.lanes.join(', ')}; ${env.repeats} repeats asked per cell, budget ${env.budgetSeconds} s per cell${env.smoke ? '; SMOKE RUN (tiny workloads: checks that it runs, the figures mean nothing)' : ''}`
  ]
}

const INTRO = [
  'Times are medians over the repeats in seconds (quartiles in brackets; n = repeats when a cell got fewer than asked).',
  'A page-experiment sample is one batch: all requests fired at once by the page\'s `window.h2bench.run`, from the first',
  'issued to the last settled, after an unmeasured warm-up that opens its connections, lanes interleaved. Ratios are ours per cell',
  '(lane median / h1 median, push / request). The source reported means of 10 runs in 2016 Chrome over the',
  'network of its day, and its server sent more bytes than asked; compare shapes and ratios, not absolute values.'
]

// An experiment's own tables under its main one (h3-ttfb, h3-hol): [{ title, head, body }].
const extraTables = (experiment, rows) => experiment.extraTables && rows.length ? experiment.extraTables(rows) : []

function render (report) {
  const { results, experiments } = report
  return experiments.map(e => {
    const rows = results.filter(r => r.experiment === e.id)
    return { experiment: e, rows, table: tableOf(e, rows), bounds: boundsTable(e, rows), verdicts: verdicts(e, rows), remarks: remarks(e, rows), extra: extraTables(e, rows) }
  })
}

function toMarkdown (report) {
  const sections = render(report)
  const out = ['# h2bench: the source study, rerun', '', ...environmentLines(report.environment).map(l => `- ${l}`), '', ...INTRO, '',
    '## Verdicts', '']
  for (const s of sections) for (const v of s.verdicts) out.push(`- ${s.experiment.id}: **${v.text}**: ${v.status}, ${v.detail}.`)
  out.push('')
  for (const s of sections) {
    out.push(`## ${s.experiment.id}: ${s.experiment.title}`, '', markdownTable(s.table), '')
    for (const v of s.verdicts) out.push(`- **${v.text}**: ${v.status}, ${v.detail}.`)
    for (const r of s.remarks) out.push(`- ${r}`)
    out.push('')
    if (s.bounds) out.push('Against the physical lower bound of each workload on its network:', '', markdownTable(s.bounds), '')
    for (const t of s.extra) out.push(`${t.title}:`, '', markdownTable(t), '')
  }
  return out.join('\n')
}

// `code` spans of the markdown lines, as HTML.
const inline = s => esc(s).replace(/`([^`]+)`/g, '<code>$1</code>')

function htmlTable ({ head, body }) {
  return `<table><thead><tr>${head.map(c => `<th>${esc(c)}</th>`).join('')}</tr></thead><tbody>${
    body.map(cells => `<tr>${cells.map(c => `<td>${esc(c)}</td>`).join('')}</tr>`).join('')}</tbody></table>`
}

function toHtml (report) {
  const sections = render(report).map(s => {
    const table = htmlTable(s.table)
    const items = [...s.verdicts.map(v => `<li><strong>${esc(v.text)}</strong>: <span class="v">${esc(v.status)}</span>, ${esc(v.detail)}.</li>`),
      ...s.remarks.map(r => `<li>${inline(r)}</li>`)]
    const bounds = s.bounds ? `<p>Against the physical lower bound of each workload on its network:</p>${htmlTable(s.bounds)}` : ''
    const extra = s.extra.map(t => `<p>${esc(t.title)}:</p>${htmlTable(t)}`).join('\n')
    return `<section id="${esc(s.experiment.id)}"><h2>${esc(s.experiment.id)}: ${esc(s.experiment.title)}</h2>\n${svgChart(s.experiment, s.rows)}\n${table}\n<ul>${items.join('')}</ul>\n${bounds}${extra}</section>`
  })
  const verdictList = render(report).flatMap(s => s.verdicts.map(v =>
    `<li><a href="#${esc(s.experiment.id)}">${esc(s.experiment.id)}</a>: <strong>${esc(v.text)}</strong>: <span class="v">${esc(v.status)}</span>, ${esc(v.detail)}.</li>`))
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>h2bench: the source study, rerun</title><style>
body{font:15px/1.5 system-ui,sans-serif;max-width:64em;margin:2em auto;padding:0 1em;color:#1f2937}
table{border-collapse:collapse;margin:1em 0;font-size:13px}td,th{border:1px solid #d1d5db;padding:.2em .5em;text-align:right}
th{background:#f3f4f6}td:first-child,th:first-child{text-align:left}section{margin-bottom:2.5em}svg{max-width:100%;height:auto}
.v{font-weight:600}code{background:#f3f4f6;padding:0 .2em}</style></head><body>
<h1>h2bench: the source study, rerun</h1>
<ul>${environmentLines(report.environment).map(l => `<li>${inline(l)}</li>`).join('')}</ul>
<p>${INTRO.map(inline).join(' ')}</p>
<h2>Verdicts</h2><ul>${verdictList.join('')}</ul>
${sections.join('\n')}
</body></html>
`
}

function writeOutputs (dir, report) {
  fs.mkdirSync(dir, { recursive: true })
  const json = { environment: report.environment, results: report.results }
  fs.writeFileSync(path.join(dir, 'results.json'), JSON.stringify(json, null, 2) + '\n')
  fs.writeFileSync(path.join(dir, 'results.csv'), toCsv(report.results))
  fs.writeFileSync(path.join(dir, 'report.md'), toMarkdown(report))
  fs.writeFileSync(path.join(dir, 'report.html'), toHtml(report))
  return json
}

module.exports = { writeOutputs, toCsv, toMarkdown, toHtml, svgChart, verdicts, tableOf, CSV_COLUMNS }

'use strict'

// The SVG line charts of the reports, self-contained (no external resources):
// one module draws every chart; what to draw (which lines, their colours and
// labels, the titles) is the report's. sweepChart: times against a swept
// parameter (the runner's report.html, bench/report/runner/report-chart.js);
// timeChart: panels over time (the soak's chart.svg, bench/report/soak/soak-chart.js).
// Both draw a line and its legend's sample alike (line, swatch).

// Text and attribute values for SVG and HTML: & < > " as entities.
const esc = s => String(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')
// Text only (never an attribute value): & < > as entities, quotes kept.
const escText = s => String(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')

// A dash pattern as an attribute ('' or none: a solid line).
const dashed = dash => dash ? ` stroke-dasharray="${dash}"` : ''
// A series' line: path data `d`, its colour, width and dash pattern.
const line = (d, color, width, dash) => `<path d="${d}" fill="none" stroke="${color}" stroke-width="${width}"${dashed(dash)}/>`
// A legend's sample of a series' line, from x1 to x2 at height y.
const swatch = (x1, x2, y, color, dash) => `<line x1="${x1}" x2="${x2}" y1="${y}" y2="${y}" stroke="${color}" stroke-width="2"${dashed(dash)}/>`

// A line chart: time (s) against the swept parameter (one tick per value
// of `xs`), one line per series [{ label, values (s, one per x, null where
// none), color, dash, marker (its dots' radius) }], legend on the right.
// Logarithmic when the values span more than 30×, as the request-count
// sweeps do.
function sweepChart ({ xs, series, xLabel, ariaLabel }) {
  const values = series.flatMap(s => s.values.filter(v => v !== null && v > 0))
  // Long or many tick labels are slanted, with the room they need below.
  const longest = Math.max(...xs.map(v => String(v).length))
  const slant = xs.length > 1 && longest * 6.2 > (680 - 64 - 170) / (xs.length - 1)
  const W = 680; const L = 64; const R = 170; const T = 16; const B = slant ? 44 + Math.min(110, longest * 4.6) : 44
  // Tall enough for the legend (15 px a series) as well as the plot.
  const H = Math.max(276 + B, T + 15 * series.length + 12)
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
  const parts = [`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${W} ${H}" width="${W}" height="${H}" font-family="sans-serif" font-size="11" role="img" aria-label="${esc(ariaLabel)}">`]
  for (const v of ticks) {
    parts.push(`<line x1="${L}" x2="${W - R}" y1="${y(v).toFixed(1)}" y2="${y(v).toFixed(1)}" stroke="#e5e7eb"/>`,
      `<text x="${L - 6}" y="${(y(v) + 4).toFixed(1)}" text-anchor="end">${label(v)} s</text>`)
  }
  xs.forEach((v, i) => parts.push(slant
    ? `<text transform="translate(${x(i).toFixed(1)},${H - B + 12}) rotate(-35)" text-anchor="end">${esc(v)}</text>`
    : `<text x="${x(i).toFixed(1)}" y="${H - B + 16}" text-anchor="middle">${esc(v)}</text>`))
  parts.push(`<text x="${(L + W - R) / 2}" y="${H - 8}" text-anchor="middle">${esc(xLabel)}${log ? ' · time on a log scale' : ''}</text>`)
  series.forEach((s, n) => {
    const pts = s.values.map((v, i) => v === null || v <= 0 ? null : [x(i).toFixed(1), y(v).toFixed(1)])
    let d = ''
    pts.forEach((p, i) => { if (p) d += `${d && pts[i - 1] ? ' L' : ' M'}${p[0]},${p[1]}` })
    if (d) parts.push(line(d.trim(), s.color, 2, s.dash))
    for (const p of pts) if (p) parts.push(`<circle cx="${p[0]}" cy="${p[1]}" r="${s.marker}" fill="${s.color}"/>`)
    parts.push(swatch(W - R + 8, W - R + 28, T + 15 * n + 4, s.color, s.dash),
      `<text x="${W - R + 32}" y="${T + 15 * n + 8}" fill="${s.color}">${esc(s.label)}</text>`)
  })
  parts.push('</svg>')
  return parts.join('')
}

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
  const out = [`<text x="${x0}" y="${y0 - 8}" class="title">${escText(title)}</text>`]
  if (warmup > 0) out.push(`<rect x="${X(0)}" y="${y0}" width="${X(Math.min(warmup, xMax)) - X(0)}" height="${height}" class="warm"/>`)
  for (let v = lo; v <= hi + 1e-9; v += yStep) {
    out.push(`<line x1="${x0}" x2="${x0 + width}" y1="${Y(v).toFixed(1)}" y2="${Y(v).toFixed(1)}" class="grid"/>`)
    out.push(`<text x="${x0 - 6}" y="${(Y(v) + 4).toFixed(1)}" class="ytick">${escText(+v.toFixed(6))}</text>`)
  }
  const xStep = niceStep(xMax / 60, 8) * 60
  for (let x = 0; x <= xMax + 1e-9; x += xStep) {
    out.push(`<line x1="${X(x).toFixed(1)}" x2="${X(x).toFixed(1)}" y1="${y0 + height}" y2="${y0 + height + 4}" class="axis"/>`)
    out.push(`<text x="${X(x).toFixed(1)}" y="${y0 + height + 16}" class="xtick">${escText(+(x / 60).toFixed(2))}</text>`)
  }
  out.push(`<rect x="${x0}" y="${y0}" width="${width}" height="${height}" class="frame"/>`)
  out.push(`<text x="${x0 - 44}" y="${y0 + height / 2}" class="unit" transform="rotate(-90 ${x0 - 44} ${y0 + height / 2})">${escText(unit)}</text>`)
  let lx = x0 + width
  for (const s of [...series].reverse()) {
    const pts = s.points.filter(p => p[1] !== null && Number.isFinite(p[1]))
    if (pts.length) {
      const d = pts.map((p, i) => `${i ? 'L' : 'M'}${X(p[0]).toFixed(1)},${Y(p[1]).toFixed(1)}`).join('')
      out.push(line(d, s.color, s.width || 1.5, s.dash))
    }
    const w = s.label.length * 6.2 + 26
    lx -= w
    out.push(swatch(lx, lx + 16, y0 - 12, s.color, s.dash))
    out.push(`<text x="${lx + 20}" y="${y0 - 8}" class="legend">${escText(s.label)}</text>`)
  }
  return out.join('\n')
}

// Panels one under another over the same time axis (s since the start,
// ticks in minutes), each shaded up to `warmup` (s): panels [{ title, unit,
// yMinFloor, series }]; `title` and `subtitle` above them all.
function timeChart ({ title, subtitle, panels, xMax, warmup }) {
  const width = 820
  const plotW = 700
  const plotH = 170
  const x0 = 80
  const top = 84
  const gap = 70
  const height = top + panels.length * (plotH + gap) + 10
  const body = panels.map((p, i) => panel({ ...p, x0, y0: top + i * (plotH + gap), width: plotW, height: plotH, xMax, warmup })).join('\n')
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
<text x="${x0}" y="22" style="font-size:15px;font-weight:700;fill:#24292f">${escText(title)}</text>
<text x="${x0}" y="40" class="legend">${escText(subtitle)}</text>
${body}
</svg>
`
}

module.exports = { sweepChart, timeChart, esc }

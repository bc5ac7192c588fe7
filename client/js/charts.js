// The comparison chart: per lane, every batch's elapsed time as a dot over a
// box plot (quartiles, median, min–max). Plain SVG: no chart library to ship.
(function () {
  'use strict'

  const ui = window.h2benchUi
  const f = ui.format
  const PALETTE = ['#c05621', '#2b6cb0', '#2f855a', '#6b46c1', '#b83280']

  function laneColor (name) {
    const i = window.h2bench.lanes.findIndex(function (l) { return l.name === name })
    return PALETTE[(i < 0 ? 0 : i) % PALETTE.length]
  }

  function esc (s) {
    return String(s).replace(/[&<>"']/g, function (c) { return '&#' + c.charCodeAt(0) + ';' })
  }

  // Ticks at 1, 2 or 5 × 10^k, about `count` of them from 0 to ≥ max.
  function ticks (max, count) {
    const raw = max / count
    const mag = Math.pow(10, Math.floor(Math.log10(raw)))
    const step = [1, 2, 5, 10].map(function (m) { return m * mag }).find(function (s) { return s >= raw })
    const out = []
    for (let t = 0; t <= max + step * 0.001; t += step) out.push(t)
    if (out[out.length - 1] < max) out.push(out[out.length - 1] + step)
    return out
  }

  // A small deterministic jitter so equal samples do not hide each other.
  function jitter (i) {
    return ((i * 7919) % 13) / 13 - 0.5
  }

  function distribution (el, result) {
    const rows = result.lanes.filter(function (l) { return l.samples.length > 0 })
    if (rows.length === 0) {
      el.innerHTML = '<p class="muted">No completed batch to draw.</p>'
      return
    }
    const W = 1000
    const left = 200
    const right = 110
    const rowH = 54
    const top = 10
    const H = top + rows.length * rowH + 34
    const max = Math.max.apply(null, rows.map(function (l) { return l.summary.max }))
    const axis = ticks(max || 1, 6)
    const end = axis[axis.length - 1]
    const x = function (v) { return left + (v / end) * (W - left - right) }
    const out = []
    out.push('<svg viewBox="0 0 ' + W + ' ' + H + '" role="img" aria-label="Elapsed time per batch and lane" xmlns="http://www.w3.org/2000/svg">')
    axis.forEach(function (t) {
      out.push('<line class="grid" x1="' + x(t) + '" x2="' + x(t) + '" y1="' + top + '" y2="' + (H - 28) + '"/>')
      out.push('<text class="tick" x="' + x(t) + '" y="' + (H - 12) + '" text-anchor="middle">' + esc(f.ms(t)) + '</text>')
    })
    rows.forEach(function (l, r) {
      const s = l.summary
      const cy = top + r * rowH + rowH / 2
      const color = laneColor(l.lane)
      out.push('<g><title>' + esc(l.label + ': median ' + f.ms(s.median) + ', quartiles ' + f.ms(s.q1) + '–' + f.ms(s.q3) +
        ', min ' + f.ms(s.min) + ', max ' + f.ms(s.max) + ', ' + s.n + ' batches') + '</title>')
      out.push('<text class="label" x="' + (left - 12) + '" y="' + (cy + 5) + '" text-anchor="end">' + esc(l.label) + '</text>')
      out.push('<line class="whisker" x1="' + x(s.min) + '" x2="' + x(s.max) + '" y1="' + cy + '" y2="' + cy + '" stroke="' + color + '"/>')
      out.push('<rect class="box" x="' + x(s.q1) + '" y="' + (cy - 13) + '" width="' + Math.max(1, x(s.q3) - x(s.q1)) +
        '" height="26" fill="' + color + '" stroke="' + color + '"/>')
      out.push('<line class="median" x1="' + x(s.median) + '" x2="' + x(s.median) + '" y1="' + (cy - 17) + '" y2="' + (cy + 17) + '" stroke="' + color + '"/>')
      l.samples.forEach(function (v, i) {
        out.push('<circle class="dot" cx="' + x(v) + '" cy="' + (cy + jitter(i) * 18) + '" r="4" fill="' + color + '"/>')
      })
      out.push('<text class="value" x="' + (W - right + 12) + '" y="' + (cy + 5) + '">' + esc(f.ms(s.median)) + '</text>')
      out.push('</g>')
    })
    out.push('</svg>')
    el.innerHTML = out.join('')
  }

  ui.charts = { distribution: distribution, laneColor: laneColor, ticks: ticks, esc: esc }
}())

// Per lane, one row per request of one batch, from Resource Timing: queued or
// stalled, connecting, waiting for the first byte, downloading. HTTP/1.1's
// six-connection waves show as a staircase, HTTP/2's single wave as one block.
// Canvas, not SVG: a batch can have thousands of requests.
(function () {
  'use strict'

  const ui = window.h2benchUi
  const f = ui.format
  const COLORS = { queue: '#cbd2dc', connect: '#9f7aea', error: '#e53e3e', unknown: '#a0aec0' }

  // The batch whose elapsed time is closest to the lane's median: the one the
  // headline number describes. A stopped run may only have a stopped batch.
  function representative (lane) {
    const done = lane.batches.filter(function (b) { return b.state === 'done' })
    if (done.length === 0) return lane.batches[lane.batches.length - 1] || null
    const m = lane.summary ? lane.summary.median : done[0].elapsed
    return done.reduce(function (best, b) { return Math.abs(b.elapsed - m) < Math.abs(best.elapsed - m) ? b : best })
  }

  // Most requests on the wire at once (request sent … response ended).
  function maxInFlight (requests) {
    const events = []
    requests.forEach(function (r) {
      const t = r && r.timing
      if (t && t.requestStart !== null && t.responseEnd !== null) events.push([t.requestStart, 1], [t.responseEnd, -1])
    })
    events.sort(function (a, b) { return a[0] - b[0] || a[1] - b[1] })
    let now = 0
    let max = 0
    events.forEach(function (e) { now += e[1]; max = Math.max(max, now) })
    return max
  }

  function end (r) {
    const t = r.timing
    return t && t.responseEnd !== null ? Math.max(t.responseEnd, r.end) : r.end
  }

  function draw (canvas, batch, color, span) {
    const requests = batch.requests.filter(Boolean)
    const n = requests.length
    const rowH = Math.max(0.75, Math.min(6, 220 / Math.max(n, 1)))
    const axisH = 22
    const cssW = canvas.parentNode.clientWidth || 800
    const cssH = Math.ceil(n * rowH) + axisH + 4
    const dpr = window.devicePixelRatio || 1
    canvas.width = Math.round(cssW * dpr)
    canvas.height = Math.round(cssH * dpr)
    canvas.style.height = cssH + 'px'
    const ctx = canvas.getContext('2d')
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0)
    ctx.clearRect(0, 0, cssW, cssH)
    const ticks = ui.charts.ticks(span || 1, 8)
    const last = ticks[ticks.length - 1]
    const x = function (v) { return 2 + (Math.max(0, v) / last) * (cssW - 8) }
    ctx.font = '11px system-ui, sans-serif'
    ctx.textAlign = 'center'
    ticks.forEach(function (t) {
      ctx.fillStyle = '#e2e8f0'
      ctx.fillRect(Math.round(x(t)), 0, 1, n * rowH)
      ctx.fillStyle = '#4a5568'
      ctx.fillText(f.ms(t), Math.min(Math.max(x(t), 20), cssW - 24), n * rowH + 15)
    })
    const bar = function (from, to, y, fill, alpha) {
      if (from === null || to === null || to < from) return
      ctx.fillStyle = fill
      ctx.globalAlpha = alpha || 1
      ctx.fillRect(x(from), y, Math.max(1, x(to) - x(from)), Math.max(0.75, rowH - (rowH > 2 ? 1 : 0)))
      ctx.globalAlpha = 1
    }
    requests.forEach(function (r, i) {
      const y = i * rowH
      const t = r.timing
      if (!t || t.requestStart === null) {
        // Aborted by Stop is not a failure: grey, like any request without timings.
        bar(r.start, r.end, y, r.error && r.error !== 'aborted' ? COLORS.error : COLORS.unknown)
        return
      }
      bar(t.startTime, t.requestStart, y, COLORS.queue)
      if (t.connectStart !== null && t.connectEnd - t.connectStart > 0.05) bar(t.connectStart, t.connectEnd, y, COLORS.connect)
      // Waiting: a pale tint of the lane's colour; download: the colour itself.
      bar(t.requestStart, t.responseStart, y, color, 0.3)
      bar(t.responseStart, t.responseEnd, y, color)
      if (r.error) bar(r.end, r.end, y, COLORS.error)
    })
  }

  // Draws every lane of `result` into `container` on one shared time axis.
  function render (container, result) {
    const shown = result.lanes.map(function (l) { return { lane: l, batch: representative(l) } })
      .filter(function (x) { return x.batch && x.batch.requests.some(Boolean) })
    if (shown.length === 0) {
      container.innerHTML = '<p class="muted">No requests to draw.</p>'
      return
    }
    const span = Math.max.apply(null, shown.map(function (x) {
      return Math.max.apply(null, x.batch.requests.filter(Boolean).map(end))
    }))
    container.innerHTML = ''
    shown.forEach(function (x) {
      const l = x.lane
      const b = x.batch
      const fig = document.createElement('figure')
      fig.className = 'waterfall'
      fig.dataset.lane = l.lane
      const caption = document.createElement('figcaption')
      const inFlight = maxInFlight(b.requests)
      caption.innerHTML = '<strong></strong> <span class="muted"></span>'
      caption.firstChild.textContent = l.label
      caption.lastChild.textContent = 'repeat ' + (b.repeat + 1) + (b.state === 'done' ? ' (closest to the median)' : ' (' + b.state + ')') +
        ': ' + f.ms(b.elapsed) + ', ' + b.requests.filter(Boolean).length + ' requests, at most ' + inFlight + ' in flight' +
        (l.protocol ? ', ' + l.protocol : '')
      const holder = document.createElement('div')
      holder.className = 'canvas-holder'
      const canvas = document.createElement('canvas')
      canvas.setAttribute('role', 'img')
      canvas.setAttribute('aria-label', l.label + ' waterfall: ' + caption.lastChild.textContent)
      canvas.dataset.maxInFlight = String(inFlight)
      holder.appendChild(canvas)
      fig.appendChild(caption)
      fig.appendChild(holder)
      container.appendChild(fig)
      draw(canvas, b, ui.charts.laneColor(l.lane), span)
    })
  }

  ui.waterfall = { render: render, representative: representative, maxInFlight: maxInFlight }
}())

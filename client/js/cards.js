// One card per lane: state, progress k/N, elapsed time, failures, and the
// protocol the browser really used (Resource Timing nextHopProtocol), with a
// warning when a lane did not speak the protocol it exists to measure; the
// CPU the browser and the servers used during its batches (client/js/cpu.js),
// flagged when the verdict engine says its times rest on this machine's CPU.
(function () {
  'use strict'

  const ui = window.h2benchUi
  const f = ui.format

  function card (lane) {
    return document.querySelector('.card[data-lane="' + lane + '"]')
  }

  function set (el, selector, text) {
    el.querySelector(selector).textContent = text
  }

  function setState (lane, state, text) {
    const el = card(lane)
    if (!el) return
    const badge = el.querySelector('.state')
    badge.dataset.state = state
    badge.textContent = text || state
    el.dataset.state = state
  }

  function warn (lane, text) {
    const w = card(lane).querySelector('.warning')
    w.hidden = !text
    w.textContent = text || ''
  }

  function reset (lane, included, repeats) {
    const el = card(lane)
    if (!el) return
    el.classList.toggle('excluded', !included)
    setState(lane, included ? 'waiting' : 'idle', included ? 'waiting' : 'not in this run')
    set(el, '.elapsed .value', '—')
    set(el, '.elapsed .what', included ? 'waiting for its turn' : '')
    set(el, '.count', included ? '0 batches of ' + repeats : '—')
    set(el, '.failures', '0')
    el.querySelector('.failures').classList.remove('bad')
    set(el, '.minmax', '—')
    set(el, '.mean', '—')
    set(el, '.spread', '—')
    el.querySelector('.bar').style.width = '0%'
    warn(lane, '')
    cpu({ lane: lane, cpu: null })
  }

  // Live, while a batch runs: k/N requests of batch r of R.
  function progress (lane, p, repeats, failuresBefore) {
    const el = card(lane)
    if (!el) return
    set(el, '.elapsed .value', f.ms(p.elapsed))
    set(el, '.elapsed .what', 'batch ' + (p.repeat + 1) + ' of ' + repeats + ', so far')
    set(el, '.count', p.done + '/' + p.total + ' requests · batch ' + (p.repeat + 1) + '/' + repeats)
    const failures = failuresBefore + p.failed
    set(el, '.failures', String(failures))
    el.querySelector('.failures').classList.toggle('bad', failures > 0)
    el.querySelector('.bar').style.width = (p.total ? 100 * p.done / p.total : 0) + '%'
  }

  // After a batch or at the end: the lane's numbers so far.
  function summary (l, repeats, final) {
    const el = card(l.lane)
    if (!el) return
    const s = window.h2bench.stats.summary(l.samples)
    const batches = l.batches.length
    set(el, '.elapsed .value', f.ms(s.median))
    const leftOut = l.leftOut ? ' (' + l.leftOut + ' with failed requests left out)' : ''
    set(el, '.elapsed .what', (s.n ? 'median of ' + s.n + ' batch' + (s.n === 1 ? '' : 'es') : 'no completed batch') + leftOut)
    set(el, '.count', batches + '/' + repeats + ' batches' + (batches ? ' × ' + l.batches[batches - 1].requests.length + ' requests' : ''))
    set(el, '.minmax', s.n ? f.ms(s.min) + ' / ' + f.ms(s.max) : '—')
    set(el, '.mean', s.n ? f.ms(s.mean) + ' ± ' + f.ms(s.stdev) : '—')
    set(el, '.spread', f.percent(s.spread))
    set(el, '.failures', String(l.failures))
    el.querySelector('.failures').classList.toggle('bad', l.failures > 0)
    cpu(l)
    if (final) {
      el.querySelector('.bar').style.width = batches ? '100%' : '0%'
      protocol(l)
    }
  }

  // The lane's CPU (medians over its batches): "Chromium 1.4 · servers 0.31 ·
  // machine 1.98 of 2 cores", the details in its title, and the verdict
  // engine's flag below.
  function cpu (l) {
    const el = card(l.lane)
    if (!el) return
    const dd = el.querySelector('.cpu')
    const flag = el.querySelector('.cpu-flag')
    const c = l.cpu
    const num = function (x) { return typeof x === 'number' && isFinite(x) }
    const cores = function (x) { return x >= 1 ? x.toFixed(1) : x.toFixed(2) }
    dd.classList.toggle('flagged', Boolean(c && c.rests))
    flag.hidden = !(c && c.flag)
    flag.textContent = (c && c.flag) || ''
    const coresText = dd.querySelector('.cores')
    const msText = dd.querySelector('.ms')
    msText.textContent = ''
    if (!c) {
      coresText.textContent = '—'
      dd.title = ''
      return
    }
    const parts = []
    parts.push(num(c.browserCores) ? (c.browser || 'browser') + ' ' + cores(c.browserCores) : 'browser not measured')
    if (num(c.serverCores)) parts.push('servers ' + cores(c.serverCores))
    if (num(c.machineCores)) parts.push('machine ' + cores(c.machineCores))
    coresText.textContent = parts.join(' · ') + (num(c.browserCores) || num(c.serverCores) ? (c.cores ? ' of ' + c.cores : '') + ' cores' : '')
    // What a batch cost the browser: where every lane keeps the machine busy, this is what tells them apart.
    if (num(c.browserCpuMs)) msText.textContent = (c.browser || 'the browser') + ': ' + Math.round(c.browserCpuMs) + ' ms of CPU a batch'
    const lines = []
    if (num(c.browserCores)) {
      lines.push((c.browser || 'The browser') + ': ' + cores(c.browserCores) + ' cores (' + c.browserCpuMs + ' ms of CPU in a median batch window of ' + c.wallMs + ' ms)' +
        (c.busiest ? '; its busiest process, the ' + c.busiest.type + ': ' + cores(c.busiest.cores) : ''))
    } else if (c.reason) {
      lines.push('The browser\'s CPU is not measured: ' + c.reason)
    }
    if (num(c.serverCores)) {
      lines.push('The lanes\' servers: ' + cores(c.serverCores) + ' cores (Node ' + cores(c.nodeCores) + (num(c.caddyCores) ? ', Caddy ' + cores(c.caddyCores) : '') + ')')
    } else if (c.serverReason) {
      lines.push('The servers\' CPU is not measured: ' + c.serverReason)
    }
    if (num(c.machineCores)) lines.push('The whole machine: ' + cores(c.machineCores) + ' cores busy, ' + cores(c.otherCores) + ' of them other processes\'')
    lines.push('Medians of ' + c.batches + ' batch' + (c.batches === 1 ? '' : 'es') + '; a core is a second of CPU per second of a batch.')
    if (c.source) lines.push('Read by ' + c.source + '.')
    dd.title = lines.join('\n')
  }

  function protocol (l) {
    const el = card(l.lane)
    const dd = el.querySelector('.protocol')
    dd.textContent = l.protocol || '—'
    dd.dataset.protocol = l.protocol || ''
    dd.classList.toggle('bad', Boolean(l.protocol) && !l.protocolOk)
    if (l.unreachable) {
      warn(l.lane, 'Not reachable: ' + l.unreachable.error + '. See “Your browser cannot reach…” above.')
    } else if (l.protocol && !l.protocolOk) {
      const seen = Object.keys(l.protocols || {}).map(function (p) { return p + ' (' + l.protocols[p] + ')' }).join(', ')
      warn(l.lane, 'This lane did not speak only ' + l.expectedProtocol + ': the browser used ' + (seen || l.protocol) +
        ', so its numbers do not measure ' + l.expectedProtocol + ' alone.')
    } else if (!l.protocol && l.batches.some(function (b) { return b.ok > 0 })) {
      warn(l.lane, 'The browser reported no protocol (Resource Timing entries missing or hidden).')
    } else {
      warn(l.lane, failuresNote(l))
    }
  }

  // Failed requests of a lane that did answer: how many, and what the page
  // was told. A browser gives a page only "status 0" for a dropped request;
  // the net::ERR_… name is in its console (and in the headless runner's report).
  function failuresNote (l) {
    if (!l.failures) return ''
    const errors = {}
    l.batches.forEach(function (b) {
      b.requests.forEach(function (r) { if (r && r.error && r.error !== 'aborted') errors[r.error] = (errors[r.error] || 0) + 1 })
    })
    const list = Object.keys(errors).map(function (e) { return errors[e] + ' × ' + e }).join('; ')
    return l.failures + ' request' + (l.failures === 1 ? '' : 's') + ' failed on ' + l.label + ': ' + list +
      '. Batches with failures are not timed. Open the browser console (DevTools) for the net::ERR_… name of each.'
  }

  // Before any run: what the page's probe of the lane found.
  function probed (lane, p) {
    const el = card(lane.name)
    if (!el) return
    if (p.ok) {
      const dd = el.querySelector('.protocol')
      dd.textContent = (p.protocol || '?') + ' (probe)'
      dd.dataset.protocol = p.protocol || ''
      const bad = p.protocol && p.protocol !== lane.protocol
      dd.classList.toggle('bad', Boolean(bad))
      if (bad) warn(lane.name, 'The probe request used ' + p.protocol + ', not ' + lane.protocol + '.')
      setState(lane.name, 'idle', 'ready')
    } else {
      setState(lane.name, 'failed', 'unreachable')
      warn(lane.name, 'Not reachable: ' + p.error + '. See “Your browser cannot reach…” above.')
    }
  }

  ui.cards = { reset: reset, setState: setState, progress: progress, summary: summary, protocol: protocol, probed: probed, warn: warn, cpu: cpu }
}())

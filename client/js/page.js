// Wires the page together: the form calls window.h2bench.run (the same
// function the headless runner calls), and everything shown is drawn from
// the h2bench:* events and the result that run reports.
(function () {
  'use strict'

  const ui = window.h2benchUi
  const api = window.h2bench
  const f = ui.format
  const FIELDS = ['requests', 'size', 'delay', 'repeats', 'lanes']

  let live = null // the run in progress: { result, failuresBefore: { lane: n }, pending: { lane: progress } }
  let last = null // the last finished result
  let fromForm = false // the run about to start was asked for by the form, not the API

  function $id (id) { return document.getElementById(id) }

  function status (text) {
    $id('status').textContent = text
  }

  // ---- network: the browser's own estimate, shown and stored with every result
  function showNetwork () {
    const c = navigator.connection
    const n = c ? { rtt: c.rtt, downlink: c.downlink, effectiveType: c.effectiveType, saveData: c.saveData } : null
    $id('network-text').textContent = n
      ? f.network(n) + ' (the browser’s own estimate, navigator.connection: not a measurement; stored with each run)'
      : 'this browser gives no estimate (navigator.connection is missing)'
  }

  // ---- form
  function readForm () {
    const size = $id('size').value.trim()
    return {
      requests: $id('requests').value.trim(),
      // A unit typed into the field wins over the unit menu.
      size: /[a-z]$/i.test(size) ? size : size + $id('size-unit').value,
      delay: $id('delay').value.trim(),
      repeats: $id('repeats').value.trim(),
      lanes: $('input[name="lane"]:checked').map(function () { return this.value }).get(),
      cold: $id('cold').checked
    }
  }

  function showErrors (errors) {
    FIELDS.forEach(function (field) {
      const msg = errors[field] || ''
      $id(field + '-error').textContent = msg
      const input = field === 'lanes' ? document.querySelector('.lanes-choice') : $id(field)
      input.setAttribute('aria-invalid', msg ? 'true' : 'false')
    })
  }

  function onSubmit (event) {
    event.preventDefault()
    if (api.running()) return
    const options = readForm()
    const check = api.validate(options)
    showErrors(check.errors)
    if (!check.ok) {
      status('Nothing was sent: fix the field' + (Object.keys(check.errors).length > 1 ? 's' : '') + ' marked in red.')
      const first = FIELDS.find(function (fl) { return check.errors[fl] })
      const el = first === 'lanes' ? document.querySelector('input[name="lane"]') : $id(first)
      if (el) el.focus()
      return
    }
    fromForm = true
    api.run(options).catch(function (err) { status('Could not run: ' + err.message) })
  }

  // ---- certificate trouble: say so, and show both ways out
  function showTrust (lanes) {
    const box = $id('trust')
    if (lanes.length === 0) {
      box.hidden = true
      return
    }
    $id('trust-lanes').textContent = lanes.map(function (l) { return l.label }).join(', ')
    const links = $id('trust-links')
    links.innerHTML = ''
    lanes.forEach(function (l, i) {
      if (i) links.appendChild(document.createTextNode(i === lanes.length - 1 ? ' and ' : ', '))
      const a = document.createElement('a')
      a.href = l.url + '/'
      a.target = '_blank'
      a.rel = 'noopener'
      a.textContent = l.url + '/'
      links.appendChild(a)
    })
    $id('trust-command').textContent = 'chromium --ignore-certificate-errors-spki-list=' + api.spki +
      ' --user-data-dir="$(mktemp -d)" ' + location.origin + '/'
    box.hidden = false
  }

  const unreachable = new Map() // lane name → lane, from the probe or a run
  // The certificate help is for lanes that gave no answer at all (status 0:
  // untrusted certificate, or nothing listening); a lane that answered with
  // an error status is reachable, and its card shows the server's message.
  const noAnswer = function (lane) { return Boolean(lane.unreachable) && lane.unreachable.status === 0 }

  function markUnreachable (lane, yes) {
    if (yes) unreachable.set(lane.name || lane.lane, { label: lane.label, url: lane.url })
    else unreachable.delete(lane.name || lane.lane)
    showTrust(Array.from(unreachable.values()))
  }

  // ---- what a run shows
  function withSummaries (result) {
    return Object.assign({}, result, {
      lanes: result.lanes.map(function (l) { return Object.assign({}, l, { summary: api.stats.summary(l.samples) }) })
    })
  }

  function label (name) {
    return api.lanes.find(function (l) { return l.name === name }).label
  }

  function renderRatios (result) {
    const el = $id('ratios')
    el.innerHTML = ''
    const head = document.createElement('p')
    head.className = 'run-line'
    head.textContent = f.workload(result.options) + ' · ' + f.linkLine(result.link) + ' · network: ' + f.network(result.network) +
      (result.network ? ' (browser’s estimate)' : '') + ' · ' + result.state
    el.appendChild(head)
    if (result.comparisons.length === 0) {
      const p = document.createElement('p')
      p.className = 'muted'
      p.textContent = 'No comparison: fewer than two lanes completed a batch.'
      el.appendChild(p)
    }
    result.comparisons.forEach(function (c) {
      const p = document.createElement('p')
      p.className = 'ratio'
      p.dataset.slower = c.slower
      p.dataset.faster = c.faster
      p.dataset.ratio = String(c.ratio)
      p.dataset.verdict = c.verdict
      const strong = function (text) { const s = document.createElement('strong'); s.textContent = text; return s }
      const rules = window.h2benchVerdict.RULES
      // The interval's bounds rounded outward, to three decimals next to 1 (so a bound just clear of 1 never reads 1.00).
      const bound = function (v, dir) {
        if (!Number.isFinite(v)) return '—'
        const digits = v >= 10 ? 0 : Math.abs(v - 1) < 0.01 ? 3 : 2
        const k = Math.pow(10, digits)
        return (dir < 0 ? Math.floor(v * k) / k : Math.ceil(v * k) / k).toFixed(digits)
      }
      const interval = Math.round(rules.confidence * 100) + ' % interval ' + bound(c.low, -1) + '–' + bound(c.high, 1) + '×'
      const runs = c.runs[1] + ' and ' + c.runs[0] + ' runs'
      // The verdict engine's words (shared/verdict.js), with the lanes' labels.
      if (c.verdict === 'faster') {
        p.append(strong(label(c.faster)), ' is ', strong(f.times(c.ratio) + ' faster'), ' than ', strong(label(c.slower)), ' (' + interval + ', ' + runs + ')')
      } else if (c.verdict === 'no difference') {
        p.append(strong(label(c.faster)), ' and ', strong(label(c.slower)), ': no difference within ±' + Math.round(rules.tolerance * 100) + ' % (' +
          f.times(c.ratio) + '; ' + interval + ', ' + runs + ')')
      } else if (c.verdict === 'inconclusive') {
        p.append(strong(label(c.faster)), ' and ', strong(label(c.slower)), ': no verdict, the ' + interval + ' holds 1 (medians ' +
          f.times(c.ratio) + ' apart, ' + runs + ')')
      } else {
        p.append(strong(label(c.faster)), ' and ', strong(label(c.slower)), ': not measured, a verdict needs at least ' + rules.minRuns +
          ' good runs on each (' + runs + '; medians ' + f.times(c.ratio) + ' apart)')
      }
      if (c.leftOut[0] || c.leftOut[1]) p.append('; runs with failed requests left out: ' + (c.leftOut[1] + c.leftOut[0]))
      if (c.flags.length) p.append('; ', strong('flagged: ' + c.flags.join('; ')))
      // The verdict engine's CPU sentence (shared/verdict.js restsOnCpu, client/js/cpu.js): when these times rest on this machine's CPU.
      if (c.cpu && c.cpu.rests) {
        const note = document.createElement('span')
        note.className = 'cpu-flag'
        note.textContent = c.cpu.sentence.charAt(0).toUpperCase() + c.cpu.sentence.slice(1) + '.'
        p.dataset.cpu = 'rests'
        p.append(' ', note)
      }
      el.appendChild(p)
    })
  }

  // A run started through the API (the headless runner) shows its own
  // options in the form, so the page never describes a different workload.
  function fillForm (o) {
    const unit = o.size > 0 && o.size % 1048576 === 0 ? 'mb' : o.size > 0 && o.size % 1024 === 0 ? 'kb' : 'b'
    $id('requests').value = o.requests
    $id('size').value = o.size / { b: 1, kb: 1024, mb: 1048576 }[unit]
    $id('size-unit').value = unit
    $id('delay').value = o.delay
    $id('repeats').value = o.repeats
    $('input[name="lane"]').each(function () { this.checked = o.lanes.indexOf(this.value) >= 0 })
    $id('cold').checked = o.cold
    showErrors({})
  }

  function onStart (event) {
    const result = event.detail
    if (!fromForm) fillForm(result.options)
    fromForm = false
    showNetwork() // not every browser fires 'change' when the estimate moves
    live = { result: result, failuresBefore: {}, pending: {}, started: {}, frame: 0 }
    api.lanes.forEach(function (l) {
      const included = result.options.lanes.indexOf(l.name) >= 0
      ui.cards.reset(l.name, included, result.options.repeats)
      live.failuresBefore[l.name] = 0
    })
    // Run is about to be disabled: keep keyboard focus on the form's live button.
    const runHadFocus = document.activeElement === $id('run')
    $id('run').disabled = true
    $id('stop').disabled = false
    if (runHadFocus) $id('stop').focus()
    $id('ratios').innerHTML = '<p class="muted">Running: ' + f.workload(result.options) + '…</p>'
    status('Running ' + f.workload(result.options) + ' on ' + result.options.lanes.join(', ') + '. Stop (or Esc) keeps what was measured.')
  }

  function onLane (event) {
    const d = event.detail
    if (d.phase === 'warmup') ui.cards.setState(d.lane.lane, 'running', 'warm-up')
    else if (d.phase === 'batch' && live) {
      // Drawn with the batch's first progress, not now: a frame at this moment falls inside the timed batch.
      live.started[d.lane.lane] = true
      schedule()
    } else if (d.phase === 'batch') ui.cards.setState(d.lane.lane, 'running', 'running')
    else if (d.phase === 'unreachable') {
      ui.cards.setState(d.lane.lane, 'failed', 'unreachable')
      ui.cards.protocol(d.lane)
      markUnreachable(d.lane, noAnswer(d.lane))
    }
  }

  // Progress arrives as requests settle: drawn at most every PROGRESS_MS (a
  // frame at that moment), not every frame. Each drawing lays out and paints
  // the page in the browser that is measuring: at every frame it cost the
  // batch's browser CPU a share that a glance at a counter does not need, and
  // every 250 ms still 4–8 % of a 400-request batch's on h1 (the page drawn
  // against the same run with the page hidden, docs/page-cost.md): once a
  // second, a batch shorter than that draws no frame of progress at all.
  const PROGRESS_MS = 1000
  function onProgress (event) {
    if (!live) return
    live.pending[event.detail.lane] = event.detail
    schedule()
  }

  function schedule () {
    if (live.frame) return
    live.frame = setTimeout(function () {
      if (!live) return
      live.frame = 0
      Object.keys(live.started).forEach(function (lane) { ui.cards.setState(lane, 'running', 'running') })
      live.started = {}
      Object.keys(live.pending).forEach(function (lane) {
        ui.cards.progress(lane, live.pending[lane], live.result.options.repeats, live.failuresBefore[lane])
      })
      live.pending = {}
    }, PROGRESS_MS)
  }

  function onBatch (event) {
    if (!live) return
    const l = event.detail.lane
    delete live.pending[l.lane]
    if (live.started[l.lane]) ui.cards.setState(l.lane, 'running', 'running') // a batch shorter than PROGRESS_MS
    delete live.started[l.lane]
    live.failuresBefore[l.lane] = l.failures
    ui.cards.summary(l, live.result.options.repeats, false)
    ui.charts.distribution($id('distribution'), withSummaries(live.result))
  }

  function onEnd (event) {
    const result = event.detail
    if (live && live.frame) clearTimeout(live.frame)
    live = null
    last = result
    showNetwork()
    result.lanes.forEach(function (l) {
      ui.cards.summary(l, result.options.repeats, true)
      ui.cards.setState(l.lane, l.state, l.unreachable ? 'unreachable' : l.state)
      markUnreachable(l, noAnswer(l))
    })
    renderRatios(result)
    ui.charts.distribution($id('distribution'), result)
    ui.waterfall.render($id('waterfall-list'), result)
    ui.history.add(result)
    ui.history.render($id('history-table'), $id('history-count'))
    const stopHadFocus = document.activeElement === $id('stop')
    $id('run').disabled = false
    $id('stop').disabled = true
    if (stopHadFocus) $id('run').focus()
    const seconds = ((new Date(result.finishedAt) - new Date(result.startedAt)) / 1000).toFixed(1)
    const texts = {
      done: 'Done in ' + seconds + ' s.',
      stopped: 'Stopped after ' + seconds + ' s: what was measured is kept.',
      failed: 'Finished in ' + seconds + ' s, but a lane failed: see its card.'
    }
    status(texts[result.state] + ' Added to the history below.')
  }

  // ---- probe: is each lane reachable, and over which protocol? Its
  // /push/stats also says which push modes it cannot do, and why.
  function probe (lane) {
    const url = new URL(window.h2benchRequest.withAccess(lane.url + '/push/stats')).href
    $.get({ url: url, dataType: 'json' }).done(function (data) {
      setTimeout(function () {
        const entries = performance.getEntriesByName(url)
        const entry = entries[entries.length - 1]
        ui.cards.probed(lane, { ok: true, protocol: entry ? entry.nextHopProtocol : null })
        ui.push.setLaneInfo(lane.name, data)
      }, 0)
    }).fail(function (jq) {
      ui.cards.probed(lane, { ok: false, error: jq.status === 0 ? 'network error (status 0): the certificate is probably not trusted' : 'HTTP ' + jq.status })
      if (jq.status === 0) markUnreachable(lane, true)
      ui.push.setLaneInfo(lane.name, null)
    })
  }

  function init () {
    showNetwork()
    if (navigator.connection) navigator.connection.addEventListener('change', showNetwork)
    $id('run-form').addEventListener('submit', onSubmit)
    $id('stop').addEventListener('click', function () {
      if (api.stop()) status('Stopping: aborting outstanding requests…')
    })
    document.addEventListener('keydown', function (e) {
      if (e.key === 'Escape' && api.running()) api.stop()
    })
    FIELDS.forEach(function (field) {
      const el = field === 'lanes' ? document.querySelector('.lanes-choice') : $id(field)
      el.addEventListener('input', function () {
        $id(field + '-error').textContent = ''
        el.setAttribute('aria-invalid', 'false')
      })
      el.addEventListener('change', function () {
        $id(field + '-error').textContent = ''
        el.setAttribute('aria-invalid', 'false')
      })
    })
    window.addEventListener('h2bench:start', onStart)
    window.addEventListener('h2bench:lane', onLane)
    window.addEventListener('h2bench:progress', onProgress)
    window.addEventListener('h2bench:batch', onBatch)
    window.addEventListener('h2bench:end', onEnd)
    $id('export-csv').addEventListener('click', function () {
      ui.history.download(ui.history.csv(ui.history.load()), 'text/csv;charset=utf-8', 'csv')
    })
    $id('export-json').addEventListener('click', function () {
      ui.history.download(ui.history.json(ui.history.load()), 'application/json', 'json')
    })
    $id('clear-history').addEventListener('click', function () {
      const n = ui.history.load().length
      if (n === 0) return
      if (!window.confirm('Delete all ' + n + ' history rows from this browser? Export them first to keep them.')) return
      ui.history.clear()
      ui.history.render($id('history-table'), $id('history-count'))
    })
    let resizing = 0
    window.addEventListener('resize', function () {
      clearTimeout(resizing)
      resizing = setTimeout(function () { if (last) ui.waterfall.render($id('waterfall-list'), last) }, 150)
    })
    ui.history.render($id('history-table'), $id('history-count'))
    ui.push.init()
    api.lanes.forEach(probe)
  }

  init()
}())

// "REST API: many small requests or one compound document" (seed 001): the
// section's form calls window.h2bench.rest (client/js/rest.js), and the table
// is drawn from the h2bench:rest-* events and the result they carry, so a run
// started through the API is drawn like one started by its Run button. One
// row per lane and scenario, updated after every visit, final at the end.
(function () {
  'use strict'

  const api = window.h2bench
  const FIELDS = ['items', 'size', 'delay', 'repeats', 'scenarios', 'lanes']
  const PREFIX = { 'http/1.1': 'h1', h2: 'h2', h3: 'h3' }
  const PUSH = {
    'refused-by-client': 'the browser refused push (SETTINGS_ENABLE_PUSH=0)',
    'unsupported-by-lane': 'this lane cannot push'
  }

  let live = null // the result of the run in progress (rest.js fills it in as it goes)
  let fromForm = false // the run about to start was asked for by this form, not the API
  let mainStatus = null // the main form's status text while a REST run holds its Run button

  function $id (id) { return document.getElementById(id) }
  // format.js loads after this file: look it up when drawing.
  function f () { return window.h2benchUi.format }

  function status (text) { $id('rest-status').textContent = text }

  // The source's name of a scenario on a lane: "h1", "h2-compound", "h2-cache-stale".
  function sourceName (expectedProtocol, scenario) {
    const p = PREFIX[expectedProtocol] || expectedProtocol
    return scenario === 'separate' ? p : p + '-' + scenario
  }

  function plural (n, word) { return n + ' ' + word + (n === 1 ? '' : 's') }

  function workload (o) {
    return plural(o.items, 'item') + ' × ' + f().bytes(o.size) + ', ' + o.delay + ' ms delay, ' + plural(o.repeats, 'repeat')
  }

  // ---- form
  function checkbox (name, value, text, hint) {
    const label = document.createElement('label')
    label.className = 'check'
    const input = document.createElement('input')
    input.type = 'checkbox'
    input.name = name
    input.value = value
    input.checked = true
    label.append(input, ' ' + text)
    if (hint) {
      const h = document.createElement('span')
      h.className = 'hint'
      h.textContent = hint
      label.append(' ', h)
    }
    return label
  }

  function buildChoices () {
    const scenarios = $id('rest-scenarios')
    const hints = { cache: '(90 % fresh)', 'cache-stale': '(90 % revalidated: 304)', push: '(Prefer-Push: item)' }
    api.rest.SCENARIOS.forEach(function (s) {
      scenarios.insertBefore(checkbox('rest-scenario', s, s, hints[s]), $id('rest-scenarios-error'))
    })
    const lanes = $id('rest-lanes')
    api.lanes.forEach(function (l) {
      lanes.insertBefore(checkbox('rest-lane', l.name, l.label), $id('rest-lanes-error'))
    })
  }

  function checked (name) {
    return Array.from(document.querySelectorAll('input[name="' + name + '"]:checked')).map(function (i) { return i.value })
  }

  function readForm () {
    const text = function (id) { return $id(id).value.trim() }
    return {
      items: text('rest-items'),
      size: text('rest-size'),
      delay: text('rest-delay'),
      repeats: text('rest-repeats'),
      scenarios: checked('rest-scenario'),
      lanes: checked('rest-lane')
    }
  }

  function fieldOf (name) {
    return $id('rest-' + name)
  }

  function showErrors (errors) {
    FIELDS.forEach(function (name) {
      const msg = errors[name] || ''
      $id('rest-' + name + '-error').textContent = msg
      fieldOf(name).setAttribute('aria-invalid', msg ? 'true' : 'false')
    })
  }

  function clearError (name) {
    $id('rest-' + name + '-error').textContent = ''
    fieldOf(name).setAttribute('aria-invalid', 'false')
  }

  // A run started through the API shows its own options in the form.
  function fillForm (o) {
    $id('rest-items').value = o.items
    $id('rest-size').value = o.size
    $id('rest-delay').value = o.delay
    $id('rest-repeats').value = o.repeats
    document.querySelectorAll('input[name="rest-scenario"]').forEach(function (i) { i.checked = o.scenarios.indexOf(i.value) >= 0 })
    document.querySelectorAll('input[name="rest-lane"]').forEach(function (i) { i.checked = o.lanes.indexOf(i.value) >= 0 })
    showErrors({})
  }

  function onSubmit (event) {
    event.preventDefault()
    const options = readForm()
    const check = api.rest.validate(options)
    showErrors(check.errors)
    if (!check.ok) {
      status('Nothing was sent: fix the field' + (Object.keys(check.errors).length > 1 ? 's' : '') + ' marked in red.')
      const first = FIELDS.find(function (name) { return check.errors[name] })
      const el = first === 'scenarios' || first === 'lanes' ? fieldOf(first).querySelector('input') : fieldOf(first)
      if (el) el.focus()
      return
    }
    fromForm = true
    // Rejects while another run (this section's or the workload's) is in progress: say so.
    api.rest(options).catch(function (err) {
      fromForm = false
      if (err.errors) showErrors(err.errors)
      status('Could not run: ' + err.message)
      buttons()
    })
  }

  // ---- the table
  // What rest.js's finishRow computes at the end, for a row still being measured.
  function interim (row) {
    const ok = row.visits.filter(function (v) { return !v.error })
    const med = function (key) {
      const xs = ok.map(function (v) { return v[key] }).filter(function (x) { return typeof x === 'number' })
      return xs.length ? api.stats.median(xs) : null
    }
    const protocols = row.visits.map(function (v) { return v.protocol }).filter(Boolean)
    const outcomes = row.visits.map(function (v) { return v.pushOutcome }).filter(Boolean)
    return {
      summary: api.stats.summary(row.samples),
      protocol: protocols.length ? protocols[protocols.length - 1] : null,
      protocolOk: protocols.length > 0 && protocols[protocols.length - 1] === row.expectedProtocol,
      counts: { requests: med('requests'), network: med('network'), cache: med('cache'), revalidated: med('revalidated'), pushed: med('pushed') },
      failures: row.visits.length - ok.length,
      unproven: row.visits.filter(function (v) { return v.proven === false }).length,
      pushOutcome: outcomes.length ? outcomes[outcomes.length - 1] : null
    }
  }

  function count (v) {
    return v === null || v === undefined ? '—' : String(Math.round(v * 10) / 10)
  }

  function cell (tr, content, className, title) {
    const td = document.createElement('td')
    if (typeof content === 'string') td.textContent = content
    else td.append.apply(td, content)
    if (className) td.className = className
    if (title) td.title = title
    tr.appendChild(td)
    return td
  }

  function span (text, className) {
    const s = document.createElement('span')
    s.textContent = text
    if (className) s.className = className
    return s
  }

  // → [text, className] of a row's status.
  function rowStatus (row, v, result) {
    const notes = []
    let cls = ''
    if (v.failures) {
      const first = row.visits.find(function (x) { return x.error })
      notes.push(plural(v.failures, 'visit') + ' failed: ' + first.error)
      cls = 'bad'
    }
    if (v.unproven) {
      const first = row.visits.find(function (x) { return x.proven === false })
      const seen = row.scenario === 'cache' ? first.cache + ' from the cache' : first.revalidated + ' answered 304'
      notes.push((row.scenario === 'cache' ? 'cache hits' : 'revalidations (304)') + ' not proven in ' + plural(v.unproven, 'visit') +
        ' (expected ' + first.cacheExpected + ', ' + seen + '): not timed')
      cls = 'bad'
    }
    if (notes.length) return [notes.join('; '), cls]
    if (row.visits.length === 0) return [result.state === 'running' ? 'waiting' : 'not measured (stopped)', 'muted']
    if (row.visits.length < result.options.repeats) return [result.state === 'running' ? 'running' : 'stopped', result.state === 'running' ? 'muted' : '']
    return ['ok', 'good']
  }

  function pushCell (row, v) {
    if (row.scenario !== 'push') return ['—', 'muted', 'only the push scenario asks for push']
    const o = v.pushOutcome
    if (!o) return ['—', 'muted', '']
    if (/^promised=\d+$/.test(o)) return [o + ', ' + count(v.counts.pushed) + ' pushed', 'good', 'the lane pushed the items and the browser took them']
    return [o, o === 'refused-by-client' ? 'bad' : '', PUSH[o] || '']
  }

  function renderRow (row, result) {
    const fmt = f()
    const finished = result.state !== 'running'
    const v = finished ? row : interim(row)
    const s = v.summary || api.stats.summary(row.samples)
    const tr = document.createElement('tr')
    tr.dataset.lane = row.lane
    tr.dataset.scenario = row.scenario
    const name = sourceName(row.expectedProtocol, row.scenario)
    // The lane's label on its first row; on the others only for screen readers (and copied text).
    const first = result.rows.find(function (r) { return r.lane === row.lane }) === row
    if (first) tr.className = 'lane-first'
    cell(tr, first ? row.label : [span(row.label, 'visually-hidden')], 'lane')
    cell(tr, [row.scenario + ' ', span(name, 'source')], 'scenario')
    if (!v.protocol) cell(tr, '—', 'muted')
    else if (v.protocolOk) cell(tr, v.protocol)
    else cell(tr, v.protocol + ' (expected ' + row.expectedProtocol + ')', 'bad', 'the browser used another protocol than this lane is for')
    cell(tr, s.n ? fmt.ms(s.median) : '—', 'num')
    cell(tr, s.n ? fmt.ms(s.q1).replace(' ms', '') + '–' + fmt.ms(s.q3) : '—', 'num', s.n ? 'first to third quartile of ' + plural(s.n, 'timed visit') : '')
    cell(tr, s.n + ' / ' + result.options.repeats, 'num', row.visits.length + ' visited')
    const c = v.counts || {}
    cell(tr, c.requests === null || c.requests === undefined ? '—' : count(c.network) + ' / ' + count(c.cache) + ' / ' + count(c.revalidated) + ' of ' + count(c.requests),
      'num', 'medians of the visits: requests that went to the network / came from the cache / the server answered 304, of all requests')
    const p = pushCell(row, v)
    cell(tr, p[0], (p[1] + ' push').trim(), p[2])
    const st = rowStatus(row, v, result)
    cell(tr, st[0], (st[1] + ' verdict').trim())
    tr.dataset.status = st[1] === 'good' ? 'ok' : st[1] === 'bad' ? 'problem' : 'other'
    return tr
  }

  function renderTable (result) {
    const body = $id('rest-table').querySelector('tbody')
    body.innerHTML = ''
    result.rows.forEach(function (row) { body.appendChild(renderRow(row, result)) })
  }

  function updateRow (result, lane, scenario) {
    const row = result.rows.find(function (r) { return r.lane === lane && r.scenario === scenario })
    const old = $id('rest-table').querySelector('tbody tr[data-lane="' + lane + '"][data-scenario="' + scenario + '"]')
    if (row && old) old.replaceWith(renderRow(row, result))
  }

  function renderMeta (result) {
    const meta = $id('rest-meta')
    const link = result.link ? (result.link.description || f().linkLine(result.link)) : 'not recorded'
    meta.textContent = workload(result.options) + ' · ' + f().time(result.startedAt) + ' · link: ' + link + ' · browser: ' + result.userAgent
    meta.hidden = false
  }

  // ---- buttons: one run at a time, this section's or the workload's
  function buttons () {
    const busy = api.running()
    $id('rest-run').disabled = busy
    $id('rest-stop').disabled = live === null
  }

  function holdMainRun (hold) {
    const run = $id('run')
    if (hold) {
      run.disabled = true
      mainStatus = $id('status').textContent
      $id('status').textContent = 'A REST API run (below) is in progress: the workload can run once it has finished, or Stop it.'
    } else {
      if (!api.running()) run.disabled = false
      if (mainStatus !== null) $id('status').textContent = mainStatus
      mainStatus = null
    }
  }

  function onStart (event) {
    const result = event.detail
    if (!fromForm) fillForm(result.options)
    fromForm = false
    live = result
    const runHadFocus = document.activeElement === $id('rest-run')
    buttons()
    if (runHadFocus) $id('rest-stop').focus()
    holdMainRun(true)
    renderTable(result)
    $id('rest-meta').hidden = true
    status('Running ' + workload(result.options) + ' on ' + result.options.lanes.join(', ') + ': ' +
      plural(result.rows.length * result.options.repeats, 'visit') + '. Stop (or Esc) keeps what was measured.')
  }

  function onProgress (event) {
    const d = event.detail
    if (!live) return
    updateRow(live, d.lane, d.scenario)
    const v = d.visit
    const what = v.error ? 'failed: ' + v.error : v.proven === false ? 'cache hits not proven, not timed' : f().ms(v.elapsed)
    status('Visit ' + d.done + ' of ' + d.total + ': ' + d.lane + ' ' + d.scenario + ' (' + what + ').')
  }

  // rest.js says a run has ended before it lets go of it (h2bench.running()
  // turns false once the event's listeners are done): buttons after that.
  function finish (text) {
    const stopHadFocus = document.activeElement === $id('rest-stop')
    live = null
    status(text)
    setTimeout(function () {
      buttons()
      if (stopHadFocus) $id('rest-run').focus()
      holdMainRun(false)
    }, 0)
  }

  function onEnd (event) {
    const result = event.detail
    renderTable(result)
    renderMeta(result)
    const seconds = ((new Date(result.finishedAt) - new Date(result.startedAt)) / 1000).toFixed(1)
    const visits = result.rows.reduce(function (n, r) { return n + r.visits.length }, 0)
    finish(result.state === 'stopped'
      ? 'Stopped after ' + seconds + ' s, ' + visits + ' of ' + result.rows.length * result.options.repeats + ' visits: what was measured is kept.'
      : 'Done in ' + seconds + ' s: ' + plural(visits, 'visit') + '.')
  }

  function onError (event) {
    finish('The run failed: ' + (event.detail && event.detail.message ? event.detail.message : String(event.detail)))
  }

  function init () {
    buildChoices()
    $id('rest-form').addEventListener('submit', onSubmit)
    $id('rest-stop').addEventListener('click', function () {
      if (live && api.stop()) status('Stopping: aborting outstanding requests…')
    })
    FIELDS.forEach(function (name) {
      ;['input', 'change'].forEach(function (type) {
        fieldOf(name).addEventListener(type, function () { clearError(name) })
      })
    })
    window.addEventListener('h2bench:rest-start', onStart)
    window.addEventListener('h2bench:rest-progress', onProgress)
    window.addEventListener('h2bench:rest-end', onEnd)
    window.addEventListener('h2bench:rest-error', onError)
    // The workload's runs: this Run waits for them (after page.js has drawn their start and end).
    window.addEventListener('h2bench:start', function () {
      buttons()
      if (!live) status('The workload above is running: a REST run can start once it has finished.')
    })
    ;['h2bench:end', 'h2bench:error'].forEach(function (type) {
      window.addEventListener(type, function () {
        setTimeout(function () {
          buttons()
          if (!live && /^The workload above is running/.test($id('rest-status').textContent)) status('Ready.')
        }, 0)
      })
    })
    buttons()
  }

  init()
}())

// Every finished run, one row per lane, kept in localStorage across reloads;
// exported as CSV or JSON. Rows hold the summary, not every request: a few
// thousand runs' worth of requests would not fit in localStorage.
(function () {
  'use strict'

  const ui = window.h2benchUi
  const f = ui.format
  const KEY = 'h2bench.history.v1'
  const MAX_ROWS = 2000
  const COLUMNS = ['time', 'runId', 'lane', 'label', 'requests', 'size', 'delay', 'repeats', 'cold',
    'effectiveType', 'rtt', 'downlink', 'saveData', 'networkSource', 'link', 'linkMode', 'linkSpec', 'linkDescription', 'median', 'q1', 'q3', 'min', 'max', 'mean', 'stdev', 'spread',
    'n', 'failures', 'protocol', 'expectedProtocol', 'protocolOk', 'state', 'runState']

  function num (v) {
    return typeof v === 'number' && isFinite(v) ? Math.round(v * 10) / 10 : null
  }

  function rowsOf (result) {
    const o = result.options
    const n = result.network || {}
    const link = result.link || null
    return result.lanes.map(function (l) {
      const s = l.summary || {}
      return {
        time: result.finishedAt,
        runId: result.id,
        lane: l.lane,
        label: l.label,
        requests: o.requests,
        size: o.size,
        delay: o.delay,
        repeats: o.repeats,
        cold: o.cold,
        effectiveType: n.effectiveType || null,
        rtt: num(n.rtt),
        downlink: num(n.downlink),
        saveData: n.saveData === undefined ? null : n.saveData,
        networkSource: n.source || null,
        // The network the run was measured on (bench.js's result.link).
        link: f.link(link),
        linkMode: link ? link.mode : null,
        linkSpec: link && link.mode === 'packet' ? link.text : null,
        linkDescription: link ? link.description : null,
        median: num(s.median),
        q1: num(s.q1),
        q3: num(s.q3),
        min: num(s.min),
        max: num(s.max),
        mean: num(s.mean),
        stdev: num(s.stdev),
        spread: typeof s.spread === 'number' && isFinite(s.spread) ? Math.round(s.spread * 1000) / 1000 : null,
        n: s.n || 0,
        failures: l.failures,
        protocol: l.protocol,
        expectedProtocol: l.expectedProtocol,
        protocolOk: l.protocolOk,
        state: l.state,
        runState: result.state
      }
    })
  }

  function load () {
    try {
      const rows = JSON.parse(localStorage.getItem(KEY) || '[]')
      return Array.isArray(rows) ? rows : []
    } catch (err) {
      console.warn('h2bench: history in localStorage is unreadable; starting a new one', err)
      return []
    }
  }

  function save (rows) {
    let kept = rows.slice(-MAX_ROWS)
    for (;;) {
      try {
        localStorage.setItem(KEY, JSON.stringify(kept))
        return kept
      } catch (err) {
        if (kept.length < 2) throw err
        kept = kept.slice(Math.floor(kept.length / 2)) // storage full: keep the newer half
      }
    }
  }

  function add (result) {
    return save(load().concat(rowsOf(result)))
  }

  function clear () {
    localStorage.removeItem(KEY)
  }

  function csvCell (v) {
    if (v === null || v === undefined) return ''
    const s = String(v)
    return /[",\r\n]/.test(s) ? '"' + s.replace(/"/g, '""') + '"' : s
  }

  function csv (rows) {
    const lines = [COLUMNS.join(',')]
    rows.forEach(function (r) { lines.push(COLUMNS.map(function (c) { return csvCell(r[c]) }).join(',')) })
    return lines.join('\r\n') + '\r\n'
  }

  function json (rows) {
    return JSON.stringify({
      generator: 'h2bench',
      exportedAt: new Date().toISOString(),
      note: 'link: the packet-level link the run was measured on (its preset name, or custom: <spec>), or none (request-level: DevTools throttling, if any, is not visible to the page); ' +
        'network: the browser\'s own estimate (navigator.connection); times in ms; size in bytes; spread = IQR / median',
      rows: rows
    }, null, 2)
  }

  function download (text, type, ext) {
    const stamp = new Date().toISOString().replace(/[:.]/g, '-').slice(0, 19)
    const url = URL.createObjectURL(new Blob([text], { type: type }))
    const a = document.createElement('a')
    a.href = url
    a.download = 'h2bench-history-' + stamp + '.' + ext
    document.body.appendChild(a)
    a.click()
    a.remove()
    setTimeout(function () { URL.revokeObjectURL(url) }, 10000)
  }

  function cell (tr, text, className, title) {
    const td = document.createElement('td')
    td.textContent = text
    if (className) td.className = className
    if (title) td.title = title
    tr.appendChild(td)
    return td
  }

  function render (table, countEl) {
    const rows = load()
    const body = table.querySelector('tbody')
    body.innerHTML = ''
    if (rows.length === 0) {
      const tr = document.createElement('tr')
      const td = cell(tr, 'No runs yet. Finished runs are kept here, in this browser, across reloads.', 'muted')
      td.colSpan = 9
      body.appendChild(tr)
    }
    rows.slice().reverse().forEach(function (r) {
      const tr = document.createElement('tr')
      tr.dataset.runId = r.runId
      cell(tr, f.time(r.time))
      cell(tr, r.label || r.lane)
      cell(tr, f.workload(r))
      cell(tr, r.link || 'not recorded', 'link', r.linkDescription || '')
      cell(tr, r.networkSource ? f.network({ effectiveType: r.effectiveType, rtt: r.rtt, downlink: r.downlink, saveData: r.saveData }) : 'not reported')
      cell(tr, f.ms(r.median), 'num', 'quartiles ' + f.ms(r.q1) + '–' + f.ms(r.q3) + ', min ' + f.ms(r.min) + ', max ' + f.ms(r.max) + ', n ' + r.n)
      cell(tr, f.percent(r.spread), 'num')
      const wrong = Boolean(r.protocol) && !r.protocolOk
      const p = cell(tr, (r.protocol || '—') + (wrong ? ' ⚠' : ''), wrong ? 'bad' : '', wrong ? 'expected ' + r.expectedProtocol : '')
      p.dataset.protocol = r.protocol || ''
      cell(tr, r.state + (r.failures ? ', ' + r.failures + ' failed' : ''), r.state === 'failed' || r.failures ? 'bad' : '')
      body.appendChild(tr)
    })
    const runs = new Set(rows.map(function (r) { return r.runId })).size
    countEl.textContent = rows.length ? runs + ' run' + (runs === 1 ? '' : 's') + ', ' + rows.length + ' row' + (rows.length === 1 ? '' : 's') : ''
  }

  ui.history = { load: load, add: add, clear: clear, csv: csv, json: json, download: download, render: render, rowsOf: rowsOf, COLUMNS: COLUMNS }
}())

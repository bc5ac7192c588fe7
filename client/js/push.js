// "Push & Early Hints": opens a lane's /push page of N scripts as a top-level
// navigation (103 Early Hints only apply to navigations; an iframe would not
// do), receives the Resource Timing report that page posts back, and shows
// whether push was refused and whether early hints were used.
(function () {
  'use strict'

  const ui = window.h2benchUi
  const f = ui.format
  const api = window.h2bench
  const REPORT_TIMEOUT = 60000
  const OUTCOMES = {
    'refused-by-client': 'push refused by the browser (SETTINGS_ENABLE_PUSH=0)',
    'unsupported-by-lane': 'this lane cannot push (HTTP/1.1)',
    none: 'nothing pushed or hinted (mode none)'
  }

  const laneInfo = {} // name → /push/stats of that lane, from the page's probe
  let pending = null // { lane, mode, win, timer }

  function $id (id) { return document.getElementById(id) }

  function laneOf (name) {
    return api.lanes.find(function (l) { return l.name === name })
  }

  function outcomeText (o) {
    if (OUTCOMES[o]) return OUTCOMES[o]
    let m = /^promised=(\d+)$/.exec(o)
    if (m) return m[1] + ' script(s) pushed'
    m = /^hints=(\d+)$/.exec(o)
    if (m) return '103 sent with ' + m[1] + ' preload link(s)'
    return o
  }

  function showError (field, text) {
    const input = $id('push-' + field)
    const p = $id('push-' + field + '-error')
    p.textContent = text || ''
    input.setAttribute('aria-invalid', text ? 'true' : 'false')
  }

  // → { lane, mode, assets, size } or null, with messages shown next to the fields.
  function read () {
    const lane = $id('push-lane').value
    const mode = $id('push-mode').value
    const limits = api.limits
    const errors = {}
    const info = laneInfo[lane]
    const why = info && info.unavailable && info.unavailable[mode]
    if (why) errors.mode = why
    const rawAssets = $id('push-assets').value.trim()
    const assets = /^\d+$/.test(rawAssets) ? Number(rawAssets) : NaN
    if (!(assets >= limits.minAssets && assets <= limits.maxAssets)) {
      errors.assets = 'scripts must be an integer ' + limits.minAssets + '…' + limits.maxAssets + '; got "' + rawAssets + '"'
    }
    const rawSize = $id('push-size').value.trim()
    const size = window.h2benchOptions.checkSize(rawSize + 'kb', limits.maxSize)
    if (size.error) errors.size = 'script size must be 0…' + (limits.maxSize / 1024) + ' KB; got "' + rawSize + '"'
    showError('mode', errors.mode)
    showError('assets', errors.assets)
    showError('size', errors.size)
    $id('push-open').disabled = Boolean(errors.mode) || pending !== null
    if (Object.keys(errors).length) return null
    return { lane: lane, mode: mode, assets: assets, size: size.value }
  }

  function cell (tr, text, className) {
    const td = document.createElement('td')
    td.textContent = text
    if (className) td.className = className
    tr.appendChild(td)
    return td
  }

  function addRow (report, request) {
    const assets = report.assets
    const hinted = assets.filter(function (a) { return a.initiatorType === 'early-hints' }).length
    const durations = assets.map(function (a) { return a.duration })
    const tr = document.createElement('tr')
    tr.dataset.lane = request.lane
    tr.dataset.mode = request.mode
    tr.dataset.outcome = report.page.outcome
    tr.dataset.earlyHints = String(hinted)
    cell(tr, laneOf(request.lane).label)
    cell(tr, request.mode + ' · ' + report.page.scripts + ' × ' + f.bytes(report.page.size))
    cell(tr, outcomeText(report.page.outcome), report.page.outcome === 'refused-by-client' ? 'bad' : '')
    const interim = report.firstInterimResponseStart ? ' (103 at ' + f.ms(report.firstInterimResponseStart) + ')' : ''
    cell(tr, (hinted ? 'yes, ' + hinted + '/' + assets.length + ' scripts' : 'no') + interim, hinted ? 'good' : '')
    cell(tr, report.protocol || '—')
    cell(tr, f.ms(report.load), 'num')
    cell(tr, assets.length ? f.ms(Math.min.apply(null, assets.map(function (a) { return a.startTime }))) : '—', 'num')
    cell(tr, assets.length ? f.ms(api.stats.median(durations)) : '—', 'num')
    cell(tr, assets.length ? f.ms(Math.max.apply(null, assets.map(function (a) { return a.responseEnd }))) : '—', 'num')
    const body = $id('push-table').querySelector('tbody')
    const empty = body.querySelector('tr.empty')
    if (empty) empty.remove()
    const details = assetDetails(assets)
    body.insertBefore(details, body.firstChild)
    body.insertBefore(tr, details)
  }

  // Each script's Resource Timing under its load's row: how it was fetched
  // (initiatorType "early-hints" when the 103 preloaded it) and when.
  function assetDetails (assets) {
    const tr = document.createElement('tr')
    tr.className = 'push-assets'
    const td = document.createElement('td')
    td.colSpan = 9
    const box = document.createElement('details')
    const summary = document.createElement('summary')
    summary.textContent = 'Each script (' + assets.length + '), from Resource Timing'
    box.appendChild(summary)
    const list = document.createElement('ol')
    assets.forEach(function (a) {
      const li = document.createElement('li')
      li.textContent = a.name + ': ' + a.initiatorType + ', ' + f.ms(a.startTime) + ' → ' + f.ms(a.responseEnd) +
        ' (' + f.ms(a.duration) + '), ' + (a.nextHopProtocol || 'protocol hidden')
      list.appendChild(li)
    })
    box.appendChild(list)
    td.appendChild(box)
    tr.appendChild(td)
    return tr
  }

  function finish (text) {
    if (!pending) return
    clearTimeout(pending.timer)
    try { pending.win.close() } catch { /* already closed */ }
    pending = null
    $id('push-status').textContent = text
    read()
  }

  function open (event) {
    event.preventDefault()
    if (pending) return
    const req = read()
    if (!req) return
    const lane = laneOf(req.lane)
    // A fresh tag per load: unique asset URLs, so nothing comes from an earlier load's cache.
    const tag = Date.now().toString(36) + Math.random().toString(36).slice(2, 8)
    const url = lane.url + '/push?assets=' + req.assets + '&size=' + req.size + '&mode=' + req.mode + '&tag=' + tag
    const win = window.open(url, '_blank')
    if (!win) {
      $id('push-status').textContent = 'The browser blocked the new window: allow pop-ups for this page and try again.'
      return
    }
    pending = {
      lane: req.lane,
      mode: req.mode,
      origin: new URL(lane.url).origin,
      win: win,
      request: req,
      timer: setTimeout(function () {
        finish('No report from ' + url + ' within ' + REPORT_TIMEOUT / 1000 + ' s: was the window closed, or is the lane unreachable (certificate)?')
      }, REPORT_TIMEOUT)
    }
    $id('push-open').disabled = true
    $id('push-status').textContent = 'Loading ' + url + ' in a new window…'
  }

  function onMessage (event) {
    const d = event.data
    if (!pending || event.origin !== pending.origin || !d || d.type !== 'h2bench:push-report') return
    const req = pending.request
    addRow(d, req)
    finish('Done: ' + laneOf(req.lane).label + ', mode ' + req.mode + ', ' + d.loaded + '/' + d.page.scripts + ' scripts loaded.')
  }

  // Called by the page's probe with the lane's /push/stats (or null).
  function setLaneInfo (name, info) {
    laneInfo[name] = info
    read()
  }

  function init () {
    $id('push-form').addEventListener('submit', open)
    ;['push-lane', 'push-mode', 'push-assets', 'push-size'].forEach(function (id) {
      $id(id).addEventListener('change', read)
    })
    window.addEventListener('message', onMessage)
  }

  ui.push = { init: init, setLaneInfo: setLaneInfo, outcomeText: outcomeText }
}())

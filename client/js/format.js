// Number and text formatting for the page, in one place so cards, charts,
// history and exports say the same thing the same way.
(function () {
  'use strict'

  const ui = window.h2benchUi = window.h2benchUi || {}

  function missing (v) {
    return v === null || v === undefined || Number.isNaN(v)
  }

  function ms (v) {
    if (missing(v)) return '—'
    if (v === 0) return '0 ms'
    if (v >= 10000) return (v / 1000).toFixed(2) + ' s'
    if (v >= 100) return Math.round(v) + ' ms'
    return v.toFixed(1) + ' ms'
  }

  // Binary units, as the server's parseSize: 1 KB = 1024 bytes.
  function bytes (n) {
    if (missing(n)) return '—'
    if (n >= 1048576) return +(n / 1048576).toFixed(2) + ' MB'
    if (n >= 1024) return +(n / 1024).toFixed(1) + ' KB'
    return n + ' B'
  }

  function percent (v) {
    return missing(v) ? '—' : Math.round(v * 100) + ' %'
  }

  function times (v) {
    return missing(v) ? '—' : v.toFixed(v >= 10 ? 0 : 1) + '×'
  }

  function workload (o) {
    return o.requests + ' × ' + bytes(o.size) + ', ' + o.delay + ' ms delay, ' + o.repeats + ' repeat' + (o.repeats === 1 ? '' : 's') +
      (o.cold ? ', cold' : '')
  }

  function network (n) {
    if (!n) return 'not reported by this browser'
    const parts = [n.effectiveType]
    if (!missing(n.rtt)) parts.push('rtt ' + n.rtt + ' ms')
    if (!missing(n.downlink)) parts.push(n.downlink + ' Mbit/s')
    if (n.saveData) parts.push('save-data')
    return parts.filter(Boolean).join(', ')
  }

  // A result's link (client/js/bench.js) in a few words: the preset's name,
  // "custom: <spec>" for anything else typed (a preset with overrides too),
  // "none (request-level)" without a packet-level link.
  function link (l) {
    if (!l) return 'not recorded'
    if (l.mode === 'request-level') return 'none (request-level)'
    if (l.mode !== 'packet') return 'unknown'
    if (l.name && String(l.text).indexOf(',') < 0) return l.name
    return 'custom: ' + l.text
  }

  // The same with its numbers, for a result's header line.
  function linkLine (l) {
    if (!l) return 'link not recorded'
    if (l.mode === 'request-level') return 'no packet-level link (request-level only)'
    if (l.mode !== 'packet') return l.description || 'link unknown'
    // A preset's description starts with its name (and any overrides).
    return 'packet-level link ' + (l.name ? '' : l.text + ': ') + l.description
  }

  // Local time as 2026-11-22 13:41:05: sorts and reads the same everywhere.
  function time (iso) {
    const d = new Date(iso)
    if (isNaN(d)) return ''
    const two = function (n) { return String(n).padStart(2, '0') }
    return d.getFullYear() + '-' + two(d.getMonth() + 1) + '-' + two(d.getDate()) + ' ' +
      two(d.getHours()) + ':' + two(d.getMinutes()) + ':' + two(d.getSeconds())
  }

  ui.format = {
    ms: ms, bytes: bytes, percent: percent, times: times, workload: workload, network: network, link: link, linkLine: linkLine, time: time, missing: missing
  }
}())

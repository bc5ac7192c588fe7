// The options of one run: defaults and the checks shared by the form and
// window.h2bench.run (docs/run-api.md). Sizes follow the server's parseSize
// (binary units b, kb, mb), so the page never fires what a lane would refuse.
// UMD: `require('shared/options')` in Node, `window.h2benchOptions` in the page.
(function (root, factory) {
  if (typeof module === 'object' && module.exports) module.exports = factory()
  else root.h2benchOptions = factory()
}(typeof self !== 'undefined' ? self : this, function () {
  'use strict'

  const DEFAULTS = { requests: 100, size: 100 * 1024, delay: 10, repeats: 5, cold: false, transport: 'fetch' }
  // How jQuery's requests travel (client/js/request.js): fetch() with cache: 'no-store', or XMLHttpRequest (the
  // card's page; every request through the browser's HTTP cache).
  const TRANSPORTS = ['fetch', 'xhr']
  const RANGES = { requests: [1, 10000], repeats: [1, 100] }
  const UNITS = { '': 1, b: 1, kb: 1024, mb: 1024 * 1024 }
  const KNOWN = ['requests', 'size', 'delay', 'repeats', 'lanes', 'cold', 'transport', 'onProgress', 'aroundBatch']
  // What the browser holds while a batch runs. Chromium receives up to 256
  // HTTP/2 streams per connection at once and, over XMLHttpRequest (transport
  // 'xhr'), keeps each response whole until it ends, so a batch keeps about
  // min(requests, 256) × size in the browser. Over fetch (the default) the page
  // reads a body of up to 1 MiB whole and drops it at once, and counts a longer
  // one as it arrives, keeping none of it: the cap below, measured when every
  // transport was XHR and the page read text, is then a safe bound, not
  // re-measured. Measured with npm run limits
  // (Chromium 156, 24 GiB machine, docs/limits.md): 100 × 64 MiB over h2
  // held 6.8 GB in Chromium and 150 × 64 MiB … ; every lane was clean up to
  // there. Beyond 8 GiB a batch is refused rather than left to exhaust memory.
  const BROWSER = { streams: 256, maxInFlightBytes: 8 * 1024 * 1024 * 1024 }

  function shown (raw) {
    return typeof raw === 'string' ? '"' + raw + '"' : String(raw)
  }

  // An integer given as a number or as a string of digits; null otherwise.
  function integer (raw) {
    if (typeof raw === 'number') return Number.isSafeInteger(raw) ? raw : null
    if (typeof raw === 'string' && /^\s*\d+\s*$/.test(raw)) return Number(raw)
    return null
  }

  function checkInteger (name, raw, min, max, unit) {
    const allowed = name + ' must be an integer ' + min + '…' + max + (unit || '')
    const n = integer(raw)
    if (n === null || n < min || n > max) return { error: allowed + '; got ' + shown(raw) }
    return { value: n }
  }

  // 102400, "102400", "100kb", "0.1mb" → bytes (same rules as the server).
  function checkSize (raw, maxSize) {
    const mb = maxSize % UNITS.mb === 0 ? ' (' + maxSize / UNITS.mb + ' MB)' : ''
    const allowed = 'size must be 0…' + maxSize + ' bytes' + mb + ', as an integer or with unit b, kb or mb (e.g. 100kb, 0.1mb)'
    if (typeof raw === 'number') {
      return Number.isSafeInteger(raw) && raw >= 0 && raw <= maxSize ? { value: raw } : { error: allowed + '; got ' + raw }
    }
    const m = typeof raw === 'string' ? /^(\d+(?:\.\d+)?)([a-z]*)$/i.exec(raw.trim()) : null
    if (!m) return { error: allowed + '; got ' + shown(raw) }
    const unit = m[2].toLowerCase()
    if (!(unit in UNITS)) return { error: 'unknown unit "' + m[2] + '": ' + allowed }
    if (UNITS[unit] === 1 && m[1].indexOf('.') >= 0) return { error: allowed + '; a byte count must be whole, got ' + shown(raw) }
    const bytes = Math.round(Number(m[1]) * UNITS[unit])
    if (!Number.isSafeInteger(bytes) || bytes > maxSize) return { error: allowed + '; got ' + shown(raw) }
    return { value: bytes }
  }

  // 1536 → "1.5 KiB", 68719476736 → "64 GiB"
  function bytesText (n) {
    const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB']
    let i = 0
    while (n >= 1024 && i < units.length - 1) { n /= 1024; i++ }
    return (Math.round(n * 10) / 10) + ' ' + units[i]
  }

  function checkLanes (raw, laneNames) {
    const known = 'lanes are ' + laneNames.join(', ')
    if (!Array.isArray(raw)) return { error: 'lanes must be an array of lane names; ' + known }
    if (raw.length === 0) return { error: 'choose at least one lane; ' + known }
    for (let i = 0; i < raw.length; i++) {
      if (laneNames.indexOf(raw[i]) < 0) return { error: 'lanes: unknown lane ' + shown(raw[i]) + '; ' + known }
      if (raw.indexOf(raw[i]) !== i) return { error: 'lanes: ' + shown(raw[i]) + ' is given twice' }
    }
    return { value: raw.slice() }
  }

  // → { ok, errors: { field: message }, options: normalised (when ok), unknown: [keys ignored] }
  // `context`: { lanes: [{ name }], limits: { maxSize, maxDelay } }.
  function validate (options, context) {
    const o = options == null ? {} : options
    const errors = {}
    const out = {}
    if (typeof o !== 'object' || Array.isArray(o)) {
      return { ok: false, errors: { options: 'options must be an object' }, unknown: [] }
    }
    const laneNames = context.lanes.map(function (l) { return l.name })
    function take (name, check) {
      if (o[name] === undefined) return
      const r = check(o[name])
      if ('error' in r) errors[name] = r.error
      else out[name] = r.value
    }
    out.requests = DEFAULTS.requests
    out.size = DEFAULTS.size
    out.delay = DEFAULTS.delay
    out.repeats = DEFAULTS.repeats
    out.lanes = laneNames.slice()
    out.cold = DEFAULTS.cold
    out.transport = DEFAULTS.transport
    take('requests', function (v) { return checkInteger('requests', v, RANGES.requests[0], RANGES.requests[1]) })
    take('size', function (v) { return checkSize(v, context.limits.maxSize) })
    take('delay', function (v) { return checkInteger('delay', v, 0, context.limits.maxDelay, ' ms') })
    take('repeats', function (v) { return checkInteger('repeats', v, RANGES.repeats[0], RANGES.repeats[1]) })
    take('lanes', function (v) { return checkLanes(v, laneNames) })
    take('cold', function (v) {
      return typeof v === 'boolean' ? { value: v } : { error: 'cold must be true or false; got ' + shown(v) }
    })
    take('transport', function (v) {
      return TRANSPORTS.indexOf(v) >= 0 ? { value: v } : { error: 'transport must be ' + TRANSPORTS.map(shown).join(' or ') + '; got ' + shown(v) }
    })
    if (!errors.requests && !errors.size) {
      const inFlight = Math.min(out.requests, BROWSER.streams) * out.size
      if (inFlight > BROWSER.maxInFlightBytes) {
        errors.size = 'requests × size is too large for one batch: ' + out.requests + ' × ' + bytesText(out.size) +
          ' would keep ' + Math.min(out.requests, BROWSER.streams) + ' × ' + bytesText(out.size) + ' = ' + bytesText(inFlight) +
          ' in the browser at once (it receives up to ' + BROWSER.streams + ' HTTP/2 responses together and holds each whole' +
          ' until it ends); the limit is ' + bytesText(BROWSER.maxInFlightBytes) + ' in flight: lower the requests or the size'
      }
    }
    if (o.onProgress !== undefined && typeof o.onProgress !== 'function') {
      errors.onProgress = 'onProgress must be a function'
    }
    if (o.aroundBatch !== undefined && typeof o.aroundBatch !== 'function') {
      errors.aroundBatch = 'aroundBatch must be a function'
    }
    const unknown = Object.keys(o).filter(function (k) { return KNOWN.indexOf(k) < 0 })
    const ok = Object.keys(errors).length === 0
    return ok ? { ok: true, errors: {}, options: out, unknown: unknown } : { ok: false, errors: errors, unknown: unknown }
  }

  return {
    DEFAULTS: DEFAULTS, TRANSPORTS: TRANSPORTS, RANGES: RANGES, UNITS: UNITS, BROWSER: BROWSER, validate: validate, checkSize: checkSize, bytesText: bytesText
  }
}))

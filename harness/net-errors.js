'use strict'

// What Chromium says about each request it failed (net::ERR_HTTP2_PROTOCOL_ERROR,
// net::ERR_INSUFFICIENT_RESOURCES, …): a page only learns "status 0", so every
// bench script that drives the page counts these, by lane, through puppeteer.
//
// watchNetErrors(page, lanes, { ignore, via }) → {
//   byLane: live { lane name | 'other': { 'net::ERR_…': n } },
//   counts(lane) → { 'net::ERR_…': n }, total(), noteFor(lane) → text or null, stop() }
// `lanes`: [{ name, url }]; `ignore(errorText)`: true for failures that are
// not failures here (a Stop's aborts, say). `via`: 'requests' (puppeteer's
// 'requestfailed': needs its Network domain, harness/chromium/headless.js
// `network`; Firefox's BiDi network events) or 'console' (Chromium's own
// console line for each failed load, "Failed to load resource: net::ERR_…",
// with the request's URL: nothing reported for requests that succeed, and no
// Network domain needed; a request the page itself cancelled gets none).
const CONSOLE_NET_ERROR = /^Failed to load resource: (net::ERR_[A-Z0-9_]+)/
function watchNetErrors (page, lanes, { ignore = () => false, via = 'requests' } = {}) {
  const byLane = {}
  const count = (url, text) => {
    if (ignore(text)) return
    const lane = lanes.find(l => url.startsWith(l.url))
    const key = lane ? lane.name : 'other'
    const errors = byLane[key] || (byLane[key] = {})
    errors[text] = (errors[text] || 0) + 1
  }
  const onFailed = request => {
    const failure = request.failure()
    count(request.url(), (failure && failure.errorText) || 'unknown')
  }
  const onConsole = message => {
    const m = CONSOLE_NET_ERROR.exec(message.text())
    if (m) count((message.location() && message.location().url) || '', m[1])
  }
  const [event, listener] = via === 'console' ? ['console', onConsole] : ['requestfailed', onFailed]
  page.on(event, listener)
  const counts = lane => ({ ...byLane[lane] })
  return {
    byLane,
    counts,
    total: () => Object.values(byLane).reduce((n, errors) => n + Object.values(errors).reduce((a, b) => a + b, 0), 0),
    noteFor (lane) {
      const errors = Object.entries(counts(lane))
      if (!errors.length) return null
      return `the browser failed requests with ${errors.map(([e, n]) => `${e} (${n}×)`).join(', ')}${
        byLane[lane]['net::ERR_INSUFFICIENT_RESOURCES'] ? ': Chromium caps the requests one page may have in flight' : ''}`
    },
    stop: () => page.off(event, listener)
  }
}

module.exports = { watchNetErrors }

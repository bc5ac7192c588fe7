'use strict'

// What Chromium says about each request it failed (net::ERR_HTTP2_PROTOCOL_ERROR,
// net::ERR_INSUFFICIENT_RESOURCES, …): a page only learns "status 0", so every
// bench script that drives the page counts these, by lane, through puppeteer.
//
// watchNetErrors(page, lanes, { ignore }) → {
//   byLane: live { lane name | 'other': { 'net::ERR_…': n } },
//   counts(lane) → { 'net::ERR_…': n }, total(), noteFor(lane) → text or null, stop() }
// `lanes`: [{ name, url }]; `ignore(errorText)`: true for failures that are
// not failures here (a Stop's aborts, say).
function watchNetErrors (page, lanes, { ignore = () => false } = {}) {
  const byLane = {}
  const onFailed = request => {
    const failure = request.failure()
    const text = (failure && failure.errorText) || 'unknown'
    if (ignore(text)) return
    const lane = lanes.find(l => request.url().startsWith(l.url))
    const key = lane ? lane.name : 'other'
    const errors = byLane[key] || (byLane[key] = {})
    errors[text] = (errors[text] || 0) + 1
  }
  page.on('requestfailed', onFailed)
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
    stop: () => page.off('requestfailed', onFailed)
  }
}

module.exports = { watchNetErrors }

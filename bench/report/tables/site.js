'use strict'

// site's tables (bench/experiments/site.js): per URL, each forced protocol's loads, and per origin.
const BROWSER_NAMES = { chromium: 'Chromium', firefox: 'Firefox' }
const ms = v => v === null || v === undefined ? '–' : `${Math.round(v)}`

// The site experiment's tables under its main one (bench/report/runner/report-sections.js): [{ title, head, body }].
module.exports = function tables (rows) {
  const tables = []
  for (const cell of [...new Set(rows.map(r => r.cell))]) {
    const mine = rows.filter(r => r.cell === cell)
    const url = mine[0].preset
    const body = mine.map(r => {
      const s = r.site || {}
      return [BROWSER_NAMES[r.browser] || r.browser, r.lane, r.mode, `${r.samples.length} of ${r.samples.length + r.failures}`,
        ms(s.ttfbMedian), s.ttfbBoundMs === null || s.ttfbBoundMs === undefined ? '–' : `${ms(s.ttfbBoundMs)}${s.ttfbBelowBound ? ' BELOW: instrument error' : ''}`,
        ms(s.fcpMedian), ms(s.lcpMedian), ms(r.median), s.requests ?? '–', s.fromCacheMedian ?? '–', s.bytes === null || s.bytes === undefined ? '–' : `${(s.bytes / 1024).toFixed(0)} KiB`,
        s.newConnections ?? '–', s.protocols || '–', r.note || '']
    })
    tables.push({
      title: `${url}: medians per load (ms) of time to first byte, its lower bound (the round trips a new connection cannot avoid, each the link's round trip plus the shortest TCP connect measured to the origin less what a connect with no path costs here, less the browser timer's step; a repeat view's first request may reuse a connection: one round trip), first contentful paint, largest contentful paint and onload; requests, those the browser took from its cache, bytes received and new connections per load (medians, from the load's HAR); every request's protocol over the row's loads`,
      head: ['browser', 'forced', 'view', 'good loads', 'TTFB', 'TTFB bound', 'FCP', 'LCP', 'onload', 'requests', 'from cache', 'bytes', 'new connections', 'protocols of the requests', 'note'],
      body
    })
    const origins = mine.filter(r => r.site && r.site.origins).map(r => [BROWSER_NAMES[r.browser] || r.browser, r.lane, r.mode,
      r.site.connectionsBy || '–', Object.entries(r.site.origins).map(([o, v]) => `${o}: ${v.requests} requests, ${v.newConnections} new connections, ${v.protocols}`).join('; ')])
    const visual = mine.filter(r => r.site && 'speedIndexMedian' in r.site)
    if (visual.length) {
      tables.push({
        title: `${url}: visual progress (--visual; Chromium, a trace with screenshots per load, computed as Lighthouse computes it with speedline-core): medians per load (ms) of Speed Index, first and last visual change; the filmstrip of the row's median load (by onload), a frame every 100 ms, one row per protocol`,
        head: ['browser', 'forced', 'view', 'Speed Index', 'first visual change', 'last visual change', 'filmstrip'],
        body: visual.map(r => [BROWSER_NAMES[r.browser] || r.browser, r.lane, r.mode,
          ms(r.site.speedIndexMedian), ms(r.site.firstVisualChangeMedian), ms(r.site.lastVisualChangeMedian),
          r.site.filmstrip ? `${r.site.filmstrip}/filmstrip.html` : (r.site.loads.map(l => l.visual && l.visual.error).find(Boolean) || '–')])
      })
    }
    // The filmstrips: per view, a row per protocol (and browser), the median load's frames side by side.
    for (const view of [...new Set(visual.map(r => r.mode))]) {
      const strips = visual.filter(r => r.mode === view && r.site.filmstripFrames && r.site.filmstripFrames.length)
      if (!strips.length) continue
      const longest = strips.reduce((a, r) => r.site.filmstripFrames.length > a.length ? r.site.filmstripFrames : a, [])
      tables.push({
        title: `${url}: filmstrips, ${view} view: the median load (by onload) of each protocol, a frame every ${longest.length > 1 ? longest[1].ms - longest[0].ms : 100} ms from the navigation's start (visual progress in each frame's text)`,
        head: ['browser', 'forced', ...longest.map(f => `${(f.ms / 1000).toFixed(1)} s`)],
        body: strips.map(r => [BROWSER_NAMES[r.browser] || r.browser, r.lane,
          ...longest.map((_, i) => {
            const f = r.site.filmstripFrames[i]
            return f ? { image: `${r.site.filmstrip}/${f.file}`, alt: `${r.lane} ${(f.ms / 1000).toFixed(1)} s${f.progress === null ? '' : `, ${f.progress} %`}` } : ''
          })])
      })
    }
    // Requests that failed below HTTP (common/failed-requests.js): a load with one no --allow-failed pattern expected
    // is a failed load, so the row's figures are its other loads'; each origin that had one is named.
    const failing = mine.filter(r => r.site && r.site.failed && (r.site.failed.requests || r.site.failed.allowed))
    if (failing.length) {
      tables.push({
        title: `${url}: requests that failed below HTTP (a network, TLS or protocol error; not an HTTP status), over the row's loads: a load with a failure not expected by --allow-failed is a failed load, left out of the row's figures`,
        head: ['browser', 'forced', 'view', 'loads failed by it', 'failed requests', 'expected (--allow-failed)', 'origins (failed requests: errors)'],
        body: failing.map(r => [BROWSER_NAMES[r.browser] || r.browser, r.lane, r.mode, `${r.site.failed.loads} of ${r.site.loads.length}`, r.site.failed.requests, r.site.failed.allowed,
          r.site.failed.origins.map(o => `${o.origin} (${o.failed}: ${o.errors.join(', ')})`).join('; ')])
      })
    }
    if (origins.length) tables.push({ title: `${url}: per origin, in the row's median load: requests, the connections it opened (Chromium: connection ids not seen in an earlier load of the same browser, preconnected sockets included; Firefox: requests whose timings show a connection set up), protocols`, head: ['browser', 'forced', 'view', 'connections by', 'origins'], body: origins })
  }
  return tables
}

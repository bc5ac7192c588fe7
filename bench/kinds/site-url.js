'use strict'

// Kind `site-url` (experiment site): a URL of the user's, each load in a browser of the cell's own
// (Chromium or Firefox) with one protocol forced, on the real path or behind the cell's link: no
// lane, no shared browser, no Caddy (bench/cells/site-url.js).
// The cell runner loads when a cell runs, not when a report reads a bound (it brings the browser drivers).
const cells = () => require('../cells/site-url')
const { networkNumbers } = require('./bound-form')

module.exports = {
  kind: 'site-url',
  needs: { browser: true, ownServers: false, ownBrowser: true, browsers: ['chromium', 'firefox'] },
  // Before any browser starts: every page's origin reachable (a mistyped host costs one line).
  preflight: list => cells().checkSites(list),
  async run (ctx) {
    const rows = await cells().runSiteUrlCell(ctx)
    ctx.onBrowser((rows.find(r => r.browserVersion) || {}).browserVersion || null)
    return rows
  },
  estimateMs: null, // its experiment's own
  // Nothing is known of the page's chain of requests, so the bound is the document's first byte:
  // the round trips a new connection cannot avoid (TCP's and TLS 1.3's handshakes and the request;
  // QUIC's handshake and the request), one for a repeat view, which may find its connection open
  // (site-url.js ROUNDS); its rate is unknown. Its rounds only: a load whose document came from the
  // cache (0 rounds) needs no round trip at all, so the general form's one round for streaming the
  // bytes does not hold.
  bound (row) {
    if (!row.site) return null
    const { rttMs, downBitsPerSecond } = networkNumbers(row)
    if (row.site.rttMs === null || row.site.rttMs === undefined) return null
    const latencyMs = row.site.ttfbRounds * rttMs
    return { ms: latencyMs, latencyMs, bandwidthMs: 0, rounds: row.site.ttfbRounds, rttMs, downBitsPerSecond, bytes: Math.round(row.site.bytes || 0) }
  }
}

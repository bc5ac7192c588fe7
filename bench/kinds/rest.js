'use strict'

// Kind `rest` (experiment rest): REST visits of a collection and its items in the h2bench page
// (many small requests, one compound document, cache, revalidation, push), in Chromium and
// Firefox behind the link; and once per cell, push at the protocol level with Node's http2
// client (bench/cells/rest.js).
// The cell runner loads when a cell runs, not when a report reads a bound (it brings the browser drivers).
const cells = () => require('../cells/rest')
const { inSharedEnv } = require('./shared-env')
const { boundFrom, wireOf, isH1, restLinkBytes, BROWSER_CONNECTIONS } = require('./bound-form')

module.exports = {
  kind: 'rest',
  needs: { browser: true, ownServers: false, ownBrowser: false, browsers: ['chromium', 'firefox'], networks: ['link'] },
  run: ctx => inSharedEnv(ctx, cells().runRestCell),
  estimateMs: null, // its experiment's own
  // A REST visit: the collection (its links), then the items not in the cache (a fresh hit costs
  // nothing; a 304 costs a round trip and headers, no body); compound: one response, the links and
  // every item in it. Null for a row that is not a visit's.
  bound (row) {
    if (!row.rest) return null
    const n = row.params.requests
    const size = row.params.sizeBytes || 0
    const wire = wireOf(row)
    const compound = row.mode === 'compound'
    const pushed = /push-protocol/.test(row.mode || '') && row.pushed > 0
    const h1 = isH1(row)
    const fetched = compound || pushed ? 0 : Math.max(0, Math.round(row.rest.network || 0) - 1)
    const bodies = compound ? n : fetched - Math.round(row.rest.revalidated || 0) + (pushed ? n : 0)
    const rounds = compound || pushed ? 1 : fetched === 0 ? 1 : 1 + (h1 ? Math.ceil(fetched / BROWSER_CONNECTIONS) : 1)
    const links = restLinkBytes(n, size)
    const bytes = compound
      ? wire(links + n * size)
      : wire(links) + Math.max(0, bodies) * wire(size) + Math.max(0, fetched - Math.max(0, bodies)) * wire(0)
    const perConnection = h1 && !compound ? wire(links) + Math.ceil(fetched / BROWSER_CONNECTIONS) * wire(size) : bytes
    return boundFrom(row, { rounds, bytes, perConnection })
  }
}

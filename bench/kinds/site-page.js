'use strict'

// Kind `site-page` (experiments h3-pages, h3-cc): navigations to each lane's /site page on new
// connections, the cell's TCP congestion control set where asked (bench/cells/site-page.js).
// The cell runner loads when a cell runs, not when a report reads a bound (it brings the browser drivers).
const cells = () => require('../cells/site-page')
const { composition } = require('../../server/routes/site')
const { inSharedEnv } = require('./shared-env')
const { boundFrom, protocolOf, headerBytesOf, WIRE } = require('./bound-form')

module.exports = {
  kind: 'site-page',
  needs: { browser: true, ownServers: false, ownBrowser: false, browsers: ['chromium'] },
  run: ctx => inSharedEnv(ctx, cells().runSitePageCell),
  estimateMs: null, // its experiments' own
  // A navigation to /site (server/routes/site.js) on a new connection (the cell closes them after
  // every load): the document, then its subresources; the handshake as short as the protocol allows
  // a returning client: QUIC's 0-RTT none, TCP's SYN one (no TCP Fast Open; TLS 1.3 could send the
  // request as early data); every response's bytes. h3-common.js's pageBoundMs is this for every lane.
  bound (row) {
    const protocol = protocolOf(row)
    const size = row.params.sizeBytes || 0
    const parts = composition(size).length
    const bytes = (size + parts * headerBytesOf(protocol)) * (row.network === 'link' ? WIRE : 1)
    return boundFrom(row, { rounds: protocol === 'h3' ? 2 : 3, bytes, perConnection: bytes })
  }
}

'use strict'

// Kind `ttfb` (experiment h3-ttfb): time to the first byte of a small response on a new
// connection, cold and on a repeat visit, in a Chromium of the cell's own with its net-log on,
// behind the run's link (bench/cells/h3-ttfb.js).
// The cell runner loads when a cell runs, not when a report reads a bound (it brings the browser drivers).
const cells = () => require('../cells/h3-ttfb')
const { inSharedEnv } = require('./shared-env')

module.exports = {
  kind: 'ttfb',
  // The run's lanes and link; its own Chromium, started per cell inside the link's namespace.
  needs: { browser: true, ownServers: false, ownBrowser: false, browsers: ['chromium'], networks: ['link'] },
  run: ctx => inSharedEnv(ctx, cells().runTtfbCell),
  estimateMs: null, // its experiment's own
  // None: its cells count their own round trips (a row's ttfb.roundTrips).
  bound: () => null
}

'use strict'

// Kind `push-protocol` (experiments push-protocol, push-link): no browser; page and scripts by
// push and by request with Node's http2 client on the run's HTTP/2 lanes, in the link's namespace
// when there is one (bench/cells/push-protocol-cell.js). It runs once per cell, in the first
// asked browser's pass.
// The cell runner loads when a cell runs, not when a report reads a bound (it brings the browser drivers).
const cells = () => require('../cells/push-protocol-cell')
const { pairedLoadsMs } = require('../cells/budget')
const { inSharedEnv } = require('./shared-env')
const pushPage = require('./push-page')

module.exports = {
  kind: 'push-protocol',
  needs: { browser: false, ownServers: false, ownBrowser: false, browsers: null },
  run: ctx => inSharedEnv(ctx, cells().runPushProtocolCell),
  // Per lane: two loads (push, request) of the scripts through the preset.
  estimateMs: pairedLoadsMs,
  // The /push page and its scripts, as push-page's (a protocol-level client's load is bound alike).
  bound: pushPage.bound
}

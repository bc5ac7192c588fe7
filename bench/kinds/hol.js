'use strict'

// Kind `hol` (experiment h3-hol): head-of-line blocking, one window.h2bench.run batch of many
// parallel requests on one connection under loss, behind the packet-level link only
// (bench/cells/h3-hol.js).
// The cell runner loads when a cell runs, not when a report reads a bound (it brings the browser drivers).
const cells = () => require('../cells/h3-hol')
const { inSharedEnv } = require('./shared-env')
const page = require('./page')

module.exports = {
  kind: 'hol',
  needs: { browser: true, ownServers: false, ownBrowser: false, browsers: ['chromium'], networks: ['link'] },
  run: ctx => inSharedEnv(ctx, cells().runHolCell),
  estimateMs: null, // its experiment's own (its cells are a link's loss, not a preset)
  // The page's batch, through a lossy link (the loss is what the bound leaves out).
  bound: page.bound
}

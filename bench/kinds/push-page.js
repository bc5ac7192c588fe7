'use strict'

// Kind `push-page` (experiment push): navigations of a tab to each lane's /push page, its
// scripts pushed or requested (bench/cells/push-page.js).
// The cell runner loads when a cell runs, not when a report reads a bound (it brings the browser drivers).
const cells = () => require('../cells/push-page')
const { presetCost } = require('../cells/budget')
const { inSharedEnv } = require('./shared-env')
const { boundFrom, wireOf, PAGE_BYTES } = require('./bound-form')

// The /push page and its n scripts: the page, then (unless they were pushed) its scripts, one
// round each.
function pushBound (row) {
  const n = row.params.assets
  const wire = wireOf(row)
  const size = row.params.sizeBytes || 0
  const pushed = row.mode === 'push' && (row.pushed === undefined ? !/refused|cannot/.test(row.pushOutcome || '') : row.pushed > 0)
  const bytes = wire(PAGE_BYTES) + n * wire(size)
  return boundFrom(row, { rounds: pushed ? 1 : 2, bytes, perConnection: bytes })
}

module.exports = {
  kind: 'push-page',
  needs: { browser: true, ownServers: false, ownBrowser: false, browsers: ['chromium'] },
  run: ctx => inSharedEnv(ctx, cells().runPushPageCell),
  // Per lane and mode: the scripts' bytes through the preset and two of its latencies.
  estimateMs ({ experiment, cell }, { lanes, bytesPerMs }) {
    const { latencyMs, transferMs, size } = presetCost(cell, bytesPerMs)
    return lanes * experiment.modes.length * (transferMs(cell.assets * size) + 2 * latencyMs + 100)
  },
  bound: pushBound
}

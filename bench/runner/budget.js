'use strict'

// Time budget per cell, and the run's estimate of what is left. Under the
// 2G presets one repeat of a cell takes minutes, so a cell gets as many of
// the asked repeats as fit its budget, judged from its first repeat.
const { parseSize } = require('../../server/payload')
const { presetByName, toCdp } = require('../../link/devtools-presets')

// Repeats that fit the budget, judged from how long the first one took.
// Always at least the first, never more than asked.
function repeatsFor (asked, firstMs, budgetMs) {
  if (asked <= 1 || !(firstMs > 0)) return asked
  return Math.max(1, Math.min(asked, Math.floor(budgetMs / firstMs)))
}

// Why a cell got fewer repeats than asked, for the row's note; null if it
// got them all.
function budgetNote (asked, got, firstMs, budgetMs) {
  if (got >= asked) return null
  return `${got} of ${asked} repeats: the first took ${(firstMs / 1000).toFixed(1)} s and the budget is ${formatDuration(budgetMs)} per cell`
}

// "90", "90s", "2m", "1.5min" → ms. Bare numbers are seconds.
function parseDuration (raw) {
  const m = /^(\d+(?:\.\d+)?)\s*(s|sec|m|min)?$/i.exec(String(raw).trim())
  if (!m) return null
  const ms = Number(m[1]) * (/^m/i.test(m[2] || '') ? 60000 : 1000)
  return ms > 0 ? Math.round(ms) : null
}

function formatDuration (ms) {
  if (ms < 60000) return `${Math.round(ms / 1000)} s`
  const min = Math.floor(ms / 60000)
  const s = Math.round((ms % 60000) / 1000)
  return s ? `${min} min ${s} s` : `${min} min`
}

// Rough cost of one cell, in ms, before it runs: throttled transfers from
// the preset (bytes through the shared pipe, plus one latency per round of
// six HTTP/1.1 requests), unthrottled ones at `bytesPerMs` (about what
// Chromium gets from these servers on loopback). Good enough to rank cells
// and to scale by what the run has measured so far.
function estimateCellMs (entry, { lanes, repeats, budgetMs, bytesPerMs = 30000 }) {
  const { experiment, cell } = entry
  // An experiment whose cells are not presets estimates its own (h3-ttfb, h3-hol).
  if (experiment.estimateMs) {
    const own = experiment.estimateMs(cell, { lanes })
    return repeatsFor(repeats, own, budgetMs) * own
  }
  const cdp = toCdp(presetByName(cell.preset))
  const size = cell.size === undefined ? 0 : parseSize(cell.size)
  const transfer = bytes => cdp.downloadThroughput > 0 ? bytes / cdp.downloadThroughput * 1000 : bytes / bytesPerMs
  const delay = cell.delay || 0
  let perRepeat
  if (experiment.kind === 'page') {
    const rounds = Math.ceil(cell.requests / 6)
    perRepeat = lanes * (transfer(cell.requests * size) + rounds * (cdp.latency + delay) + 30)
  } else if (experiment.kind === 'push-page') {
    perRepeat = lanes * experiment.modes.length * (transfer(cell.assets * size) + 2 * cdp.latency + 100)
  } else {
    perRepeat = lanes * 2 * (transfer(cell.assets * size) + 2 * delay + 10)
  }
  return repeatsFor(repeats, perRepeat, budgetMs) * perRepeat
}

// Remaining time: the estimates of the cells left, scaled by how the
// finished cells compared with their own estimates.
function remainingMs ({ doneEstimateMs, doneActualMs, leftEstimateMs }) {
  const scale = doneEstimateMs > 0 ? Math.min(4, Math.max(0.25, doneActualMs / doneEstimateMs)) : 1
  return leftEstimateMs * scale
}

module.exports = { repeatsFor, budgetNote, parseDuration, formatDuration, estimateCellMs, remainingMs }

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

// About what Chromium gets from these servers on loopback, in bytes a ms.
const BYTES_PER_MS = 30000

// A cell's preset as an estimate reads it (the kinds' estimateMs, bench/kinds/):
// its per-request latency, the time `bytes` take through its throughput
// (unthrottled: at `bytesPerMs`), the cell's size in bytes and its server delay.
function presetCost (cell, bytesPerMs = BYTES_PER_MS) {
  const cdp = toCdp(presetByName(cell.preset))
  return {
    latencyMs: cdp.latency,
    transferMs: bytes => cdp.downloadThroughput > 0 ? bytes / cdp.downloadThroughput * 1000 : bytes / bytesPerMs,
    size: cell.size === undefined ? 0 : parseSize(cell.size),
    delayMs: cell.delay || 0
  }
}
// Two loads a lane of the cell's assets through its preset, each two server
// delays long: push-protocol's estimate of one repeat, and that of a cell whose
// experiment and kind give none.
function pairedLoadsMs (entry, { lanes, bytesPerMs = BYTES_PER_MS }) {
  const { transferMs, size, delayMs } = presetCost(entry.cell, bytesPerMs)
  return lanes * 2 * (transferMs(entry.cell.assets * size) + 2 * delayMs + 10)
}

// Rough cost of one cell, in ms, before it runs: one repeat as its experiment
// estimates it (an experiment whose cells are not presets: h3-ttfb, h3-hol, …),
// else as its `kind` does (a bench/kinds/ module: throttled transfers from the
// preset, rounds of latency), times the repeats that fit the budget. Good
// enough to rank cells and to scale by what the run has measured so far.
function estimateCellMs (entry, { kind, lanes, repeats, budgetMs, bytesPerMs = BYTES_PER_MS }) {
  const { experiment, cell } = entry
  const perRepeat = experiment.estimateMs
    ? experiment.estimateMs(cell, { lanes })
    : ((kind && kind.estimateMs) || pairedLoadsMs)(entry, { lanes, bytesPerMs })
  return repeatsFor(repeats, perRepeat, budgetMs) * perRepeat
}

// Remaining time: the estimates of the cells left, scaled by how the
// finished cells compared with their own estimates.
function remainingMs ({ doneEstimateMs, doneActualMs, leftEstimateMs }) {
  const scale = doneEstimateMs > 0 ? Math.min(4, Math.max(0.25, doneActualMs / doneEstimateMs)) : 1
  return leftEstimateMs * scale
}

module.exports = { repeatsFor, budgetNote, parseDuration, formatDuration, estimateCellMs, presetCost, pairedLoadsMs, remainingMs }

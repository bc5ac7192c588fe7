'use strict'

// What every load tool adapter shares: the error for a tool that is not
// installed (one line with the install command), reading its version, and
// the one result shape every adapter's parse() returns.
const { spawnSync } = require('node:child_process')
const { quantile } = require('../../shared/stats')
const { UserError } = require('../../common/errors')

class ToolMissingError extends UserError {
  constructor (tool, hint) {
    super(`${tool} is not installed: ${hint}`, { status: 503, code: 'H2B_TOOL_MISSING' })
    this.tool = tool
  }
}

// The first line a version flag prints, or a ToolMissingError.
function toolVersion (tool, executable, args, hint, pick = out => out.split('\n')[0]) {
  const r = spawnSync(executable, args, { encoding: 'utf8' })
  if (r.error) throw new ToolMissingError(tool, hint)
  return pick(`${r.stdout}${r.stderr}`).trim()
}

// A tool's output that does not say what we read from it: an Error naming
// the tool, what is missing and the output's tail.
function unreadable (tool, what, text) {
  const tail = String(text).trim().split('\n').slice(-4).join(' | ').slice(0, 400)
  return new Error(`${tool} printed no ${what}${tail ? `: ${tail}` : ' (no output)'}`)
}

// Latency percentiles (ms) from per-request latencies, or null without any.
function percentiles (latenciesMs) {
  if (!latenciesMs.length) return null
  return { p50: quantile(latenciesMs, 0.5), p90: quantile(latenciesMs, 0.9), p99: quantile(latenciesMs, 0.99), max: Math.max(...latenciesMs) }
}

// The shape of every parse(): totalMs (the tool's own, or the wall clock
// for a tool without one), requests done / succeeded (2xx) / failed (errors,
// non-2xx, never done), latency percentiles, the tool's own transfer figure
// (bytes/s, null if it has none) and its own connection count: what the
// tool itself says or does (toolConnections(): h2load's clients, ab's one
// per request, nghttp's one, oha's from its CSV), beside the server's ledger
// on a lane, the only count where the server is not one.
function result ({ totalMs, asked, succeeded, failed, latency, toolBytesPerSec = null, toolConnections = null, notes = [] }) {
  return { totalMs, asked, succeeded, failed, latency, toolBytesPerSec, toolConnections, notes }
}

// The tool's own connection count: `count`, `perConnection` { min, median,
// max } or null where it does not tell, and `how` it knows, for the reader.
function toolConnections (count, perConnection, how) {
  return { count, perConnection, how }
}

// Where a row's conns and req/conn come from (load/load.js rowOf, load/table.js): a lane's
// connection ledger, or where the server is not a lane, the tool's own count.
const FROM_LEDGER = 'server ledger'
const FROM_TOOL = 'no ledger: the tool\'s own count'

// { min, median, max } of counts (requests per connection), or null without any.
function spread (counts) {
  if (!counts.length) return null
  const v = counts.slice().sort((a, b) => a - b)
  return { min: v[0], median: quantile(v, 0.5), max: v[v.length - 1] }
}

module.exports = { toolConnections, spread, FROM_LEDGER, FROM_TOOL, ToolMissingError, toolVersion, unreadable, percentiles, result }

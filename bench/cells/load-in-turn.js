'use strict'

// Runs in turn (a load cell's `inTurn: { runs, deadlineS }`, bench/cells/load.js):
// one run of a lane made of `runs` runs of its tool one after another, each a
// new process and so new connections, as the QUIC interop runner's
// "multiconnect" client fetches each file on a connection of its own
// (testcases_quic.py TestCaseHandshakeLoss: 50 files, 300 s for all). Each
// run meets a link seed of its own, else every handshake would meet the same
// drops; the same for every lane (paired). What the runs did is merged into
// one run row of load/load.js's shape: their times and counts added.
const stats = require('../../shared/stats')
const { sumCosts } = require('../../harness/cell-costs')

// More runs than this and run i of repeat r would share its seed with run i - 1000 of repeat r + 1.
// The command a row of runs in turn records ("50 runs in turn of: h2load …"), and back: how many (the report's workload reads it).
const IN_TURN = /^(\d+) runs in turn of: /
const inTurnCommand = (runs, command) => `${runs} runs in turn of: ${command}`
const turnsOf = row => Number((IN_TURN.exec(String(row.load && row.load.command)) || [0, 1])[1])

const MAX_RUNS = 1000

// The seed of run i (0-based) of a run whose seed is `base`: base × 1000 + i, as text (above 2^53;
// the link takes seeds below 2^64), or null when the run has no seed (no link).
function turnSeed (base, i) {
  if (base === null || base === undefined) return null
  if (!Number.isInteger(i) || i < 0 || i >= MAX_RUNS) throw new Error(`run ${i} in turn: at most ${MAX_RUNS} runs in turn (0…${MAX_RUNS - 1})`)
  return String(BigInt(base) * 1000n + BigInt(i))
}

// The time a run took by its own timer, else (a run that failed) the meter's window, else 0.
const timeOf = x => x.totalMs ?? (x.costs ? x.costs.wallMs : 0) ?? 0

const sum = (list, f) => list.reduce((n, x) => n + (f(x) || 0), 0)
const some = (list, f) => list.some(x => f(x) !== null && f(x) !== undefined)
const num = (v, digits = 2) => v === null || !Number.isFinite(v) ? null : +v.toFixed(digits)

// The link's counters of the runs, added per direction (load/run-tool.js wireOf).
function addWire (list) {
  const wires = list.map(x => x.wire).filter(Boolean)
  if (!wires.length) return null
  const dir = d => Object.fromEntries(Object.keys(wires[0][d]).map(k => [k, sum(wires, w => w[d][k])]))
  return { up: dir('up'), down: dir('down') }
}

// The runs of one lane in turn (rows of load/load.js's measure, in the order they ran) as one run:
// those that finished before their times added up to `deadlineS` count; the rest, and those not run,
// did not complete. → a row of load.measure's shape, its command "N runs in turn of: <the tool's>"
// (the runner's rows keep it: turnsOf reads N back), with `attempted`.
function mergeInTurn (list, { runs, deadlineS = null, seed = null }) {
  if (!list.length) throw new Error('mergeInTurn: no runs to merge')
  const first = list[0]
  let spent = 0
  const inTime = []
  for (const x of list) {
    spent += timeOf(x)
    if (deadlineS !== null && spent > deadlineS * 1000) break
    inTime.push(x)
  }
  const done = inTime.filter(x => !x.error && x.failed === 0)
  const requests = runs * first.requests
  const succeeded = sum(inTime, x => x.error ? 0 : x.succeeded)
  const totalMs = done.length ? num(sum(done, x => x.totalMs)) : null
  const secs = totalMs ? totalMs / 1000 : null
  const per = inTime.map(x => x.requestsPerConnection).filter(Boolean)
  const missed = runs - done.length
  const errors = [...new Set(list.filter(x => x.error).map(x => x.error))]
  const why = missed === 0 ? null
    : [`${missed} of ${runs} runs in turn did not complete`,
        inTime.length < list.length ? `the ${deadlineS} s deadline passed after ${inTime.length} of them` : null,
        list.length < runs && inTime.length === list.length ? `${runs - list.length} not run` : null,
        errors.length ? `first error: ${errors[0]}` : null].filter(Boolean).join('; ')
  return {
    ...first,
    command: inTurnCommand(runs, first.command),
    requests,
    totalMs,
    reqPerSec: secs ? num(succeeded / secs) : null,
    mbPerSec: secs ? num(succeeded * first.sizeBytes / secs / 1e6, 4) : null,
    toolBytesPerSec: null,
    // Each run's own time (its handshake and request) is one latency of the merged run.
    latencyMs: done.length ? {
      p50: num(stats.quantile(done.map(x => x.totalMs), 0.5)),
      p90: num(stats.quantile(done.map(x => x.totalMs), 0.9)),
      p99: num(stats.quantile(done.map(x => x.totalMs), 0.99)),
      max: num(Math.max(...done.map(x => x.totalMs)))
    } : null,
    succeeded,
    failed: requests - succeeded,
    connections: some(inTime, x => x.connections) ? sum(inTime, x => x.connections) : null,
    requestsPerConnection: per.length ? {
      min: Math.min(...per.map(p => p.min)),
      median: stats.median(per.map(p => p.median)),
      max: Math.max(...per.map(p => p.max))
    } : null,
    serverRequests: some(inTime, x => x.serverRequests) ? sum(inTime, x => x.serverRequests) : null,
    wire: addWire(list),
    toolCpuMs: some(list, x => x.toolCpuMs) ? sum(list, x => x.toolCpuMs) : null,
    costs: sumCosts(list.map(x => x.costs)),
    error: why,
    notes: [...new Set(list.flatMap(x => x.notes || []))],
    attempted: list.length,
    ...(seed === null || seed === undefined ? {} : { linkSeed: seed })
  }
}

module.exports = { turnSeed, mergeInTurn, timeOf, MAX_RUNS, inTurnCommand, turnsOf }

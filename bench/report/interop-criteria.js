'use strict'

// The QUIC interop runner's pass criteria (interop-cases.js) on our result
// rows (bench/cells/load.js), its goodput figure beside ours, and HTTP/3
// against the TCP lanes by the verdict engine (shared/verdict.js through
// bench/report/runner/conclusions.js). Rows here: one lane in one scenario, its
// samples the tool's time of each run that completed (a run of handshakeloss:
// its 50 handshakes in turn), `failures` the runs that did not.
const stats = require('../../shared/stats')
const { productInterval, RULES } = require('../../shared/verdict')
const { engineVerdict } = require('./runner/conclusions')
const { compareRows } = require('./runner/compare-rows')
const { turnsOf } = require('../cells/load-in-turn')
const { boundOf } = require('./runner/bounds')
const { parseLinkSpec } = require('../../link/spec')
const { caseByName } = require('../experiments/interop-cases')

// The interop runner's goodput unit: 8 × bytes ÷ ms, bits a millisecond: kbit/s (MeasurementGoodput.check).
const kbps = (bytes, ms) => 8 * bytes / ms

// Its figure of a measurement, as interop.py _run_measurement prints it: the mean and the sample
// standard deviation (statistics.stdev: n − 1) of the repetitions' goodputs, "{:.0f} (± {:.0f}) kbps".
// → { mean, sd, text }; sd null (and no ±) below 2 values, where statistics.stdev raises.
function interopFigure (values) {
  if (!values.length) return null
  const mean = stats.mean(values)
  const sd = values.length > 1 ? stats.stdev(values) : null
  return { mean, sd, text: `${Math.round(mean)}${sd === null ? '' : ` (± ${Math.round(sd)})`} kbps` }
}

// Ours: the median goodput and its 95 % interval by the verdict engine's own bootstrap (its RULES:
// percentile bootstrap of the median, seeded); no interval below the engine's 5 good runs.
function ourFigure (values) {
  if (!values.length) return null
  const median = stats.median(values)
  if (values.length < RULES.minRuns) return { median, low: null, high: null, text: `${Math.round(median)} kbps (no interval: ${values.length} run${values.length === 1 ? '' : 's'}, the engine needs ${RULES.minRuns})` }
  const i = productInterval([values], [], RULES)
  return { median, low: i.low, high: i.high, text: `${Math.round(median)} kbps (${Math.round(RULES.confidence * 100)} % interval ${Math.round(i.low)}–${Math.round(i.high)})` }
}

// Each completed run's goodput (kbps): the file's bytes over the run's time.
const goodputs = (row, c) => row.samples.map(ms => kbps(row.params.sizeBytes ?? c.size, ms))

const secs = ms => ms === null || ms === undefined ? '–' : `${(ms / 1000).toFixed(ms < 10000 ? 3 : 2)} s`
const plural = (n, word) => `${n} ${word}${n === 1 ? '' : 's'}`

// The handshakes a handshakeloss row completed, over all its runs (each run its handshakes in turn).
function handshakesOf (row) {
  const per = turnsOf(row)
  const runs = row.load ? row.load.runs : row.samples.length + row.failures
  const asked = runs * per
  return { asked, completed: asked - (row.load ? row.load.failedRequests : 0), per }
}

// One lane in one case by the case's criterion. A run passes when it completed (every request
// answered 2xx with its bytes: a failed request, a tool error or the case's timeout, which the
// tool is killed at, make it no sample) within the case's timeout, and the server's ledger saw
// the case's number of connections (the median over the runs: its handshakes).
// → { status: 'pass' | 'fail' | 'mixed' (a test that passed in some of our runs) | 'not run', runs, passed, why: [...] }
function judge (row, c) {
  if (!row) return { status: 'not run', runs: 0, passed: 0, why: ['no row'] }
  const runs = row.samples.length + row.failures
  if (!runs) return { status: 'not run', runs: 0, passed: 0, why: [row.note || 'no runs'] }
  const limit = c.timeoutS * 1000
  const late = row.samples.filter(ms => ms > limit).length
  const conns = row.load ? row.load.connections : null
  const connsOk = conns === null || conns === undefined || conns === c.handshakes
  const passed = connsOk ? row.samples.length - late : 0
  const why = []
  if (row.failures) why.push(`${row.failures} of ${plural(runs, 'run')} did not complete${row.note ? ` (${row.note})` : ''}`)
  if (late) why.push(`${late} of ${plural(runs, 'run')} over its ${c.timeoutS} s`)
  if (!connsOk) why.push(`the server saw ${conns} connections (median over the runs), the case wants ${c.handshakes}`)
  // A test runs once there, so some of our runs passing is a mixed result; a measurement's repetitions are
  // ours, and one that fails fails it (interop.py _run_measurement returns at the first).
  return { status: passed === runs ? 'pass' : passed === 0 || c.measurement ? 'fail' : 'mixed', runs, passed, why }
}

// "pass (5 of 5 runs)", "FAIL (0 of 5 runs: …)", with the interop runner's own count where it differs.
function judgement (row, c) {
  const j = judge(row, c)
  if (j.status === 'not run') return { ...j, text: 'not run' }
  const theirs = c.measurement && j.runs !== c.repetitions ? `; the interop runner makes ${c.repetitions} and needs all` : ''
  const word = { pass: 'pass', fail: 'FAIL', mixed: 'MIXED' }[j.status]
  return { ...j, text: `${word} (${j.passed} of ${plural(j.runs, 'run')} by its criterion${theirs}${j.why.length ? `: ${j.why.join('; ')}` : ''})` }
}

// The outage of a row's link ({ onMs, offMs, count (0: repeating) }), or null.
function outageOf (row) {
  const link = row.linkSpec ? parseLinkSpec(row.linkSpec, { traces: false }) : null
  const o = link && (link.down.outage || link.up.outage)
  return o ? { onMs: o.onUs / 1000, offMs: o.offUs / 1000, count: o.count || 0 } : null
}

// A row's case as the row ran it (a smoke cell is smaller: its own size, handshakes and outage).
function caseOfRow (row) {
  const c = caseByName(row.preset)
  const o = c.blackhole ? outageOf(row) : null
  return {
    ...c,
    size: row.params.sizeBytes ?? c.size,
    handshakes: row.load ? turnsOf(row) : c.handshakes,
    ...(o ? { blackhole: { onS: o.onMs / 1000, offS: o.offMs / 1000 } } : {})
  }
}

// The interop runner's criterion of case `c` as a claim's `meets` criterion (bench/report/claims/forms.js): each lane's
// row judged as above (judge: the case's timeout, its number of connections by the server's ledger, every run;
// the runner's checks are cited in interop-cases.js: testcase.py, testcases_quic.py, interop.py), on the case as the
// row ran it. Met when the lane passed, not met when it failed or passed in only some of our runs (mixed), not
// measured when it did not run.
function runnerCriterion (c) {
  return {
    name: `the QUIC interop runner's criterion for ${c.name} (${c.source})`,
    test (row) {
      const j = judgement(row, caseOfRow(row))
      return { met: j.status === 'not run' ? null : j.status === 'pass', why: j.text }
    }
  }
}

// What a row measured, in words, for its case: the time (median and quartiles), and per case what
// the interop runner reports or checks.
function resultText (row, c) {
  if (!row || !row.samples.length) return row && row.failures ? `no run completed (${row.failures} failed)` : '–'
  const iqr = row.samples.length > 1 ? ` (${secs(row.q1)}–${secs(row.q3)})` : ''
  const parts = [`median ${secs(row.median)}${iqr} over ${plural(row.samples.length, 'run')}`]
  if (c.measurement) {
    const g = goodputs(row, c)
    parts.push(`goodput ${ourFigure(g).text}`, `as the interop runner reports it: ${interopFigure(g).text}`)
  }
  if (c.handshakes > 1) {
    const h = handshakesOf(row)
    parts.push(`${h.completed} of ${h.asked} handshakes completed (${h.per} a run)`)
    // Each handshake's own time (its tool run: the handshake and the file), percentiles within a run, the median over the runs.
    if (row.load && row.load.p50 !== null && row.load.p50 !== undefined) parts.push(`a handshake and its file p50 ${secs(row.load.p50)}, p90 ${secs(row.load.p90)}, p99 ${secs(row.load.p99)}`)
  }
  const o = outageOf(row)
  if (o) {
    const dark = row.costs && row.costs.link ? row.costs.link.down.otherDropped + row.costs.link.up.otherDropped : null
    if (o.count) parts.push(`${o.count === 1 ? 'one outage' : `${o.count} outages`} of ${o.offMs / 1000} s after ${o.onMs / 1000} s up, as the interop runner's`)
    else {
      // A repeating outage: a run that ended before the second met one.
      const second = 2 * o.onMs + o.offMs
      const once = row.samples.filter(ms => ms < second).length
      parts.push(`${once} of ${plural(row.samples.length, 'run')} ended before the link's second outage at ${second / 1000} s (one outage, as the interop runner's), ${row.samples.length - once} after it`)
    }
    if (dark !== null) parts.push(`${dark} packets dropped in the dark`)
  }
  return parts.join('; ')
}

// The row's lower bound (bench/report/runner/bounds.js: bytes through the rate and the handshake's round trips), ms.
function boundMs (row) {
  const b = row && row.load && row.load.command ? boundOf(row, 'load') : null
  return b ? b.ms : null
}

const TCP_LANES = ['h2e', 'h1', 'h2', 'h2n']

// HTTP/3 (h3) against each TCP lane in a case's rows, by the verdict engine: →
// [{ lane, verdict ('faster': h3 is faster than that lane), ratio (the lane's time over h3's), low, high, sentence }].
function h3Against (rows) {
  const h3 = rows.find(r => r.lane === 'h3' && !r.mode)
  if (!h3) return []
  return TCP_LANES.map(lane => rows.find(r => r.lane === lane && !r.mode)).filter(Boolean).map(tcp => {
    const c = compareRows(tcp, h3)
    return { lane: tcp.lane, verdict: engineVerdict(tcp, h3), ratio: c.ratio, low: c.low, high: c.high, sentence: c.sentence }
  })
}

module.exports = {
  kbps, interopFigure, ourFigure, goodputs, judge, judgement, resultText, handshakesOf, outageOf, caseOfRow, runnerCriterion, boundMs, h3Against, TCP_LANES
}

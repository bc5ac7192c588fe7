'use strict'

// What npm run bench:qlog-cost measures (its command: bench/commands/qlog-cost.js): what Caddy's qlog (QLOGDIR, one JSON record per
// QUIC packet), which the runner's load cells turn on to count QUIC's own
// recovery on the h3 lane (load/load.js), costs that lane: the same oha runs
// with it on and off, in turn, in one process, on loopback (no link: the
// server's CPU is then what limits, and any cost shows in full). The figures
// and the study (results.json and report.md), which --from writes again
// without measuring: bench/report/qlog-cost/report.js.
const path = require('node:path')
const { parseArgs } = require('node:util')
const { openLoad } = require('../../load/load')
const { usage } = require('../../common/cli')
const { UsageError } = require('../../common/errors')

const WORKLOADS = [
  { label: '20 × 1 MiB, 4 streams', requests: 20, size: 1048576, streams: 4 },
  { label: '2,000 × 1 KiB, 20 streams', requests: 2000, size: 1024, streams: 20 }
]
const SMOKE_WORKLOADS = [
  { label: '4 × 1 MiB, 4 streams', requests: 4, size: 1048576, streams: 4 },
  { label: '200 × 1 KiB, 20 streams', requests: 200, size: 1024, streams: 20 }
]

const HELP = `Usage: npm run bench:qlog-cost -- [--repeats N] [--smoke] [--json] [--out dir]
       npm run bench:qlog-cost -- --from dir/results.json [--out dir]

What the edge's qlog costs the h3 lane. The runner's load cells run Caddy with
QLOGDIR on their h3 lane, to count QUIC's own recovery (packets declared lost,
probe timeouts) from the server's qlog; quic-go then writes a JSON record for
every packet. This runs the same oha workloads on the h3 lane with the qlog on
and off, in turn, on loopback, and prints each one's time and Caddy's CPU with
it on ÷ off (the median of the pairs' ratios, and their range).

Workloads: ${WORKLOADS.map(w => w.label).join('; ')} (one connection).
Options:
  --repeats <n>   pairs of runs per workload, 1…50 (default 7)
  --smoke         1 pair of smaller workloads, to check that it works
  --json          the figures as JSON (what --out writes as results.json)
  --out <dir>     also write a study there: <dir>/results.json (the figures and every pair's runs, its
                  environment naming the command, the code, the machine and the date) and <dir>/report.md
                  (what was measured, on what, when, with which commit, and the figures)
  --from <file>   measure nothing: write results.json and report.md again from a results.json, into
                  --out <dir> (default: beside it)
  -h, --help      this text`


function parseQlogCostArgs (argv) {
  const options = { repeats: { type: 'string' }, smoke: { type: 'boolean' }, json: { type: 'boolean' }, out: { type: 'string' }, from: { type: 'string' }, help: { type: 'boolean', short: 'h' } }
  const { values } = usage(() => parseArgs({ args: argv, options }))
  if (values.help) return { help: true }
  if (values.out === '') throw new UsageError('--out: name a folder')
  if (values.from !== undefined) {
    const given = ['repeats', 'smoke'].find(name => values[name] !== undefined)
    if (given) throw new UsageError(`--from measures nothing: leave out --${given}`)
    if (!values.from) throw new UsageError('--from: name a results.json')
    return { help: false, from: values.from, out: values.out || path.dirname(values.from), json: Boolean(values.json) }
  }
  const repeats = values.repeats === undefined ? 7 : Number(values.repeats)
  if (!Number.isInteger(repeats) || repeats < 1 || repeats > 50) throw new UsageError(`--repeats must be a whole number from 1 to 50; got "${values.repeats}"`)
  if (values.smoke && values.repeats !== undefined) throw new UsageError('--smoke runs 1 pair: leave out --repeats')
  const opts = { help: false, repeats: values.smoke ? 1 : repeats, smoke: Boolean(values.smoke), json: Boolean(values.json) }
  return values.out === undefined ? opts : { ...opts, out: values.out }
}

// One workload's pairs: → { label, pairs: [{ off, on }] } with each run's { totalMs, serverCpuMs, qlogBytes }.
async function measureWorkload (workload, { repeats, log }) {
  const opts = on => ({
    lanes: ['h3'], urls: [], tools: { h3: 'oha' }, links: [null], trace: false, timeoutS: 120, costs: true, quicLog: on,
    workload: {
      requests: workload.requests, connections: 1, muxConnections: 1, streams: workload.streams, pipeline: 1, threads: 1, size: workload.size, delay: 0
    }
  })
  const loads = { off: await openLoad(opts(false)), on: await openLoad(opts(true)) }
  const pairs = []
  try {
    for (let r = 0; r < repeats; r++) {
      const pair = {}
      // The order alternates: on first in odd pairs.
      for (const side of r % 2 ? ['on', 'off'] : ['off', 'on']) {
        const [row] = (await loads[side].measure(null)).rows
        if (row.error || row.failed) throw new Error(`${workload.label}, qlog ${side}: ${row.error || `${row.failed} failed requests`}`)
        pair[side] = { totalMs: row.totalMs, serverCpuMs: row.costs.serverCpuMs, qlogBytes: row.costs.quic ? row.costs.quic.qlogBytes : 0 }
      }
      pairs.push(pair)
      log(`${workload.label}: pair ${r + 1} of ${repeats}: off ${pair.off.totalMs.toFixed(0)} ms, on ${pair.on.totalMs.toFixed(0)} ms`)
    }
  } finally {
    await loads.off.close()
    await loads.on.close()
  }
  return { label: workload.label, pairs }
}

// Every workload's pairs of runs, qlog on and off in turn: → [{ label, pairs }] (measureWorkload's).
async function measure (opts, log) {
  const runs = []
  for (const w of opts.smoke ? SMOKE_WORKLOADS : WORKLOADS) runs.push(await measureWorkload(w, { repeats: opts.repeats, log }))
  return runs
}

module.exports = { measure, parseQlogCostArgs, HELP }

'use strict'

// npm run bench:qlog-cost: what Caddy's qlog (QLOGDIR, one JSON record per
// QUIC packet), which the runner's load cells turn on to count QUIC's own
// recovery on the h3 lane (load/load.js), costs that lane: the same oha runs
// with it on and off, in turn, in one process, on loopback (no link: the
// server's CPU is then what limits, and any cost shows in full).
const { parseArgs } = require('node:util')
const { openLoad } = require('../../load/load')
const { quantile } = require('../../client/js/stats')
const { environmentRecord } = require('../../harness/provenance')
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

const HELP = `Usage: npm run bench:qlog-cost -- [--repeats N] [--smoke] [--json]

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
  --json          the figures as JSON
  -h, --help      this text`

const median = xs => xs.length ? quantile(xs, 0.5) : null
const r3 = x => x === null ? null : +x.toFixed(3)

function parseQlogCostArgs (argv) {
  const { values } = usage(() => parseArgs({ args: argv, options: { repeats: { type: 'string' }, smoke: { type: 'boolean' }, json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } } }))
  if (values.help) return { help: true }
  const repeats = values.repeats === undefined ? 7 : Number(values.repeats)
  if (!Number.isInteger(repeats) || repeats < 1 || repeats > 50) throw new UsageError(`--repeats must be a whole number from 1 to 50; got "${values.repeats}"`)
  if (values.smoke && values.repeats !== undefined) throw new UsageError('--smoke runs 1 pair: leave out --repeats')
  return { help: false, repeats: values.smoke ? 1 : repeats, smoke: Boolean(values.smoke), json: Boolean(values.json) }
}

// One workload's pairs: → { label, pairs: [{ off, on }] } with each run's { totalMs, serverCpuMs, qlogBytes }.
async function measureWorkload (workload, { repeats, log }) {
  const opts = on => ({
    lanes: ['h3'], urls: [], tools: { h3: 'oha' }, links: [null], trace: false, timeoutS: 120, costs: true, quicLog: on,
    workload: { requests: workload.requests, connections: 1, muxConnections: 1, streams: workload.streams, pipeline: 1, threads: 1, size: workload.size, delay: 0 }
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

// A workload's figures: medians per side, and on ÷ off per pair (median, min, max).
function summarise ({ label, pairs }) {
  const ratio = f => {
    const rs = pairs.map(p => f(p.on) / f(p.off)).filter(Number.isFinite)
    return { median: r3(median(rs)), min: r3(Math.min(...rs)), max: r3(Math.max(...rs)) }
  }
  return {
    label,
    pairs: pairs.length,
    timeMs: { off: r3(median(pairs.map(p => p.off.totalMs))), on: r3(median(pairs.map(p => p.on.totalMs))) },
    time: ratio(p => p.totalMs),
    serverCpuMs: { off: r3(median(pairs.map(p => p.off.serverCpuMs))), on: r3(median(pairs.map(p => p.on.serverCpuMs))) },
    serverCpu: ratio(p => p.serverCpuMs),
    qlogBytesPerRun: median(pairs.map(p => p.on.qlogBytes))
  }
}

function formatQlogCost ({ environment, repeats, workloads }) {
  const lines = [
    `h2bench qlog cost: the h3 lane (Caddy) with its qlog on and off, in turn, ${repeats} pair${repeats === 1 ? '' : 's'} per workload, oha on loopback`,
    `System: Node ${environment.node}, ${environment.cpu} × ${environment.cpus}, ${environment.os}; h2bench ${environment.h2bench}`,
    ''
  ]
  for (const w of workloads) {
    const range = r => r.min === r.max ? '' : ` (pairs ${r.min.toFixed(2)}–${r.max.toFixed(2)}×)`
    lines.push(`${w.label}: time ${(w.timeMs.off / 1000).toFixed(3)} s off, ${(w.timeMs.on / 1000).toFixed(3)} s on: on ÷ off ${w.time.median.toFixed(2)}×${range(w.time)}; ` +
      `Caddy and the app's CPU ${(w.serverCpuMs.off / 1000).toFixed(2)} s off, ${(w.serverCpuMs.on / 1000).toFixed(2)} s on: ${w.serverCpu.median.toFixed(2)}×${range(w.serverCpu)}; ` +
      `qlog ${(w.qlogBytesPerRun / 1e6).toFixed(1)} MB a run`)
  }
  return lines.join('\n')
}

async function main (argv) {
  const opts = parseQlogCostArgs(argv)
  if (opts.help) {
    process.stdout.write(HELP + '\n')
    return 0
  }
  const log = line => process.stderr.write(line + '\n')
  const workloads = []
  for (const w of opts.smoke ? SMOKE_WORKLOADS : WORKLOADS) workloads.push(summarise(await measureWorkload(w, { repeats: opts.repeats, log })))
  const result = { tool: 'h2bench qlog cost', environment: environmentRecord(), repeats: opts.repeats, workloads }
  process.stdout.write((opts.json ? JSON.stringify(result, null, 2) : formatQlogCost(result)) + '\n')
  return 0
}

module.exports = { main, summarise, parseQlogCostArgs, HELP }

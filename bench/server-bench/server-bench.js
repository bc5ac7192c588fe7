'use strict'

// npm run bench:server: h2load against every lane, in one run, so that the
// ratios between lanes are measured under the same conditions.
const path = require('node:path')
const { fork } = require('node:child_process')
const { parseArgs } = require('node:util')
const { h2load, checkH2load } = require('../../load/tools/h2load')
const { canTrackPeak, rss, peakRss, resetPeak } = require('../../harness/memory')
const { environmentRecord } = require('../../harness/provenance')
const { LANES, laneNamesFrom } = require('../../server/lanes')
const { quantile } = require('../../shared/stats')
const { procStat, processTable, treeOf, ticksPerSecond } = require('../../common/proc')
const { UsageError } = require('../../common/errors')
const { usage } = require('../../common/cli')

const MIB = 1024 * 1024
// Issue #2's goals for 200 × 16 MiB: server RSS rise while the requests wait
// out their delay, and while they are sent.
const MEMORY_GOALS = { waitingMiB: 64, sendingMiB: 512 }
const HELP = `Usage: npm run bench:server -- [options]

Runs h2load (Debian: apt-get install nghttp2-client) against each lane of a
fresh h2bench server process and prints req/s, MB/s, latency percentiles,
the server's peak RSS and the CPU each cell cost (the app's Node process,
Caddy's for the edge lanes, and h2load's own: all share this machine's
cores), as CPU ms per request and cores used, with every lane's ratio to h1
from the same run and spdy's to node:http2 (lanes h2 and h2n: same protocol,
two implementations).

Options:
  --lanes <list>     lanes to measure, comma-separated (default ${LANES.map(l => l.name).join(',')})
  --duration <s>     seconds measured per cell, after 1 s of warm-up (default 5)
  --in-flight <n>    requests in flight: h1 opens n connections with 1 request each,
                     h2 lanes 1 connection with n streams, as a browser would (default 6)
  --skip-memory      skip the 200 × 16 MiB memory test
  --smoke            a quick run (1 s cells, 20 × 16 MiB memory test) to check it works
  --json             print the results as JSON instead of tables
  -h, --help         show this help`

function parseOptions (argv) {
  const { values } = usage(() => parseArgs({
    args: argv,
    options: {
      lanes: { type: 'string', default: LANES.map(l => l.name).join(',') },
      duration: { type: 'string', default: '5' },
      'in-flight': { type: 'string', default: '6' },
      'skip-memory': { type: 'boolean', default: false },
      smoke: { type: 'boolean', default: false },
      json: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false }
    }
  }))
  const lanes = laneNamesFrom(values.lanes)
  const duration = Number(values.duration)
  if (!(duration >= 1 && duration <= 600)) throw new UsageError(`--duration must be 1…600 seconds; got "${values.duration}"`)
  const inFlight = Number(values['in-flight'])
  if (!Number.isInteger(inFlight) || inFlight < 1 || inFlight > 100) throw new UsageError(`--in-flight must be an integer 1…100; got "${values['in-flight']}"`)
  return {
    lanes,
    duration: values.smoke ? 1 : duration,
    inFlight,
    memory: !values['skip-memory'],
    memoryRequests: values.smoke ? 20 : 200,
    json: values.json,
    help: values.help
  }
}

function startServer (lanes) {
  const child = fork(path.join(__dirname, 'serve-child.js'), [lanes.join(',')], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] })
  return new Promise((resolve, reject) => {
    child.once('message', msg => resolve({ child, lanes: msg.lanes, edgePid: msg.edgePid || null }))
    child.once('exit', code => reject(new Error(`the server process exited with code ${code}`)))
  })
}

const progress = msg => process.stderr.write(`${msg}\n`)

// The CPU time (clock ticks, utime + stime from /proc/<pid>/stat) of a cell's
// processes now: the app's Node process (`appPid`, alone: Caddy is its
// child, counted apart), Caddy's process tree (`edgePid`; null without edge
// lanes) and h2load (`h2loadPid`, while it runs). A process that is gone
// counts null.
function cpuTicks ({ appPid, edgePid = null, h2loadPid = null }, { proc } = {}) {
  const ticksOf = pid => { const s = procStat(pid, { proc }); return s ? s.ticks : null }
  let edge = null
  if (edgePid) {
    const table = processTable({ proc })
    const tree = treeOf([edgePid], table)
    edge = tree.length ? tree.reduce((sum, pid) => sum + table.get(pid).ticks, 0) : null
  }
  return { app: ticksOf(appPid), edge, h2load: h2loadPid ? ticksOf(h2loadPid) : null }
}

// A cell's CPU from two readings { atMs, app, edge, h2load } (ticks) taken
// `intervalMs` apart while h2load measured, and the req/s it measured:
// per process (app, edge: Caddy, h2load) and summed over the servers (app
// and edge) → { ms, cores, msPerRequest } each (null where a reading is
// missing), and intervalMs. Cores: CPU time over wall time (2 = both
// cores of a 2-core machine all the time).
function cellCpu (start, end, reqPerSec, hz = ticksPerSecond()) {
  const intervalMs = end.atMs - start.atMs
  const requests = reqPerSec * intervalMs / 1000
  const figures = ms => ms === null ? null : { ms, cores: intervalMs > 0 ? ms / intervalMs : null, msPerRequest: requests > 0 ? ms / requests : null }
  const of = key => start[key] === null || end[key] === null || start[key] === undefined || end[key] === undefined
    ? null
    : Math.max(0, end[key] - start[key]) * 1000 / hz
  const app = of('app')
  const edge = of('edge')
  return {
    intervalMs,
    app: figures(app),
    edge: figures(edge),
    h2load: figures(of('h2load')),
    servers: figures(app === null ? null : app + (edge || 0))
  }
}

// One h2load cell, with the CPU its processes spent while h2load measured
// (after its warm-up): the servers' read at the end of the warm-up and when
// h2load is done; h2load's at the end of the warm-up (its /proc/<pid>/stat)
// and, once it has exited, from this process's children's time (cutime +
// cstime grow by all of an exited child's CPU when it is reaped).
async function meteredH2load (server, args) {
  const pids = { appPid: server.child.pid, edgePid: server.edgePid }
  const childTicks = () => { const s = procStat('self'); return s ? s.childTicks : null }
  const before = childTicks()
  let start = null
  let timer = null
  const run = h2load({
    ...args,
    onSpawn: child => {
      timer = setTimeout(() => {
        start = { atMs: performance.now(), ...cpuTicks({ ...pids, h2loadPid: child.pid }) }
      }, (args.warmup || 0) * 1000)
    }
  })
  let r
  try {
    r = await run
  } finally {
    clearTimeout(timer)
  }
  const after = childTicks()
  const end = { atMs: performance.now(), ...cpuTicks(pids) }
  // h2load's whole run (after − before) less its warm-up (start.h2load).
  end.h2load = start && start.h2load !== null && before !== null && after !== null ? after - before : null
  return { ...r, cpu: start ? cellCpu(start, end, r.reqPerSec) : null }
}

async function throughput (server, opts) {
  const rows = []
  for (const body of [{ label: '100 B', size: 100 }, { label: '1 MiB', size: MIB }]) {
    for (const lane of server.lanes) {
      const h1 = lane.protocol === 'http/1.1'
      progress(`  ${body.label} on ${lane.name}…`)
      resetPeak(server.child.pid)
      const r = await meteredH2load(server, {
        url: `${lane.url}/option?size=${body.size}`,
        protocol: lane.protocol,
        clients: h1 ? opts.inFlight : 1,
        streams: h1 ? 1 : opts.inFlight,
        duration: opts.duration,
        warmup: 1
      })
      rows.push({
        body: body.label,
        size: body.size,
        lane: lane.name,
        label: lane.label,
        reqPerSec: r.reqPerSec,
        mbPerSec: r.bytesPerSec / 1e6,
        p50: quantile(r.latenciesMs, 0.5),
        p90: quantile(r.latenciesMs, 0.9),
        p99: quantile(r.latenciesMs, 0.99),
        failed: r.failed,
        succeeded: r.succeeded,
        peakRssMiB: peakRss(server.child.pid) / MIB,
        cpu: r.cpu,
        command: r.command
      })
    }
  }
  for (const row of rows) {
    const base = rows.find(r => r.body === row.body && r.lane === 'h1')
    row.ratioToH1 = base ? row.reqPerSec / base.reqPerSec : null
  }
  return rows
}

// 200 concurrent requests for 16 MiB each: RSS while they wait out their
// delay (should barely move: every body is a view of one block) and the peak
// while they are sent (bounded by what is in flight, not by their sum).
// Each lane gets a fresh server process, so no lane inherits another's heap.
async function memory (opts) {
  const rows = []
  const n = opts.memoryRequests
  const delay = 3000
  for (const name of opts.lanes) {
    const server = await startServer([name])
    try {
      rows.push(await memoryOfLane(server, server.lanes[0], n, delay))
    } finally {
      server.child.disconnect()
    }
  }
  return rows
}

async function memoryOfLane (server, lane, n, delay) {
  const h1 = lane.protocol === 'http/1.1'
  progress(`  ${n} × 16 MiB on ${lane.name}…`)
  const pid = server.child.pid
  await new Promise(resolve => setTimeout(resolve, 300))
  resetPeak(pid)
  const before = rss(pid)
  const run = h2load({
    url: `${lane.url}/option?size=16mb&delay=${delay}`,
    protocol: lane.protocol,
    clients: h1 ? n : 2,
    streams: h1 ? 1 : Math.ceil(n / 2),
    requests: n
  })
  await new Promise(resolve => setTimeout(resolve, delay * 0.8))
  const waiting = peakRss(pid)
  const r = await run
  return {
    lane: lane.name,
    requests: n,
    beforeMiB: before / MIB,
    waitingRiseMiB: (waiting - before) / MIB,
    sendingPeakMiB: peakRss(pid) / MIB,
    sendingRiseMiB: (peakRss(pid) - before) / MIB,
    succeeded: r.succeeded,
    failed: r.failed,
    command: r.command
  }
}

// Same protocol, two implementations: spdy (lane h2) over node:http2 (lane
// h2n), per body size, from the same run.
function implementationRatios (rows) {
  const out = []
  for (const body of new Set(rows.map(r => r.body))) {
    const spdy = rows.find(r => r.body === body && r.lane === 'h2')
    const native = rows.find(r => r.body === body && r.lane === 'h2n')
    if (spdy && native && native.reqPerSec > 0) out.push({ body, reqPerSec: spdy.reqPerSec / native.reqPerSec })
  }
  return out
}

const f = (x, d = 0) => x === null || x === undefined ? '–' : x.toFixed(d)

const CPU_HEADER = ['app ms/req', 'Caddy ms/req', 'h2load ms/req', 'cores app/Caddy/h2load']
const cpuCells = cpu => {
  const of = key => cpu && cpu[key]
  const ms = key => of(key) ? f(of(key).msPerRequest, 3) : '–'
  const cores = key => of(key) ? f(of(key).cores, 2) : '–'
  return [ms('app'), ms('edge'), ms('h2load'), ['app', 'edge', 'h2load'].map(cores).join('/')]
}

function table (header, rows) {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map(r => String(r[i]).length)))
  const line = cells => cells.map((c, i) => String(c)[i < 2 ? 'padEnd' : 'padStart'](widths[i])).join('  ')
  return [line(header), line(widths.map(w => '-'.repeat(w))), ...rows.map(line)].join('\n')
}

function printReport ({ environment, settings, throughput: rows, memory: mem }) {
  console.log(`h2bench server benchmark, ${environment.date}`)
  console.log(`System: Node ${environment.node}, ${environment.h2load}, ${environment.cpu} × ${environment.cpus}, ${environment.os}; h2bench ${environment.h2bench}`)
  console.log(`\nThroughput: ${settings.inFlight} requests in flight (h1: -c ${settings.inFlight} -m 1; h2 lanes: -c 1 -m ${settings.inFlight}), ` +
    `${settings.duration} s per cell after 1 s warm-up, h2load -t 1`)
  console.log(table(['body', 'lane', 'req/s', 'MB/s', 'p50 ms', 'p90 ms', 'p99 ms', 'failed', 'peak RSS MiB', '× h1', ...CPU_HEADER],
    rows.map(r => [r.body, r.lane, f(r.reqPerSec), f(r.mbPerSec, 1), f(r.p50, 2), f(r.p90, 2), f(r.p99, 2), r.failed, f(r.peakRssMiB),
      f(r.ratioToH1, 2), ...cpuCells(r.cpu)])))
  console.log('CPU while h2load measured, from /proc/<pid>/stat: ms per request of the app\'s Node process, of Caddy\'s ' +
    '(the edge lanes\' proxy; idle on the others), of h2load\'s; cores each used (1.00: one core all the time)')
  for (const r of implementationRatios(rows)) console.log(`spdy / node:http2 on ${r.body}: ${f(r.reqPerSec, 2)}× req/s`)
  if (mem.length) {
    console.log(`\nMemory: ${mem[0].requests} concurrent requests for 16 MiB each (delay 3000 ms); server RSS (kernel peak, VmHWM)`)
    console.log(`Goals: a rise below ${MEMORY_GOALS.waitingMiB} MiB while they wait (no copy per request), below ${MEMORY_GOALS.sendingMiB} MiB while they are sent`)
    const mark = (v, goal) => `${f(v)} MiB ${v < goal ? 'ok' : 'OVER'}`
    console.log(table(['lane', 'RSS before', 'rise while waiting', 'peak while sending', 'rise while sending', 'failed'],
      mem.map(m => [m.lane, `${f(m.beforeMiB)} MiB`, mark(m.waitingRiseMiB, MEMORY_GOALS.waitingMiB), `${f(m.sendingPeakMiB)} MiB`,
        mark(m.sendingRiseMiB, MEMORY_GOALS.sendingMiB), m.failed])))
  }
}

async function main (argv) {
  const opts = parseOptions(argv)
  if (opts.help) return console.log(HELP)
  const environment = { date: new Date().toISOString(), ...environmentRecord(), h2load: checkH2load() }
  const server = await startServer(opts.lanes)
  try {
    if (!canTrackPeak(server.child.pid)) throw new Error('peak RSS needs Linux /proc/<pid>/clear_refs')
    progress(`Throughput (${opts.duration} s per cell):`)
    const rows = await throughput(server, opts)
    let mem = []
    if (opts.memory) {
      progress('Memory:')
      mem = await memory(opts)
    }
    const result = {
      environment,
      settings: { duration: opts.duration, inFlight: opts.inFlight },
      throughput: rows,
      spdyToNodeHttp2: implementationRatios(rows),
      memory: mem
    }
    if (opts.json) console.log(JSON.stringify(result, null, 2))
    else printReport(result)
    return result
  } finally {
    server.child.disconnect()
  }
}

module.exports = { main, parseOptions, cellCpu, cpuTicks, cpuCells }

'use strict'

// npm run limits: how large a page batch each lane and the local Chromium
// really sustain. Runs window.h2bench.run (the Run button's code path) with
// repeats: 1 for a ladder of requests × size per lane, and prints for each:
// failed requests (the page's count and Chromium's net::ERR_… names), whether
// the page crashed, the batch time, and the browser's and server's peak
// memory. The page's limits (shared/options.js) come from these figures
// (docs/limits.md).
const fs = require('node:fs')
const { launchBrowser, findChrome, INSTALL_HINT } = require('../../harness/chromium')
const { UserError, UsageError } = require('../../common/errors')
const { LANES, laneNamesFrom } = require('../../server/lanes')
const { startLanes } = require('../../harness/start-lanes')
const { watchNetErrors } = require('../../harness/net-errors')

const MIB = 1024 * 1024
// requests × size, in the order tried. Rungs beyond the page's limits are
// refused by the page, as they would be for a user (state "refused").
const LADDER = [
  [100, 64 * MIB], [256, 16 * MIB], [300, 16 * MIB], [1000, 4 * MIB], [10000, 1 * MIB],
  [10000, 100 * 1024], [512, 16 * MIB], [128, 64 * MIB], [129, 64 * MIB], [10000, 64 * MIB]
]
const SMOKE = [[20, 1 * MIB], [100, 100 * 1024]]

const HELP = `Usage: npm run limits -- [options]

Tries page batches of growing requests × size on each lane in headless
Chromium and reports failures, crashes, time and peak memory of browser and
server. Slow (minutes per lane): large batches move gigabytes.

Options:
  --lanes <list>   lanes, comma-separated (default ${LANES.map(l => l.name).join(',')})
  --only <N×size>  one rung instead of the ladder, e.g. 300x16mb (repeatable)
  --json           print JSON instead of a table
  --smoke          two small rungs, to check it works
  -h, --help       this help`

function parseArgs (argv) {
  const opts = { lanes: LANES.map(l => l.name), ladder: LADDER, json: false }
  const only = []
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]
    if (a === '-h' || a === '--help') opts.help = true
    else if (a === '--json') opts.json = true
    else if (a === '--smoke') opts.ladder = SMOKE
    else if (a === '--lanes') {
      opts.lanes = laneNamesFrom(argv[++i] || '')
    } else if (a === '--only') {
      const m = /^(\d+)x(\d+)(b|kb|mb)?$/i.exec(argv[++i] || '')
      if (!m) throw new UsageError('--only takes N×size as Nxsize, e.g. 300x16mb')
      only.push([Number(m[1]), Number(m[2]) * { b: 1, kb: 1024, mb: MIB }[(m[3] || 'b').toLowerCase()]])
    } else throw new UsageError(`unknown option ${a}; see --help`)
  }
  if (only.length) opts.ladder = only
  return opts
}

// Sum of resident memory of the processes `pids`.
function rssOf (pids) {
  let kib = 0
  for (const pid of pids) {
    try {
      const m = /VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))
      if (m) kib += Number(m[1])
    } catch {
      // the process ended meanwhile
    }
  }
  return kib * 1024
}

// The browser started with `userDataDir` and every process under it.
function browserPids (userDataDir) {
  const parent = new Map()
  let root = null
  for (const pid of fs.readdirSync('/proc').filter(p => /^\d+$/.test(p))) {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8')
      parent.set(pid, stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1])
      if (root === null) {
        const cmdline = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8')
        if (cmdline.includes(`--user-data-dir=${userDataDir}`) && !cmdline.includes('--type=')) root = pid
      }
    } catch {
      // the process ended meanwhile
    }
  }
  if (root === null) return []
  const pids = [root]
  for (let added = true; added;) {
    added = false
    for (const [pid, ppid] of parent) {
      if (!pids.includes(pid) && pids.includes(ppid)) { pids.push(pid); added = true }
    }
  }
  return pids
}

function fmtSize (b) {
  return b >= MIB ? `${b / MIB} MiB` : `${b / 1024} KiB`
}

async function rung (page, userDataDir, lane, [requests, size]) {
  const netErrors = watchNetErrors(page, [lane], { via: 'console' }) // the browser runs without puppeteer's Network domain
  let peakBrowser = 0
  let peakServer = 0
  const sampler = setInterval(() => {
    peakBrowser = Math.max(peakBrowser, rssOf(browserPids(userDataDir)))
    peakServer = Math.max(peakServer, process.memoryUsage().rss)
  }, 200)
  const t0 = Date.now()
  let outcome
  try {
    outcome = await page.evaluate(o => window.h2bench.run(o).then(r => {
      const l = r.lanes[0]
      return {
        state: r.state,
        failures: l.failures,
        ok: l.batches.reduce((n, b) => n + b.ok, 0),
        elapsed: l.batches.length ? l.batches[l.batches.length - 1].elapsed : null
      }
    }), { requests, size, delay: 0, repeats: 1, lanes: [lane.name] })
  } catch (err) {
    const message = err.message.split('\n')[0]
    outcome = /invalid options/.test(message) ? { state: 'refused', error: message.replace(/^.*invalid options: /, '') } : { state: 'crashed', error: message }
  } finally {
    clearInterval(sampler)
    netErrors.stop()
  }
  return {
    lane: lane.name,
    requests,
    size,
    bytes: requests * size,
    ...outcome,
    seconds: (Date.now() - t0) / 1000,
    failedByBrowser: netErrors.counts(lane.name),
    peakBrowserMiB: Math.round(peakBrowser / MIB),
    peakServerMiB: Math.round(peakServer / MIB)
  }
}

async function main (argv) {
  const opts = parseArgs(argv)
  if (opts.help) return console.log(HELP)
  if (!findChrome()) throw new UserError(`no Chrome or Chromium found: ${INSTALL_HINT}`, { status: 503 })
  const { running, tls } = await startLanes(opts.lanes)
  const rows = []
  try {
    for (const lane of running.lanes) {
      for (const step of opts.ladder) {
        // A fresh browser per rung: a crash or a full renderer must not
        // spill into the next rung.
        const browser = await launchBrowser({ spki: tls.spki, lanes: running.lanes, network: false })
        try {
          const page = await browser.context.newPage()
          page.on('error', () => process.stderr.write('  (page crashed)\n')) // puppeteer's crash event
          await page.goto(`${running.page.url}/`)
          await page.waitForFunction(() => window.h2bench && window.h2bench.run)
          process.stderr.write(`${lane.name} ${step[0]} × ${fmtSize(step[1])} …\n`)
          const r = await rung(page, browser.userDataDir, lane, step)
          rows.push(r)
          if (r.error) process.stderr.write(`  ${r.state}: ${r.error}\n`)
          else process.stderr.write(`  ${r.state}: ${r.ok ?? 0} ok, ${r.failures ?? '?'} failed ${JSON.stringify(r.failedByBrowser)}, ${r.seconds.toFixed(1)} s, browser peak ${r.peakBrowserMiB} MiB, server ${r.peakServerMiB} MiB\n`)
        } finally {
          await browser.close().catch(() => {})
        }
      }
    }
  } finally {
    await running.close()
  }
  if (opts.json) return console.log(JSON.stringify(rows, null, 2))
  console.log('lane  requests × size        total GB  state    ok      failed  browser errors                       s      browser MiB  server MiB')
  for (const r of rows) {
    console.log([
      r.lane.padEnd(4), `${r.requests} × ${fmtSize(r.size)}`.padEnd(20), (r.bytes / 1e9).toFixed(2).padStart(9), String(r.state).padEnd(8),
      String(r.ok ?? '-').padStart(6), String(r.failures ?? '-').padStart(7), (Object.entries(r.failedByBrowser).map(([e, n]) => `${e} ${n}`).join(', ') || '-').padEnd(36),
      r.seconds.toFixed(1).padStart(6), String(r.peakBrowserMiB).padStart(12), String(r.peakServerMiB).padStart(11)
    ].join('  '))
  }
}

module.exports = { main, parseArgs, LADDER }

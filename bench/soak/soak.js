#!/usr/bin/env node
'use strict'

// npm run soak: mixed page batches against every lane, continuously, in
// headless Chromium, while the server (its own process, bench/soak-server.js)
// reports its RSS, open fds and event-loop delay; ends with a verdict: RSS and
// fds flat after the warm-up (bench/soak-trend.js), zero failed requests.
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { fork } = require('node:child_process')
const { parseArgs } = require('node:util')
const { LANES } = require('../../server/lanes')
const { launchBrowser, findChrome, INSTALL_HINT } = require('../../harness/chromium')
const { analyze, verdict, warmupSeconds, RSS_TOLERANCE, FD_RANGE } = require('./soak-trend')
const { buckets, formatReport, writeOutputs, clock } = require('./soak-report')
const { quantile } = require('../../client/js/stats')
const { quietly, chromiumVersion, gitCommit } = require('../../harness/provenance')
const { watchNetErrors } = require('../../harness/net-errors')

const LANE_NAMES = LANES.map(l => l.name)
const DEFAULT_MINUTES = 30
const DEFAULT_INTERVAL = 5
const SMOKE = { minutes: 0.2, interval: 1 }
// A run (one workload on every lane) that has not finished after this long is
// stopped, and its unanswered requests count as failed ("stalled").
const RUN_TIMEOUT_MS = 120000
// The rotation: one window.h2bench.run() each, in this order, round and round.
const WORKLOADS = [
  { requests: 100, size: '100kb', delay: 10 },
  { requests: 300, size: '16kb', delay: 0 },
  { requests: 30, size: '1mb', delay: 5 },
  { requests: 6, size: '16mb', delay: 0 },
  { requests: 1000, size: '1kb', delay: 0 }
].map(w => ({ ...w, label: `${w.requests}×${w.size}@${w.delay}ms` }))
const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP']
const OPTION_NAMES = ['--minutes', '--lanes', '--interval', '--json', '--out', '--smoke', '--help']

const HELP = `Usage: npm run soak -- [options]

Soak test: runs mixed page batches against every lane, continuously, in the
local Chromium (headless, through playwright-core), through the h2bench page's
own window.h2bench.run(), while the server, started in a process of its own,
reports its RSS, open file descriptors and event-loop delay. This process reads
the server's RSS and fds from /proc/<pid> as well, as an independent check.

Workload rotation (each one run with repeats: 1 on every lane, round and round):
  ${WORKLOADS.map(w => w.label).join(', ')}

Verdict, after a warm-up (the first 20 % of the run, at least 1 min for runs of
5 min or more):
  RSS flat:   the least-squares growth of RSS over the measured span is below
              the larger of ${RSS_TOLERANCE.fraction * 100} % of the mean RSS and ${RSS_TOLERANCE.floorMiB} MiB
  fds flat:   max − min of the open fds is at most ${FD_RANGE}
  no failure: zero failed requests, by the page's count and by Chromium's
              requestfailed events; the server process still running
Exit code 0 when it passes, 1 when it does not, 2 for bad options, 130 when
interrupted (Ctrl-C stops cleanly and reports what was measured).

Options:
  --minutes <m>     minutes of load, e.g. 30 or 0.5 (default ${DEFAULT_MINUTES}; at most 1440)
  --lanes <list>    lanes, comma-separated (default ${LANE_NAMES.join(',')})
  --interval <s>    seconds between samples, 0.5…300 (default ${DEFAULT_INTERVAL})
  --out <dir>       also write results.json, chart.svg (RSS, fds and event-loop
                    delay over time) and report.md there (default: write nothing)
  --json            print the full result as JSON on stdout (the report then goes to stderr)
  --smoke           ${SMOKE.minutes * 60} s of load, a sample every ${SMOKE.interval} s (about 20 s in all), to check
                    that everything works; not with --minutes or --interval
  -h, --help        show this help

Progress goes to stderr, one line per sample. Needs Linux (/proc) and Chrome or
Chromium: CHROME_PATH, or the usual install paths.`

class UsageError extends Error {}

function numberIn (name, raw, min, max, what) {
  const n = Number(raw)
  if (!/^\s*\d+(\.\d+)?\s*$/.test(String(raw)) || !(n >= min && n <= max)) {
    throw new UsageError(`--${name} must be ${what}; got "${raw}"`)
  }
  return n
}

function parseSoakArgs (argv) {
  let parsed
  try {
    parsed = parseArgs({
      // "--minutes -1" would be "ambiguous" to parseArgs: a negative number
      // after a flag that takes a value is that value (and is then refused).
      args: argv.map((a, i) => /^-\d/.test(a) && /^--(minutes|interval|lanes|out)$/.test(argv[i - 1] || '') ? null : /^--(minutes|interval|lanes|out)$/.test(a) && /^-\d/.test(argv[i + 1] || '') ? `${a}=${argv[i + 1]}` : a).filter(a => a !== null),
      allowPositionals: true,
      options: {
        minutes: { type: 'string' },
        lanes: { type: 'string', default: LANE_NAMES.join(',') },
        interval: { type: 'string' },
        out: { type: 'string' },
        json: { type: 'boolean', default: false },
        smoke: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false }
      }
    })
  } catch (err) {
    // parseArgs says e.g. "Unknown option '--minute'. To specify a positional…"
    throw new UsageError(`${err.message.replace(/\. To specify.*$/s, '').replace(/\.$/, '')}; options are ${OPTION_NAMES.join(', ')}`)
  }
  const { values, positionals } = parsed
  if (values.help) return { help: true }
  if (positionals.length) throw new UsageError(`unexpected argument "${positionals[0]}"; options are ${OPTION_NAMES.join(', ')}`)
  if (values.smoke && (values.minutes !== undefined || values.interval !== undefined)) {
    throw new UsageError(`--smoke sets its own length (${SMOKE.minutes * 60} s, a sample every ${SMOKE.interval} s): leave out --minutes and --interval`)
  }
  const minutes = values.smoke ? SMOKE.minutes
    : values.minutes === undefined ? DEFAULT_MINUTES : numberIn('minutes', values.minutes, 0.05, 1440, 'a number of minutes from 0.05 to 1440, e.g. 30 or 0.5')
  const interval = values.smoke ? SMOKE.interval
    : values.interval === undefined ? DEFAULT_INTERVAL : numberIn('interval', values.interval, 0.5, 300, 'a number of seconds from 0.5 to 300')
  if (interval > minutes * 60) throw new UsageError(`--interval (${interval} s) must be shorter than the run (--minutes ${minutes} = ${minutes * 60} s)`)
  const lanes = values.lanes.split(',').map(s => s.trim()).filter(Boolean)
  if (!lanes.length) throw new UsageError(`--lanes needs at least one of ${LANE_NAMES.join(', ')}`)
  for (const name of lanes) {
    if (!LANE_NAMES.includes(name)) throw new UsageError(`--lanes: unknown lane "${name}"; lanes are ${LANE_NAMES.join(', ')}`)
  }
  if (values.out !== undefined && !values.out.trim()) throw new UsageError('--out needs a directory')
  return {
    help: false,
    minutes,
    intervalSeconds: interval,
    lanes: LANE_NAMES.filter(n => lanes.includes(n)), // registry order, each once
    out: values.out === undefined ? null : values.out,
    json: values.json,
    smoke: values.smoke
  }
}

// The server as the kernel sees it: VmRSS and the entries of /proc/<pid>/fd.
function observe (pid) {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8')
  const m = /^VmRSS:\s+(\d+) kB/m.exec(status)
  return { rssMiB: m ? +(Number(m[1]) / 1024).toFixed(2) : null, fds: fs.readdirSync(`/proc/${pid}/fd`).length }
}

function startServer (lanes, intervalSeconds, log) {
  const child = fork(path.join(__dirname, 'soak-server.js'), [lanes.join(','), String(Math.round(intervalSeconds * 1000))],
    { stdio: ['ignore', 'pipe', 'pipe', 'ipc'] })
  // Whatever the server prints goes to stderr (stdout may be --json).
  for (const stream of [child.stdout, child.stderr]) {
    stream.on('data', d => { for (const line of String(d).split('\n').filter(Boolean)) log(`server: ${line}`) })
  }
  return new Promise((resolve, reject) => {
    const onExit = code => reject(new Error(`the server process exited with code ${code} before it was ready`))
    child.once('exit', onExit)
    child.on('message', function ready (msg) {
      if (msg && msg.type === 'ready') {
        child.off('message', ready)
        child.off('exit', onExit)
        resolve({ child, info: msg })
      }
    })
  })
}

// In the page: one window.h2bench.run(), reduced to what the soak counts (the
// full result holds every request's timings).
function runInPage (options) {
  return window.h2bench.run(options).then(r => ({
    state: r.state,
    lanes: r.lanes.map(l => {
      const errors = {}
      for (const b of l.batches) {
        for (const q of b.requests) if (q && q.error && q.error !== 'aborted') errors[q.error] = (errors[q.error] || 0) + 1
      }
      if (l.unreachable) errors[`warm-up: ${l.unreachable.error || `status ${l.unreachable.status}`}`] = 1
      return {
        lane: l.lane,
        protocol: l.protocol,
        protocolOk: l.protocolOk,
        state: l.state,
        failures: l.failures,
        errors,
        batches: l.batches.map(b => ({ state: b.state, ok: b.ok, failed: b.failed, aborted: b.aborted || 0, bytes: b.bytes, elapsed: b.elapsed }))
      }
    })
  }))
}

// register(stop) hands the signal handler the function that stops the load.
async function soak (opts, log, register = () => {}) {
  if (!findChrome()) throw new Error(`no Chrome or Chromium found: ${INSTALL_HINT}`)
  if (!fs.existsSync('/proc/self/fd')) throw new Error('the soak reads /proc/<pid>: it needs Linux')
  const startedAt = new Date()
  const commit = gitCommit()
  const durationMs = opts.minutes * 60000
  const state = {
    stopping: null, // why the load stops early: 'SIGINT', 'server exit', …
    deadline: false, // the time is up
    serverExit: null,
    t0: null,
    samples: [],
    runs: [], // { t, workload, batches, requests, failed }
    totals: { runs: 0, batches: 0, requests: 0, bytes: 0, failed: 0 },
    perLane: Object.fromEntries(opts.lanes.map(n => [n, { batches: 0, requests: 0, bytes: 0, failed: 0, stalled: 0, errors: {}, protocol: null, protocolMismatches: 0 }])),
    browserFailures: {}, // lane or 'other' → errorText → n
    notes: []
  }
  let page = null
  const stopLoad = reason => {
    if (state.stopping) return
    state.stopping = reason
    if (page) page.evaluate(() => window.h2bench && window.h2bench.stop()).catch(() => {})
  }
  register(stopLoad)

  log(`starting the server (lanes ${opts.lanes.join(', ')}) in its own process…`)
  const { child, info } = await startServer(opts.lanes, opts.intervalSeconds, log)
  let closing = false
  child.on('exit', (code, signal) => {
    if (closing) return
    state.serverExit = signal ? `killed by ${signal}` : `exit code ${code}`
    log(`the server process exited during the run (${state.serverExit})`)
    stopLoad('server exit')
  })

  // Samples: the server's own figures, and ours from /proc as it arrives.
  let waitingForSample = null
  child.on('message', msg => {
    if (!msg || msg.type !== 'sample') return
    const observer = quietly(() => observe(info.pid), { rssMiB: null, fds: null })
    const t = state.t0 === null ? 0 : Math.max(0, (msg.at - state.t0) / 1000)
    const s = {
      t: +t.toFixed(2),
      at: new Date(msg.at).toISOString(),
      rssMiB: msg.rssMiB,
      fds: msg.fds,
      observer,
      fdKinds: msg.fdKinds,
      loop: msg.loop,
      heapUsedMiB: msg.heapUsedMiB,
      heapTotalMiB: msg.heapTotalMiB,
      externalMiB: msg.externalMiB,
      arrayBuffersMiB: msg.arrayBuffersMiB,
      runs: state.totals.runs,
      batches: state.totals.batches,
      requests: state.totals.requests,
      failed: state.totals.failed + browserFailedCount(state)
    }
    state.samples.push(s)
    if (waitingForSample) {
      waitingForSample(s)
      waitingForSample = null
    }
    log(`soak ${clock(t)}/${clock(durationMs / 1000)}  runs ${state.totals.runs}  batches ${state.totals.batches}  ` +
      `requests ${state.totals.requests.toLocaleString('en-US')}  RSS ${s.rssMiB.toFixed(1)} MiB (observer ${observer.rssMiB === null ? '–' : observer.rssMiB.toFixed(1)})  ` +
      `fds ${s.fds} (${observer.fds ?? '–'})  loop p99 ${s.loop.p99 === null ? '–' : s.loop.p99.toFixed(1)} ms  failed ${s.failed}`)
  })
  const sampleNow = () => new Promise(resolve => {
    if (state.serverExit) return resolve(null)
    waitingForSample = resolve
    child.send({ type: 'sample' })
    setTimeout(() => resolve(null), 10000).unref()
  })

  let browser = null
  let chromium = null
  let userAgent = null
  try {
    if (!state.stopping) {
      browser = await launchBrowser({ spki: info.spki, handleSignals: false, lanes: info.lanes })
      chromium = chromiumVersion(browser.executablePath)
      page = await browser.context.newPage()
      page.on('pageerror', err => log(`page error: ${err.message}`))
      page.on('crash', () => { state.notes.push('the page crashed'); stopLoad('page crash') })
      // What Chromium itself says about each failed request (net::ERR_…), by
      // lane; requests cancelled by a stop are not failures.
      state.browserFailures = watchNetErrors(page, info.lanes, { ignore: () => Boolean(state.stopping || state.deadline) }).byLane
      await page.goto(`${info.page}/`)
      await page.waitForFunction(() => window.h2bench && typeof window.h2bench.run === 'function', null, { timeout: 30000 })
      userAgent = await page.evaluate(() => navigator.userAgent)
    }
    log(`server pid ${info.pid}; ${chromium}; ${opts.minutes} min of load, a sample every ${opts.intervalSeconds} s, ` +
      `warm-up ${clock(warmupSeconds(opts.minutes * 60))}; rotation ${WORKLOADS.map(w => w.label).join(', ')}`)

    // t = 0: a sample of the idle server, then the load.
    state.t0 = Date.now()
    await sampleNow()
    // At the end of the time the run in progress is stopped: what it
    // finished counts, what it aborted does not.
    const deadline = setTimeout(() => {
      state.deadline = true
      page.evaluate(() => window.h2bench.stop()).catch(() => {})
    }, durationMs)
    let k = 0
    while (!state.stopping && !state.deadline) {
      const workload = WORKLOADS[k++ % WORKLOADS.length]
      await runOnce({ page, workload, opts, state, log })
    }
    clearTimeout(deadline)
    state.loadEnd = Date.now()
    if (!state.stopping || SIGNALS.includes(state.stopping)) await sampleNow()
  } finally {
    closing = true
    if (browser) await Promise.race([browser.close().catch(() => {}), new Promise(resolve => setTimeout(resolve, 10000))])
    await stopServer(child)
  }

  const finishedAt = new Date()
  const loadSeconds = ((state.loadEnd || Date.now()) - state.t0) / 1000
  return assemble({ opts, state, info, startedAt, finishedAt, loadSeconds, commit, chromium, userAgent })
}

function browserFailedCount (state) {
  return Object.values(state.browserFailures).reduce((n, byError) => n + Object.values(byError).reduce((a, b) => a + b, 0), 0)
}

async function runOnce ({ page, workload, opts, state, log }) {
  const options = { requests: workload.requests, size: workload.size, delay: workload.delay, repeats: 1, lanes: opts.lanes }
  const evaluation = page.evaluate(runInPage, options)
  let timer = null
  const timedOut = new Promise(resolve => { timer = setTimeout(() => resolve('timeout'), RUN_TIMEOUT_MS) })
  let result
  let stalled = false
  try {
    result = await Promise.race([evaluation, timedOut])
    if (result === 'timeout') {
      stalled = true
      log(`${workload.label}: not finished after ${RUN_TIMEOUT_MS / 1000} s; stopping it (its unanswered requests count as failed)`)
      await page.evaluate(() => window.h2bench.stop()).catch(() => {})
      result = await evaluation
    }
  } catch (err) {
    if (state.stopping) return // the browser went away because we are stopping
    state.notes.push(`${workload.label}: the page failed: ${err.message.split('\n')[0]}`)
    log(`${workload.label}: the page failed: ${err.message.split('\n')[0]}`)
    state.stopping = state.stopping || 'browser failure'
    return
  } finally {
    clearTimeout(timer)
  }
  const t = (Date.now() - state.t0) / 1000
  const run = { t: +t.toFixed(2), workload: workload.label, state: result.state, batches: 0, requests: 0, failed: 0, elapsedMs: {} }
  for (const l of result.lanes) {
    if (l.batches.length) run.elapsedMs[l.lane] = l.batches[0].elapsed
    const lane = state.perLane[l.lane]
    let failed = l.failures
    for (const b of l.batches) {
      if (b.state !== 'done' && !stalled) continue // stopped by Ctrl-C: not a batch
      run.batches++
      run.requests += b.ok + b.failed
      lane.bytes += b.bytes
      state.totals.bytes += b.bytes
      if (stalled && b.aborted) {
        failed += b.aborted
        run.requests += b.aborted
        lane.stalled += b.aborted
        lane.errors[`no answer within ${RUN_TIMEOUT_MS / 1000} s (stalled)`] = (lane.errors[`no answer within ${RUN_TIMEOUT_MS / 1000} s (stalled)`] || 0) + b.aborted
      }
    }
    lane.batches += l.batches.filter(b => b.state === 'done' || stalled).length
    lane.requests += l.batches.filter(b => b.state === 'done' || stalled).reduce((n, b) => n + b.ok + b.failed + (stalled ? b.aborted : 0), 0)
    lane.failed += failed
    run.failed += failed
    for (const [e, n] of Object.entries(l.errors)) lane.errors[e] = (lane.errors[e] || 0) + n
    if (l.protocol) lane.protocol = l.protocol
    if (l.state === 'done' && !l.protocolOk) lane.protocolMismatches++
    if (failed) log(`${workload.label} on ${l.lane}: ${failed} failed${Object.keys(l.errors).length ? `: ${Object.entries(l.errors).map(([e, n]) => `${e} (${n}×)`).join(', ')}` : ''}`)
  }
  state.totals.runs++
  state.totals.batches += run.batches
  state.totals.requests += run.requests
  state.totals.failed += run.failed
  state.runs.push(run)
}

function stopServer (child) {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve()
  return new Promise(resolve => {
    const kill = setTimeout(() => child.kill('SIGKILL'), 8000)
    child.once('exit', () => { clearTimeout(kill); resolve() })
    if (child.connected) child.disconnect()
    else child.kill('SIGTERM')
  })
}

function median (xs) {
  return xs.length ? quantile(xs, 0.5) : null
}

// Do the server's own figures and the observer's agree? RSS: within 2 MiB
// or 2 % in the median sample (the two reads are moments apart, under load);
// fds: within 2 in the median sample.
function compareObservers (samples) {
  const both = samples.filter(s => s.observer.rssMiB !== null && s.observer.fds !== null)
  const rssDiffs = both.map(s => Math.abs(s.observer.rssMiB - s.rssMiB))
  const fdDiffs = both.map(s => Math.abs(s.observer.fds - s.fds))
  const rssMedian = median(rssDiffs)
  const fdsMedian = median(fdDiffs)
  const meanRss = both.length ? both.reduce((n, s) => n + s.rssMiB, 0) / both.length : 0
  return {
    samples: both.length,
    rssMedianAbsDiffMiB: rssMedian === null ? null : +rssMedian.toFixed(2),
    rssMaxAbsDiffMiB: rssDiffs.length ? +Math.max(...rssDiffs).toFixed(2) : null,
    fdsMedianAbsDiff: fdsMedian,
    fdsMaxAbsDiff: fdDiffs.length ? Math.max(...fdDiffs) : null,
    agree: both.length > 0 && rssMedian <= Math.max(2, 0.02 * meanRss) && fdsMedian <= 2
  }
}

function assemble ({ opts, state, info, startedAt, finishedAt, loadSeconds, commit, chromium, userAgent }) {
  const interrupted = SIGNALS.includes(state.stopping) ? state.stopping : null
  const plannedSeconds = opts.minutes * 60
  // An interrupted run is judged on what it ran (its warm-up too).
  const judgedSeconds = state.stopping ? Math.min(plannedSeconds, loadSeconds) : plannedSeconds
  const samples = state.samples
  const trend = analyze(samples, { durationSeconds: judgedSeconds })
  // Which fds moved: sockets (connections come and go) or the rest?
  const after = samples.filter(s => s.t >= trend.warmupSeconds && s.fdKinds)
  if (after.length) {
    const range = xs => ({ min: Math.min(...xs), max: Math.max(...xs) })
    trend.fds.sockets = range(after.map(s => s.fdKinds.socket))
    trend.fds.others = range(after.map(s => s.fds - s.fdKinds.socket))
  }
  const browserFailed = browserFailedCount(state)
  const v = verdict(trend, { failed: state.totals.failed, browserFailed, serverExit: state.serverExit })
  if (state.stopping && !interrupted && state.stopping !== 'server exit') v.reasons.push(`the load stopped early: ${state.stopping}`)
  if (state.stopping && !interrupted && state.stopping !== 'server exit') v.pass = false
  const cpus = os.cpus()
  const bucketSeconds = plannedSeconds >= 120 ? 60 : Math.max(opts.intervalSeconds, Math.ceil(plannedSeconds / 5))
  return {
    tool: 'h2bench soak',
    environment: {
      date: startedAt.toISOString(),
      finished: finishedAt.toISOString(),
      node: process.version,
      chromium,
      userAgent,
      h2bench: `${require('../../package.json').version}${commit ? ` ${commit}` : ''}`,
      cpu: cpus.length ? cpus[0].model.trim() : 'unknown',
      cpus: cpus.length,
      memoryGiB: +(os.totalmem() / 2 ** 30).toFixed(1),
      os: `${os.type()} ${os.release()} ${os.arch()}`,
      command: `npm run soak -- ${opts.argv.join(' ')}`.trim()
    },
    settings: {
      minutes: opts.minutes,
      intervalSeconds: opts.intervalSeconds,
      lanes: opts.lanes,
      smoke: opts.smoke,
      workloads: WORKLOADS,
      runTimeoutSeconds: RUN_TIMEOUT_MS / 1000,
      bucketSeconds,
      tolerances: {
        rss: `least-squares growth over the measured span below the larger of ${RSS_TOLERANCE.fraction * 100} % of the mean RSS and ${RSS_TOLERANCE.floorMiB} MiB`,
        rssFraction: RSS_TOLERANCE.fraction,
        rssFloorMiB: RSS_TOLERANCE.floorMiB,
        fds: `max − min after the warm-up at most ${FD_RANGE}`,
        fdRange: FD_RANGE,
        warmup: '20 % of the run, at least 60 s for runs of 5 min or more'
      },
      loopDelay: 'perf_hooks.monitorEventLoopDelay, resolution 10 ms, reset every sample; reported beyond the 10 ms timer, in ms'
    },
    server: { pid: info.pid, page: info.page, lanes: info.lanes },
    durationSeconds: +loadSeconds.toFixed(1),
    interrupted,
    stoppedEarly: state.stopping,
    serverExit: state.serverExit,
    baseline: samples[0] || null,
    samples,
    buckets: buckets({ samples, runs: state.runs, seconds: bucketSeconds }),
    runs: state.runs,
    totals: { ...state.totals },
    failed: state.totals.failed,
    browserFailed,
    perLane: Object.fromEntries(Object.entries(state.perLane).map(([lane, l]) => [lane, { ...l, browserErrors: state.browserFailures[lane] || {} }])),
    browserFailures: state.browserFailures,
    observers: compareObservers(samples),
    trend,
    verdict: v,
    notes: state.notes
  }
}

async function main (argv) {
  let opts
  try {
    opts = parseSoakArgs(argv)
  } catch (err) {
    if (!(err instanceof UsageError)) throw err
    process.stderr.write(`soak: ${err.message}\n`)
    return 2
  }
  if (opts.help) {
    process.stdout.write(HELP + '\n')
    return 0
  }
  opts.argv = argv
  const log = line => process.stderr.write(line + '\n')
  // Ctrl-C (or SIGTERM): stop the load, take a last sample, report, close the
  // browser and the server. Another one, a second or more later: end now.
  // (Under npm run, one Ctrl-C arrives twice: from the terminal and
  // forwarded by npm.)
  let signalled = null
  let signalledAt = 0
  let stopLoadRef = null
  const onSignal = signal => {
    if (signalled) {
      if (Date.now() - signalledAt < 1000) return
      log(`${signal} again: ending without a report`)
      process.exit(130)
    }
    signalled = signal
    signalledAt = Date.now()
    log(`\n${signal}: stopping the load; reporting what was measured (again to end at once)`)
    if (stopLoadRef) stopLoadRef(signal)
  }
  for (const s of SIGNALS) process.on(s, onSignal)
  const result = await soak(opts, log, fn => { stopLoadRef = fn; if (signalled) fn(signalled) })
  const report = formatReport(result)
  if (opts.json) {
    log(report)
    process.stdout.write(JSON.stringify(result, null, 2) + '\n')
  } else {
    process.stdout.write(report + '\n')
  }
  if (opts.out) {
    const dir = path.resolve(opts.out)
    const files = writeOutputs(dir, result)
    log(`wrote ${path.relative(process.cwd(), dir) || '.'}/{${files.join(',')}}`)
  }
  if (result.interrupted) return 130
  return result.verdict.pass ? 0 : 1
}

if (require.main === module) {
  main(process.argv.slice(2)).then(code => { process.exitCode = code }, err => {
    process.stderr.write(`soak: ${err.message}\n`)
    process.exitCode = 1
  })
}

module.exports = { main, parseSoakArgs, UsageError, WORKLOADS, HELP }

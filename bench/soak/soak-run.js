'use strict'

// One soak: the server in a process of its own, Chromium on the h2bench page,
// the workloads round and round until the time is up (or a stop), a sample
// every interval; → its result (soak-result.js).
const fs = require('node:fs')
const { launchBrowser, findChrome, INSTALL_HINT } = require('../../harness/chromium')
const { chromiumVersion, gitCommit } = require('../../harness/provenance')
const { watchNetErrors } = require('../../harness/net-errors')
const { warmupSeconds } = require('./soak-criteria')
const { clock } = require('./soak-format')
const { WORKLOADS, runOnce } = require('./soak-workload')
const { startServer, stopServer } = require('./soak-server-process')
const { takeSamples } = require('./soak-samples')
const { assemble, SIGNALS } = require('./soak-result')

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
    perLane: Object.fromEntries(opts.lanes.map(n => [
      n,
      { batches: 0, requests: 0, bytes: 0, failed: 0, stalled: 0, errors: {}, protocol: null, protocolMismatches: 0 }
    ])),
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

  const sampleNow = takeSamples({ child, info, state, durationMs, log })

  let browser = null
  let chromium = null
  let userAgent = null
  try {
    if (!state.stopping) {
      // As the runner's: without puppeteer's Network domain (harness/chromium/headless.js `network`).
      browser = await launchBrowser({ spki: info.spki, handleSignals: false, lanes: info.lanes, network: false })
      chromium = chromiumVersion(browser.executablePath)
      page = await browser.context.newPage()
      page.on('pageerror', err => log(`page error: ${err.message}`))
      page.on('error', () => { state.notes.push('the page crashed'); stopLoad('page crash') }) // puppeteer's crash event
      // What Chromium itself says about each failed request (net::ERR_…), by
      // lane, from its console; requests cancelled by a stop are not failures.
      state.browserFailures = watchNetErrors(page, info.lanes, { via: 'console', ignore: () => Boolean(state.stopping || state.deadline) }).byLane
      await page.goto(`${info.page}/`)
      await page.waitForFunction(() => window.h2bench && typeof window.h2bench.run === 'function', { timeout: 30000 })
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

module.exports = { soak }

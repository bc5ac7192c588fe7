'use strict'

// What a soak measured, results.json less its reading: its environment and settings, the samples and
// runs, the totals and failures. The buckets, the trend, the verdict and the tolerances it judged by are
// the report's (bench/report/soak/soak-rebuild.js judged): here null, in their places.
const { environmentRecord } = require('../../harness/provenance')
const { WORKLOADS, RUN_TIMEOUT_MS } = require('./soak-workload')
const { browserFailedCount, compareObservers } = require('./soak-samples')
const { commandLine } = require('../../common/cli')

// The signals that stop a run early; it then reports what it measured.
const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP']

function assemble ({ opts, state, info, startedAt, finishedAt, loadSeconds, commit, chromium, userAgent }) {
  const interrupted = SIGNALS.includes(state.stopping) ? state.stopping : null
  const plannedSeconds = opts.minutes * 60
  const samples = state.samples
  const browserFailed = browserFailedCount(state)
  const machine = environmentRecord({ commit })
  const bucketSeconds = plannedSeconds >= 120 ? 60 : Math.max(opts.intervalSeconds, Math.ceil(plannedSeconds / 5))
  return {
    tool: 'h2bench soak',
    environment: {
      date: startedAt.toISOString(),
      finished: finishedAt.toISOString(),
      node: machine.node,
      chromium,
      userAgent,
      h2bench: machine.h2bench,
      cpu: machine.cpu,
      cpus: machine.cpus,
      memoryGiB: machine.memoryGiB,
      os: machine.os,
      command: commandLine('npm run soak', opts.argv)
    },
    settings: {
      minutes: opts.minutes,
      intervalSeconds: opts.intervalSeconds,
      lanes: opts.lanes,
      smoke: opts.smoke,
      workloads: WORKLOADS,
      runTimeoutSeconds: RUN_TIMEOUT_MS / 1000,
      bucketSeconds,
      tolerances: null,
      loopDelay: 'perf_hooks.monitorEventLoopDelay, resolution 10 ms, reset every sample; reported beyond the 10 ms timer, in ms'
    },
    server: { pid: info.pid, page: info.page, lanes: info.lanes },
    durationSeconds: +loadSeconds.toFixed(1),
    interrupted,
    stoppedEarly: state.stopping,
    serverExit: state.serverExit,
    baseline: samples[0] || null,
    samples,
    buckets: null,
    runs: state.runs,
    totals: { ...state.totals },
    failed: state.totals.failed,
    browserFailed,
    perLane: Object.fromEntries(Object.entries(state.perLane).map(([lane, l]) => [lane, { ...l, browserErrors: state.browserFailures[lane] || {} }])),
    browserFailures: state.browserFailures,
    observers: compareObservers(samples),
    trend: null,
    verdict: null,
    notes: state.notes
  }
}

module.exports = { assemble, SIGNALS }

'use strict'

// What a soak returns, results.json: its environment and settings, the
// samples, buckets and runs, the totals and failures, the trend and the
// verdict.
const { environmentRecord } = require('../../harness/provenance')
const { analyze, verdict, RSS_TOLERANCE, FD_RANGE } = require('./soak-trend')
const { buckets } = require('./soak-buckets')
const { WORKLOADS, RUN_TIMEOUT_MS } = require('./soak-workload')
const { browserFailedCount, compareObservers } = require('./soak-samples')

// The signals that stop a run early; it then reports what it measured.
const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP']

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

module.exports = { assemble, SIGNALS }

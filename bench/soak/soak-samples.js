'use strict'

// The soak's samples of the server: its own figures (soak-server.js sends
// them when asked) beside this process's from /proc/<pid>, and how far the
// two agree.
const fs = require('node:fs')
const { quantile } = require('../../shared/stats')
const { quietly } = require('../../harness/provenance')
const { clock } = require('./soak-format')

// The server as the kernel sees it: VmRSS and the entries of /proc/<pid>/fd.
function observe (pid) {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8')
  const m = /^VmRSS:\s+(\d+) kB/m.exec(status)
  return { rssMiB: m ? +(Number(m[1]) / 1024).toFixed(2) : null, fds: fs.readdirSync(`/proc/${pid}/fd`).length }
}

// Samples: the server's own figures, and ours from /proc as it arrives.
// → sampleNow(): asks the server for a sample and resolves with it (null when
// the server has exited or does not answer within 10 s).
function takeSamples ({ child, info, state, durationMs, log }) {
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
      sockets: msg.sockets,
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
  return () => new Promise(resolve => {
    if (state.serverExit) return resolve(null)
    waitingForSample = resolve
    child.send({ type: 'sample' })
    setTimeout(() => resolve(null), 10000).unref()
  })
}

function browserFailedCount (state) {
  return Object.values(state.browserFailures).reduce((n, byError) => n + Object.values(byError).reduce((a, b) => a + b, 0), 0)
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

module.exports = { takeSamples, browserFailedCount, compareObservers }

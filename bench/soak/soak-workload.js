'use strict'

// The soak's load: the rotation of workloads, and one run of a workload on
// every lane in the page (window.h2bench.run), counted into the run's state.

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

module.exports = { WORKLOADS, RUN_TIMEOUT_MS, runOnce }

'use strict'

// What every cell runner shares (page.js, push-page.js, push-protocol-cell.js,
// rest.js, site-page.js, load.js, h3-study.js): the network a cell runs on,
// its result rows, and its repeats within the cell's budget.
const stats = require('../../shared/stats')
const { parseSize } = require('../../server/payload')
const { presetByName, toCdp, linkSpecFor, throttled } = require('../../link/devtools-presets')
const { repeatsFor } = require('./budget')

// The link a cell runs on: its own spec, else its preset's (a DevTools
// preset has a link preset of the same name).
const cellLinkSpec = cell => cell.link || linkSpecFor(cell.preset)

// DevTools throttling on a session: CDP's emulateNetworkConditions needs the
// Network domain on, and that domain reports every request and every chunk of
// every body over the session (with no body kept: buffers of 0), which cost
// Chromium 1.4–1.5× the CPU of the same requests (docs/page-cost.md). So it is
// on only while a preset throttles; 'No throttling' turns it off again, unless
// the session's owner enabled it for its own use (`keepsNetwork`: site-page's
// cache switch).
const networkOn = new WeakMap() // cdp → true while this module has its Network domain on
async function throttle (cdp, preset, { keepsNetwork = false } = {}) {
  const conditions = toCdp(presetByName(preset))
  const throttles = throttled(presetByName(preset))
  if (throttles && !keepsNetwork && !networkOn.get(cdp)) {
    await cdp.send('Network.enable', { maxTotalBufferSize: 0, maxResourceBufferSize: 0 })
    networkOn.set(cdp, true)
  }
  if (throttles || keepsNetwork || networkOn.get(cdp)) await cdp.send('Network.emulateNetworkConditions', conditions)
  if (!throttles && networkOn.get(cdp)) {
    await cdp.send('Network.disable')
    networkOn.delete(cdp)
  }
}

// A cell's network: the preset as DevTools throttling (CDP, per request), or
// as the packet-level link the browser sits behind (`link`: harness/link-session.js's
// session; CDP throttling then off). A cell may carry its own `link: '<spec>'`
// (link/spec.js) instead of a preset: link networks only. Returns what the row records.
// `keepsNetwork`: the caller has the session's Network domain on for its own use (throttle above).
async function applyNetwork (cdp, preset, link, spec = null, { keepsNetwork = false } = {}) {
  if (!link) {
    if (spec) throw new Error(`a cell with its own link "${spec}" runs only with --network link`)
    await throttle(cdp, preset, { keepsNetwork })
    return { network: 'devtools', link: null, linkSpec: null }
  }
  if (cdp) await throttle(cdp, 'No throttling', { keepsNetwork })
  const active = await link.control.change(cellLinkSpec({ link: spec, preset }))
  return { network: 'link', link: active.description, linkSpec: active.text }
}

const secs = ms => `${(ms / 1000).toFixed(1)} s`

// A row's (or a cell's, given cellParams) value of an experiment's sweep parameter: 'preset' or a field of params.
const paramOf = (row, param) => param === 'preset' ? row.preset : row.params[param]

// A cell's parameters as the rows report them, units in the names.
function cellParams (cell) {
  const sizeBytes = cell.size === undefined ? null : parseSize(cell.size)
  return {
    requests: cell.requests ?? null,
    assets: cell.assets ?? null,
    sizeBytes,
    sizeMB: sizeBytes === null ? null : +(sizeBytes / 1048576).toFixed(3),
    delayMs: cell.delay ?? null
  }
}

// One result row; times in ms. See docs/runner.md for every field.
function row ({ entry, lane, mode = null, samples, failures, protocol, asked, note, extra = {} }) {
  const s = stats.summary(samples)
  const num = v => Number.isNaN(v) ? null : +v.toFixed(2)
  return {
    experiment: entry.experiment.id,
    cell: entry.index,
    params: cellParams(entry.cell),
    preset: entry.cell.preset,
    lane,
    mode,
    protocol,
    samples: samples.map(x => +x.toFixed(2)),
    median: num(s.median),
    q1: num(s.q1),
    q3: num(s.q3),
    mean: num(s.mean),
    min: num(s.min),
    max: num(s.max),
    failures,
    repeatsAsked: asked,
    repeatsGot: samples.length,
    note,
    ...extra
  }
}

// Runs `once(r)` for r = 0, 1, … as many times as asked, or as the budget
// allows judged from the first; → { planned, firstMs }.
async function repeatWithinBudget ({ repeats, budgetMs, log }, once) {
  let planned = repeats
  let firstMs = 0
  for (let r = 0; r < planned; r++) {
    const t0 = Date.now()
    await once(r)
    const took = Date.now() - t0
    if (r === 0) {
      firstMs = took
      planned = repeatsFor(repeats, firstMs, budgetMs)
    }
    if (took > 10000) log(`  repeat ${r + 1} of ${planned}: ${secs(took)}`)
  }
  return { planned, firstMs }
}

// The page's window.__h2benchMeter(phase, info): `meter` (harness/cell-costs.js)
// started at 'start' and stopped at 'end', each window's record handed to
// `state.sink(record, info)` (the caller sets the sink per call). The page
// awaits it just outside each timed batch or visit (h2bench.run's
// aroundBatch, h2bench.rest's aroundVisit). Exposed once per page.
const exposed = new WeakMap() // page → { sink }
async function meterBridge (page, meter) {
  if (!exposed.has(page)) {
    const state = { sink: null }
    exposed.set(page, state)
    await page.exposeFunction('__h2benchMeter', async (phase, info) => {
      if (phase === 'start') await meter.start()
      else {
        const record = await meter.stop()
        if (state.sink) state.sink(record, info)
      }
    })
  }
  return exposed.get(page)
}

// One lane's result of window.h2bench.run() (reduced in the page) added to
// `p`, the row's collection: samples, batches left out, failures, the
// protocol it spoke, and a note when the lane could not be reached.
function collectLane (p, l) {
  p.samples.push(...l.samples)
  p.leftOut += l.leftOut
  p.failures += l.failures
  if (l.protocol) p.protocols.push(l.protocol)
  if (l.unreachable) p.notes.push(`unreachable: ${l.unreachable}`)
}

function mostFrequent (list) {
  const counts = new Map()
  for (const x of list) counts.set(x, (counts.get(x) || 0) + 1)
  return [...counts].sort((a, b) => b[1] - a[1]).map(([x]) => x)[0] || null
}

// The link seed of one lane's run in repeat r (0-based): paired, every lane
// of a repeat on seed + r, so each protocol meets the same drops packet for
// packet (link/forwarder); unpaired, a seed of its own per lane and repeat.
// Null without seeding (a DevTools cell, a caller that did not ask).
function seedOf (seeding, r, laneIndex) {
  if (!seeding || seeding.seed === null || seeding.seed === undefined) return null
  return seeding.paired === false ? seeding.seed + r * 1000 + laneIndex + 1 : seeding.seed + r
}

// Sets the seed of a runner link (a startLanesBehindLink session) for the run about to start; → the seed, or null.
async function applySeed (link, seeding, r, laneIndex) {
  const seed = link ? seedOf(seeding, r, laneIndex) : null
  if (seed !== null) await link.control.seed(seed)
  return seed
}

// A row's field for the seeds its runs met ({} when none was set): { linkSeeds: [seed of each run, in order] }.
const seedsOf = p => p.seeds && p.seeds.length ? { linkSeeds: p.seeds } : {}

module.exports = {
  paramOf, seedOf, applySeed, seedsOf, cellLinkSpec, applyNetwork, cellParams, row, repeatWithinBudget, mostFrequent, meterBridge, collectLane
}

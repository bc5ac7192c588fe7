'use strict'

// The visual metrics of one page load, from a Chromium trace's screenshots
// (./trace.js), computed the way Lighthouse computes them: speedline-core
// (Lighthouse's own library) with the navigation's start as its time origin,
// fastMode on (Lighthouse's setting: a run of frames whose progress differs
// little is interpolated, not decoded one by one). Pure: trace events in,
// numbers and frames out (a promise, because speedline-core answers with
// one), so it is tested on constructed traces without a browser.
//
// visualMetrics(traceEvents, { timeOrigin, url }) → {
//   speedIndexMs, perceptualSpeedIndexMs: speedline's Speed Index (visual
//     progress from colour histograms, WebPageTest's) and perceptual Speed
//     Index (from SSIM against the last frame),
//   firstVisualChangeMs: the first frame with any progress,
//   visuallyCompleteMs: the first frame at 100 % (speedline's `complete`),
//   lastVisualChangeMs: the last frame whose progress differs from the one
//     before (WebPageTest's Last Visual Change; later than visually complete
//     when the page changes and changes back),
//   frames: [{ ms (after the time origin), progress (0–100, speedline's
//     visual progress), perceptualProgress, interpolated (fastMode did not
//     decode it: its progress is its neighbours'), synthetic (speedline's
//     white frame at the time origin, standing for the screen before the
//     first screenshot), jpeg: Buffer }],
//   filmstrip(stepMs = 100): the frame on screen at 0, stepMs, 2·stepMs, …
//     up to the last visual change (WebPageTest's filmstrip):
//     [{ ms, frameMs (the shown frame's own time), progress, jpeg }],
//   timeOrigin: { ts (µs, the trace's clock), source, url },
//   error: null, or why the numbers are null (they are never NaN) }
// All times are ms after the time origin, unrounded (the trace's µs / 1000),
// so speedIndexMs lies between firstVisualChangeMs and lastVisualChangeMs.
//
// The time origin: Lighthouse's speedline artifact passes speedline the
// processed trace's timeOrigin, which for a navigation is the main frame's
// last `navigationStart` (blink.user_timing) whose documentLoaderURL is
// an http(s) or data: URL (trace-processor's navigationStart "of interest"),
// the main frame named by TracingStartedInBrowser. ./trace.js does not
// record that event's category (disabled-by-default-devtools.timeline, the
// largest), so without it the main frame is the one whose navigationStart
// says isOutermostMainFrame (or, older Chromium, isLoadingMainFrame).
// `url`: the navigation's URL, to pick its navigationStart among several;
// `timeOrigin` (µs): to give the origin instead. No navigationStart → null
// numbers and an error saying so (Lighthouse's NO_NAVSTART), never a guess.
//
// Screenshot times: speedline-core (and so Lighthouse) takes a screenshot's
// time from its event's `ts`; Chromium's current Screenshot events also
// carry args.expected_display_time, when the frame was to be shown, a few
// ms (up to a frame or two) earlier. This follows Lighthouse: `ts`.
const speedline = require('speedline-core')

const SCREENSHOT_CATEGORY = 'disabled-by-default-devtools.screenshot'

const isOfInterest = url => typeof url === 'string' && (url.startsWith('http') || url.startsWith('data:'))

// The main frames TracingStartedInBrowser names (a Set, empty when the trace lacks it).
function mainFramesOf (events) {
  const ids = new Set()
  for (const e of events) {
    if (e.name !== 'TracingStartedInBrowser') continue
    const frames = (e.args && e.args.data && e.args.data.frames) || []
    for (const f of frames) if (!f.parent && f.frame) ids.add(f.frame)
  }
  return ids
}

// → { ts, source, url } or { error }
function timeOriginOf (events, { timeOrigin = null, url = null } = {}) {
  if (timeOrigin !== null) {
    if (!Number.isFinite(timeOrigin)) return { error: `timeOrigin ${timeOrigin} is not a number of µs on the trace's clock` }
    return { ts: timeOrigin, source: 'given', url: null }
  }
  const mains = mainFramesOf(events)
  const starts = events.filter(e => {
    if (e.name !== 'navigationStart' || !e.args) return false
    const data = e.args.data || {}
    if (!isOfInterest(data.documentLoaderURL)) return false
    if (url !== null && data.documentLoaderURL !== url) return false
    if (mains.size) return mains.has(e.args.frame)
    return data.isOutermostMainFrame === true || (data.isOutermostMainFrame === undefined && data.isLoadingMainFrame === true)
  }).sort((a, b) => a.ts - b.ts)
  if (!starts.length) {
    return { error: `no navigationStart of the main frame${url === null ? '' : ` for ${url}`} in the trace: was it started before the navigation, with the blink.user_timing category?` }
  }
  const last = starts[starts.length - 1]
  return { ts: last.ts, source: 'navigationStart', url: last.args.data.documentLoaderURL }
}

const screenshotsOf = events => events.filter(e => typeof e.cat === 'string' && e.cat.includes(SCREENSHOT_CATEGORY) && e.args && e.args.snapshot)

// The frame on screen at each step of `stepMs` from 0 up to `endMs` (the
// last step at or after it), as WebPageTest's filmstrip.
function stepsOf (frames, endMs, stepMs) {
  if (!(stepMs > 0) || !Number.isFinite(stepMs)) throw new RangeError(`filmstrip step ${stepMs} ms: a positive number of ms`)
  if (!frames.length) return []
  const out = []
  let i = 0
  const last = Math.ceil(endMs / stepMs)
  for (let n = 0; n <= last; n++) {
    const ms = n * stepMs
    while (i + 1 < frames.length && frames[i + 1].ms <= ms) i++
    const f = frames[i]
    out.push({ ms, frameMs: f.ms, progress: f.progress, jpeg: f.jpeg })
  }
  return out
}

function result ({ frames = [], timeOrigin = null, error = null, metrics = {} }) {
  const lastFrameMs = frames.length ? frames[frames.length - 1].ms : 0
  const endMs = metrics.lastVisualChangeMs ?? lastFrameMs
  return {
    speedIndexMs: metrics.speedIndexMs ?? null,
    perceptualSpeedIndexMs: metrics.perceptualSpeedIndexMs ?? null,
    firstVisualChangeMs: metrics.firstVisualChangeMs ?? null,
    visuallyCompleteMs: metrics.visuallyCompleteMs ?? null,
    lastVisualChangeMs: metrics.lastVisualChangeMs ?? null,
    frames,
    filmstrip: (stepMs = 100) => stepsOf(frames, endMs, stepMs),
    timeOrigin,
    error
  }
}

// The last frame whose visual progress differs from the frame before it.
// speedline already drops a screenshot whose bytes repeat the one before; a
// screenshot encoded anew with the same pixels keeps its progress, and is no
// change. (The first frame differs from speedline's white one, whose
// progress is 0, whenever there is anything to measure.)
function lastChangeOf (frames) {
  for (let i = frames.length - 1; i > 0; i--) if (frames[i].progress !== frames[i - 1].progress) return frames[i]
  return frames[0]
}

const finiteOrNull = x => (typeof x === 'number' && Number.isFinite(x) ? x : null)

async function visualMetrics (traceEvents, options = {}) {
  const events = Array.isArray(traceEvents) ? traceEvents : (traceEvents && traceEvents.traceEvents)
  if (!Array.isArray(events)) throw new TypeError('visualMetrics takes the trace events (an array, or { traceEvents })')
  const origin = timeOriginOf(events, options)
  if (origin.error) return result({ error: origin.error })
  const timeOrigin = origin
  const shots = screenshotsOf(events)
  if (!shots.some(e => e.ts >= timeOrigin.ts)) {
    return result({
      timeOrigin,
      error: shots.length
        ? `no screenshot after the navigation's start (${shots.length} before it): the page drew nothing the trace caught`
        : `no screenshots in the trace: was ${SCREENSHOT_CATEGORY} traced, and did the page have a viewport to draw into (a headless page needs one; launchBrowser gives each page 1280 × 720)?`
    })
  }
  // A shallow copy: speedline sorts what it is given (Lighthouse does the same, lighthouse#2333).
  const out = await speedline(events.slice(), { timeOrigin: timeOrigin.ts, fastMode: true, include: 'all' })
  const startMs = timeOrigin.ts / 1000
  const frames = out.frames.map((f, i) => ({
    ms: f.getTimeStamp() - startMs,
    progress: f.getProgress(),
    perceptualProgress: f.getPerceptualProgress(),
    interpolated: Boolean(f.isProgressInterpolated()),
    synthetic: i === 0,
    jpeg: f.getImage()
  }))
  if (frames[0].progress > 0) {
    // speedline's white first frame already matches the last: nothing but white was ever drawn
    return result({ frames, timeOrigin, error: 'no visual change: the last screenshot is as blank (white) as the screen before the first one, so there is no progress to measure (Lighthouse refuses this too: SPEEDINDEX_OF_ZERO)' })
  }
  const firstChange = frames.find(f => f.progress > 0)
  const complete = frames.find(f => f.progress >= 100)
  const metrics = {
    speedIndexMs: finiteOrNull(out.speedIndex),
    perceptualSpeedIndexMs: finiteOrNull(out.perceptualSpeedIndex),
    firstVisualChangeMs: firstChange ? firstChange.ms : null,
    visuallyCompleteMs: complete ? complete.ms : null,
    lastVisualChangeMs: lastChangeOf(frames).ms
  }
  const missing = Object.keys(metrics).filter(k => metrics[k] === null)
  return result({ frames, timeOrigin, metrics, error: missing.length ? `speedline gave no number for ${missing.join(', ')}` : null })
}

module.exports = { visualMetrics, timeOriginOf, screenshotsOf, stepsOf, SCREENSHOT_CATEGORY }

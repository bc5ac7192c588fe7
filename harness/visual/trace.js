'use strict'

// A Chromium performance trace of one page load, recorded over a CDP session
// (puppeteer's page.createCDPSession()), for the visual metrics of
// ./speed-index.js: the compositor's screenshots (what the user saw, frame
// by frame) and the navigation's start (the time origin they are measured
// from). startTrace(cdp) → { stop() → { traceEvents, dataLossOccurred } }.
//
// The categories are a subset of Lighthouse's (its trace gatherer's
// getDefaultTraceCategories): everything off ('-*'), then the screenshots
// ('disabled-by-default-devtools.screenshot'), the timeline events that name
// the main frame and its process (TracingStartedInBrowser,
// FrameCommittedInBrowser: 'devtools.timeline'), the navigation's start and
// the page's marks ('navigationStart', User Timing: 'blink.user_timing'),
// and the loading milestones ('loading': firstContentfulPaint,
// largestContentfulPaint::Candidate). Left out: V8's ('v8', 'v8.execute')
// and the detailed timeline's ('disabled-by-default-devtools.timeline…'),
// which the visual metrics do not read and which multiply the trace's size
// and Chromium's cost of making it. '__metadata' (process and thread names)
// is always recorded. The trace comes back as a stream (transferMode
// ReturnAsStream, read with IO.read), as Lighthouse reads it, so a long
// trace with hundreds of screenshots does not travel as a flood of
// Tracing.dataCollected events.
//
// Screenshots and headless Chromium: Chromium puts a screenshot into the
// trace for every frame its compositor draws that differs from the last,
// scaled down (at most 500 px wide or high, JPEG). The measuring headless
// Chromium (harness/chromium/headless.js: --headless, the new headless
// mode, with --disable-gpu: software compositing) draws frames for a page
// with a viewport, and launchBrowser gives every page one (1280 × 720,
// Emulation.setDeviceMetricsOverride through puppeteer's defaultViewport),
// so no launcher option is needed. A page that never draws (a page never
// shown, a renderer that crashed) has no screenshots: ./speed-index.js says
// so instead of a number.
//
// Firefox has no equivalent: WebDriver BiDi has no trace and no screenshot
// events, and polling browsingContext.captureScreenshot during a load would
// make the browser encode a full screenshot on its own clock between the
// page's frames, perturbing the load it measures; so there is no Firefox
// path here, and visual metrics are Chromium's alone.
//
// Chromium traces the whole browser, not only the page the session belongs
// to: a second tab drawing during the load would add its screenshots. Trace
// one page in a browser (or a context) of its own.

const CATEGORIES = [
  '-*',
  'disabled-by-default-devtools.screenshot',
  'devtools.timeline',
  'blink.user_timing',
  'loading',
  '__metadata'
]

// IO.read's chunk: large enough that a trace of tens of MB takes tens of
// reads, not thousands.
const READ_BYTES = 4 * 1024 * 1024

// Reads a CDP stream handle to its end and closes it. → the text
async function readStream (cdp, handle) {
  const parts = []
  try {
    for (;;) {
      const { data, base64Encoded, eof } = await cdp.send('IO.read', { handle, size: READ_BYTES })
      if (data) parts.push(base64Encoded ? Buffer.from(data, 'base64') : Buffer.from(data, 'utf8'))
      if (eof) break
    }
  } finally {
    await cdp.send('IO.close', { handle }).catch(() => {})
  }
  return Buffer.concat(parts).toString('utf8')
}

// The trace's text → its events: Chromium writes either { traceEvents: [...] }
// or a bare array.
function eventsOf (text) {
  const parsed = JSON.parse(text)
  const events = Array.isArray(parsed) ? parsed : parsed && parsed.traceEvents
  if (!Array.isArray(events)) throw new Error('the trace Chromium returned has no traceEvents')
  return events
}

// Starts tracing on `cdp` (a CDPSession: send(method, params), on/off or
// once). Call before the navigation; stop() after the page has drawn what it
// will (after its load event, and a frame or two after: the last screenshot
// follows the last paint). `categories`: to trace more (Lighthouse's full
// set, for DevTools' Performance panel).
async function startTrace (cdp, { categories = CATEGORIES } = {}) {
  await cdp.send('Tracing.start', { categories: categories.join(','), transferMode: 'ReturnAsStream' })
  let stopping = null
  return {
    categories,
    // → { traceEvents, dataLossOccurred (Chromium's trace buffer overflowed: events are missing) }
    stop () {
      stopping = stopping || (async () => {
        const complete = new Promise(resolve => {
          const onComplete = event => {
            if (typeof cdp.off === 'function') cdp.off('Tracing.tracingComplete', onComplete)
            resolve(event)
          }
          cdp.on('Tracing.tracingComplete', onComplete)
        })
        await cdp.send('Tracing.end')
        const { stream, dataLossOccurred = false } = await complete
        if (!stream) throw new Error('Tracing.tracingComplete named no stream (was the trace started with transferMode ReturnAsStream?)')
        return { traceEvents: eventsOf(await readStream(cdp, stream)), dataLossOccurred: Boolean(dataLossOccurred) }
      })()
      return stopping
    }
  }
}

module.exports = { startTrace, CATEGORIES }

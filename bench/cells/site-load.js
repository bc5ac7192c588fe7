'use strict'

// One load of a page in a browser tab, measured from inside the page the same
// way in Chromium (puppeteer over CDP) and Firefox (over BiDi): Navigation
// Timing for time to first byte and onload, Paint Timing for first contentful
// paint, the largest-contentful-paint entries for LCP (the last candidate by
// the time the page has loaded and the network gone quiet), and the
// document's protocol (nextHopProtocol). The network-level figures (requests,
// bytes, connections, every request's protocol) are the load's HAR's.
const LOAD_TIMEOUT_MS = 60000
// After onload, the load is over once no new Resource Timing entry appeared for QUIET_MS (at most SETTLE_MS).
const QUIET_MS = 500
const SETTLE_MS = 5000

const sleep = ms => new Promise(resolve => setTimeout(resolve, ms))

// Loads `url` in `page`; → { status, protocol, ttfb, fcp, lcp, onload, domContentLoaded } (ms from the
// navigation's start), and documentFromCache: the document came from the browser's cache, no request
// made (Navigation Timing's transferSize 0 with a body: its time to first byte is no round trip).
async function loadPage (page, url) {
  const response = await page.goto(url, { waitUntil: 'load', timeout: LOAD_TIMEOUT_MS })
  await page.waitForFunction(() => {
    const nav = performance.getEntriesByType('navigation')[0]
    return Boolean(nav && nav.loadEventEnd > 0)
  }, { timeout: LOAD_TIMEOUT_MS, polling: 50 }).catch(err => {
    throw err.name === 'TimeoutError' ? new Error(`no load event within ${LOAD_TIMEOUT_MS / 1000} s`, { cause: err }) : err
  })
  // The network quiet: the page's late requests (lazy images, beacons) belong to its load and its HAR.
  const t0 = Date.now()
  let count = -1
  let since = Date.now()
  while (Date.now() - t0 < SETTLE_MS) {
    const n = await page.evaluate(() => performance.getEntriesByType('resource').length)
    if (n !== count) {
      count = n
      since = Date.now()
    } else if (Date.now() - since >= QUIET_MS) break
    await sleep(100)
  }
  const t = await page.evaluate(() => new Promise(resolve => {
    const nav = performance.getEntriesByType('navigation')[0]
    const fcp = performance.getEntriesByType('paint').find(p => p.name === 'first-contentful-paint')
    const done = lcp => resolve({
      protocol: nav.nextHopProtocol || null,
      documentFromCache: nav.transferSize === 0 && nav.decodedBodySize > 0,
      ttfb: nav.responseStart - nav.startTime,
      domContentLoaded: nav.domContentLoadedEventEnd - nav.startTime,
      onload: nav.loadEventEnd - nav.startTime,
      fcp: fcp ? fcp.startTime : null,
      lcp,
      // Resources the browser fetched by a 103's preload (Resource Timing initiatorType "early-hints"; a
      // preconnect-only 103 shows none).
      earlyHintsPreloads: performance.getEntriesByType('resource').filter(e => e.initiatorType === 'early-hints').length
    })
    try {
      let last = null
      const observer = new PerformanceObserver(list => {
        const entries = list.getEntries()
        if (entries.length) last = entries[entries.length - 1]
      })
      observer.observe({ type: 'largest-contentful-paint', buffered: true })
      setTimeout(() => {
        observer.disconnect()
        done(last ? last.startTime : null)
      }, 100)
    } catch {
      done(null) // no LCP in this browser
    }
  }))
  return { ...t, status: response ? response.status() : null }
}

module.exports = { loadPage, LOAD_TIMEOUT_MS }

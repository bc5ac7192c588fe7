'use strict'

// `npm run bench -- record`'s measuring side: a site recorded once in headless Chromium (the project's
// launcher, harness/chromium/) into one HAR 1.2 with its bodies and h2bench's fields (harness/har/:
// cdp-har.js's recording, recording.js's fields), for the replay (server/replay/). Each --url is a HAR
// page of one browser, loaded in turn until its load event and 500 ms without a request in flight.
// The browser's cache is off (every response from the network, each with its own timing and body);
// QUIC is allowed as Chromium allows it (after an Alt-Svc answer; never for an origin of a --ca CA, whose
// root is not of Chromium's own store: harness/chromium/headless.js). An origin whose connect timings the
// browser did not show (a preconnected socket reports none) gets its round trip from TCP connects
// made here to the address the browser used.
const { launchBrowser } = require('../../harness/chromium/headless')
const { chromiumVersion } = require('../../harness/provenance')
const { recordCdp, ROUND_TRIP } = require('../../harness/har/cdp-har')
const { buildHar } = require('../../harness/har/har')
const { logFields } = require('../../harness/har/recording')
const { trustSite, trustLine, readCa } = require('../../harness/site-trust')
const { connectTimes } = require('../../harness/remote-lanes')
const { UserError } = require('../../common/errors')
const { timeServersAlone } = require('./server-time')
const { failuresOf, failedOrigins } = require('../../common/failed-requests')

const QUIET_MS = 500 // no request in flight this long after the load event: the page has loaded
const POLL_MS = 50
const PROBE_CONNECTS = 3

const sleep = ms => new Promise(resolve => setTimeout(resolve, ms))

// 'Chromium 156.0.8078.108 built on Debian…' → { name: 'Chromium', version: '156.0.8078.108' }.
function browserOf (versionLine) {
  const m = /^(.*?)\s+(\d+(?:\.\d+)+)/.exec(String(versionLine || ''))
  return m ? { name: m[1], version: m[2] } : { name: 'Chromium', version: String(versionLine || '') }
}

// --ca: the CA Chromium is to trust for every origin it signed (in its throw-away NSS database:
// harness/chromium/headless.js), after Node has checked that each --url origin's leaf is signed by it for its
// name (harness/site-trust.js: a clear error, before any browser starts, when one is not). → its PEM, or null.
async function checkedCa (urls, caFile, log) {
  if (!caFile) return null
  const caPem = readCa(caFile)
  const checked = []
  for (const origin of new Set(urls.map(u => new URL(u).origin))) checked.push(await trustSite(origin, caFile))
  log(trustLine(caFile, caPem, checked))
  return caPem
}

// Waits until the load is over: nothing in flight for QUIET_MS and no new event meanwhile, or the
// deadline. → true when quiet, false at the deadline.
async function quiet (recorder, deadline) {
  let count = -1
  let since = Date.now()
  while (Date.now() < deadline) {
    const n = recorder.events.length
    if (n !== count || recorder.inFlight() > 0) {
      count = n
      since = Date.now()
    } else if (Date.now() - since >= QUIET_MS) return true
    await sleep(POLL_MS)
  }
  return false
}

// The page's first and largest contentful paint (ms from its navigation's start, Paint Timing and the last
// largest-contentful-paint candidate, as the site experiment reads them: bench/cells/site-load.js), each null when
// the page had none. The replay's report holds its loads' medians against them (bench/cells/replay-plan.js).
function paintsOf (page) {
  return page.evaluate(() => new Promise(resolve => {
    const fcp = performance.getEntriesByType('paint').find(p => p.name === 'first-contentful-paint')
    let last = null
    try {
      const observer = new PerformanceObserver(list => {
        const entries = list.getEntries()
        if (entries.length) last = entries[entries.length - 1]
      })
      observer.observe({ type: 'largest-contentful-paint', buffered: true })
      setTimeout(() => { observer.disconnect(); resolve({ fcp: fcp ? fcp.startTime : null, lcp: last ? last.startTime : null }) }, 100)
    } catch {
      resolve({ fcp: fcp ? fcp.startTime : null, lcp: null })
    }
  })).catch(() => ({ fcp: null, lcp: null }))
}

// paintsOf's → HAR pageTimings' custom fields (-1 where not known, as HAR 1.2 writes a time it lacks).
const paintTimings = p => ({
  _firstContentfulPaint: p && p.fcp !== null ? +p.fcp.toFixed(2) : -1,
  _largestContentfulPaint: p && p.lcp !== null ? +p.lcp.toFixed(2) : -1
})

// Loads one page; → null, or a problem { failed (the page did not load at all), text }.
async function loadOne (page, recorder, url, timeoutMs) {
  const deadline = Date.now() + timeoutMs
  try {
    await page.goto(url, { waitUntil: 'load', timeout: timeoutMs })
  } catch (err) {
    if (err.name === 'TimeoutError') return { failed: false, text: `no load event within ${timeoutMs / 1000} s: recorded as far as it got` }
    return { failed: true, text: `the page did not load: ${err.message.split('\n')[0]}` }
  }
  if (!(await quiet(recorder, deadline))) return { failed: false, text: `${recorder.inFlight()} requests still in flight after ${timeoutMs / 1000} s: recorded as far as they got` }
  return null
}

// Records `urls` (https://, in order) → { har, problems: [{ url, failed, text }] }. `ca`: a CA file to
// trust too; `serverTime`: 'least' (each GET asked again alone, the smaller time kept: ./server-time.js)
// or 'page' (the page's alone); `log`: progress.
async function recordSite ({ urls, timeoutMs = 60000, ca = null, serverTime = 'least', log = () => {} }) {
  const caPem = await checkedCa(urls, ca, log)
  const b = await launchBrowser({ ca: caPem, netBenchmarking: false, protocolArgs: ['--enable-quic'] })
  const problems = []
  try {
    const browser = browserOf(chromiumVersion(b.executablePath))
    log(`recording in ${browser.name} ${browser.version} (headless, cache off)`)
    const page = (await b.context.pages())[0] || await b.context.newPage()
    const cdp = await page.createCDPSession()
    const recorder = await recordCdp(cdp, { record: true })
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true })
    await cdp.send('Network.setBypassServiceWorker', { bypass: true })
    const recordedAt = Date.now()
    const paints = new Map() // page id → its paints (paintsOf)
    for (const [i, url] of urls.entries()) {
      log(`page ${i + 1}/${urls.length}: ${url}`)
      const before = recorder.events.length
      recorder.startPage(`page_${i + 1}`, url)
      const problem = await loadOne(page, recorder, url, timeoutMs)
      const requests = recorder.events.slice(before).filter(e => e.method === 'Network.requestWillBeSent').length
      log(`  ${requests} requests${problem ? `; ${problem.text}` : ''}`)
      if (problem) problems.push({ url, ...problem })
      if (!problem || !problem.failed) paints.set(`page_${i + 1}`, await paintsOf(page))
    }
    await recorder.settled()
    for (const o of recorder.snapshot().origins) {
      if (o.rttMs !== null || !o.address) continue
      try {
        const times = await connectTimes(o.address, o.port, PROBE_CONNECTS)
        const rttMs = +Math.min(...times).toFixed(3)
        recorder.addEvent(ROUND_TRIP, { origin: o.origin, rttMs, from: 'tcp-connect' })
        log(`  ${o.origin}: no connect timings from the browser; round trip ${rttMs} ms (the shortest of ${PROBE_CONNECTS} TCP connects to ${o.address}:${o.port} from here)`)
      } catch (err) {
        log(`  ${o.origin}: no round trip known (the browser showed no connect, and ${o.address}:${o.port} refused one from here: ${err.message}); its entries' serverTimeMs is null`)
      }
    }
    const { pages, entries, origins } = recorder.stop()
    for (const p of pages) Object.assign(p.pageTimings, paintTimings(paints.get(p.id)))
    if (!entries.length) throw new UserError(`nothing was recorded (${problems.map(p => `${p.url}: ${p.text}`).join('; ') || 'no request was made'})`, { code: 'H2B_RECORD_EMPTY' })
    const har = buildHar({ browser, pages, entries, h2bench: logFields({ browser, recordedAt, origins }) })
    const { failed } = failuresOf(entries)
    if (failed.length) {
      const named = failedOrigins(failed).map(o => `${new URL(o.origin).host} ${o.failed} (${o.errors.join(', ')})`).join('; ')
      problems.push({ url: urls[0], failed: false, text: `${failed.length} of ${entries.length} requests failed below HTTP (${named}): the recording lacks their responses, and replay refuses it unless --allow-failed expects them` })
    }
    if (serverTime === 'least') await timeServersAlone(har, { log })
    return { har, problems }
  } finally {
    await b.close().catch(() => {})
  }
}

module.exports = { recordSite, browserOf, QUIET_MS }

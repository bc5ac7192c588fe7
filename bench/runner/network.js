'use strict'

// The lanes and the browser one network of a run measures through: started
// for its first cell, closed after its last.
const { launchBrowser } = require('../../harness/chromium')
const { launchFirefox } = require('../../harness/firefox')
const { startLanes, startLanesBehindLink, useRemoteLanes } = require('../../harness/start-lanes')
const { remoteLine } = require('../../harness/remote-lanes')
const { chromiumVersion } = require('../../harness/provenance')
const { costMeter } = require('../../harness/cell-costs')

// The lanes and the browser for one kind of network: on loopback with
// DevTools throttling per cell, or behind a packet-level link whose preset
// changes per cell (the browser inside the link's namespace).
// `firstSpec`: the link of the first cell. The link opens with it, so the page
// and the connections it opens to the lanes while it loads start on that link:
// opened unimpaired and changed by the first cell, the HTTP/2 lanes' single
// connections had been made with no delay and no rate limit, and behind the
// changed link they overflowed its queue (82 drops in a 500-item rest run that
// had none when the link opened with its spec) and carried a 290 KB compound
// document at 0.6-0.9 s instead of 0.12 s (Resource Timing; Chromium).
async function openNetwork (network, { opts, needsBrowser, browser = 'chromium', log, firstSpec = 'none' }) {
  let running, tls, link = null, remote = null, pageQuery = ''
  if (opts.lanesAt) {
    // Lanes on another machine (--lanes-at): a page server here lists them; DevTools' throttling on top of the real path.
    const r = await useRemoteLanes({ at: opts.lanesAt, token: opts.token, names: opts.lanes })
    ;({ running, tls, remote } = r)
    if (r.token) pageQuery = `?token=${encodeURIComponent(r.token)}` // the page passes it on to the lanes' internals (client/js/request.js)
    log(remoteLine(remote))
  } else if (network === 'link') {
    link = await startLanesBehindLink(opts.lanes, firstSpec)
    running = link.running
    tls = link.tls
  } else {
    ({ running, tls } = await startLanes(opts.lanes))
  }
  const env = { running, tls, link, remote, browser: null, page: null, cdp: null, browserName: null, userAgent: null, browserId: browser }
  const close = async () => {
    if (env.browser) await env.browser.close()
    if (link) await link.close()
    else await running.close()
  }
  try {
    if (needsBrowser && browser === 'firefox') {
      // Firefox learns the h3 lane from its Alt-Svc before the first cell (harness/firefox.js: its testing pref would map
      // every lane of the host to HTTP/3).
      env.browser = await launchFirefox({ ca: tls.ca, link: link && link.opened, lanes: running.lanes })
      env.browserName = env.browser.version
      env.page = env.browser.page
      env.page.on('pageerror', err => log(`  page error: ${err.message}`))
      await env.page.goto(`${running.page.url}/`)
      await waitForH2bench(env.page, running.page.url)
      env.userAgent = await env.page.evaluate(() => navigator.userAgent)
    } else if (needsBrowser) {
      // Without puppeteer's Network domain (it reported every request and body chunk to us: 1.4–1.5× the browser's CPU
      // for 100 × 100 KB, docs/page-cost.md); the cells' net errors come from the console (harness/net-errors.js).
      env.browser = await launchBrowser({ spki: tls.spki, link: link && link.opened, lanes: running.lanes, handleSignals: false, network: false })
      env.browserName = chromiumVersion(env.browser.executablePath)
      env.page = await env.browser.context.newPage()
      env.page.on('pageerror', err => log(`  page error: ${err.message}`))
      await env.page.goto(`${running.page.url}/${pageQuery}`)
      await waitForH2bench(env.page, running.page.url)
      env.userAgent = await env.page.evaluate(() => navigator.userAgent)
      // The runner's own session: DevTools throttling (its Network domain on only while a cell throttles:
      // bench/cells/helpers.js applyNetwork) and the page's task time (harness/cell-costs.js).
      env.cdp = await env.page.createCDPSession()
    }
  } catch (err) {
    await close()
    throw err
  }
  // What each timed batch cost (harness/cell-costs.js): the browser's processes
  // (Chromium's by its profile, with its page's main-thread time over CDP;
  // Firefox's by its process, over BiDi no such second observer), the
  // servers, the link.
  // Remote lanes: their servers' CPU is not this machine's to read (serverCpuMs null).
  const shared = { edgePids: () => running.edge ? [running.edge.pid] : [], link, clientNetPid: link ? link.opened.pid : null, localServers: !remote }
  env.meter = env.cdp ? costMeter({ ...shared, browserDir: env.browser.userDataDir, cdp: env.cdp })
    : env.browser && browser === 'firefox' && env.browser.pid ? costMeter({ ...shared, browserPid: env.browser.pid })
      : null
  return { ...env, close }
}

// Waits until the page's window.h2bench is there (Chromium over CDP and Firefox over BiDi, both puppeteer pages).
async function waitForH2bench (page, url, timeoutMs = 30000) {
  try {
    await page.waitForFunction(() => Boolean(window.h2bench && typeof window.h2bench.run === 'function' && window.h2bench.rest), { timeout: timeoutMs, polling: 100 })
  } catch (err) {
    if (err.name !== 'TimeoutError') throw err
    throw new Error(`the h2bench page at ${url}/ has no window.h2bench.run (is client/js/bench.js there?)`, { cause: err })
  }
}

module.exports = { openNetwork, waitForH2bench }

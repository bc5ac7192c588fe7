'use strict'

// The site experiment's browser (bench/cells/site-url.js): Chromium or Firefox
// with one protocol forced (harness/force-protocol.js), behind the link when
// there is one, metered (harness/cell-costs.js), a HAR recorder per load
// (harness/har/), and the connections a load opened by the best observer
// each browser gives.
const { launchBrowser } = require('../../harness/chromium/headless')
const { launchFirefox } = require('../../harness/firefox')
const { chromiumProtocolArgs, firefoxProtocolPrefs } = require('../../harness/force-protocol')
const { costMeter } = require('../../harness/cell-costs')
const { chromiumVersion } = require('../../harness/provenance')
const { recordCdp } = require('../../harness/har/cdp-har')
const { recordBidi } = require('../../harness/har/bidi-har')
const { buildHar } = require('../../harness/har/har')

// A browser of `kind` ('chromium', 'firefox') with `protocol` forced for `url`, behind `link` when there is one
// (openLink's: the browser in its client namespace): → { page, meter, har, close, version }; har.start(id, title)
// begins a load's HAR (a recorder of its own), har.stop() ends it and returns the HAR log. `trust`: { caFile } or
// { ca } (PEM; harness/site-trust.js trustSite's caPem too): that CA trusted by either browser for every origin it
// signed, in the browser's throw-away NSS database (harness/nss-trust.js); or null (the browsers' own roots).
// `protocolArgs`: Chromium's switches instead of force-protocol's for `url` (the replay forces every recorded origin
// and adds its resolver rules); `firefoxPrefs` and `hosts` are Firefox's (the replay's: every recorded origin
// forced, every recorded name sent to its replay address: launchFirefox's hosts).
async function openSiteBrowser (kind, { protocol, url, trust = null, link = null, protocolArgs = null, firefoxPrefs = null, hosts = null }) {
  // Behind the link the meter also reads the link's counters and both sides' TCP (its drops and queues per load).
  const linkMeter = link ? { link: { control: { stats: options => link.stats(options) } }, clientNetPid: link.pid } : {}
  if (kind === 'firefox') {
    let recorder = null
    const ff = await launchFirefox({
      link,
      caFile: trust ? trust.caFile || null : null,
      ca: trust ? trust.ca || null : null,
      trustCa: Boolean(trust),
      prefs: firefoxPrefs || firefoxProtocolPrefs(protocol, url, { customCa: Boolean(trust) }),
      hosts,
      onBidiMessage: message => { if (recorder) recorder.onMessage(message) }
    })
    const browser = { name: 'Firefox', version: ff.version }
    return {
      page: ff.page,
      cdp: null, // no DevTools protocol: no trace, so no visual metrics (harness/visual/trace.js says what Firefox lacks)
      meter: costMeter({ browserPid: ff.pid, localServers: false, ...linkMeter }),
      har: harOf(browser, async (id, title) => {
        recorder = recordBidi()
        recorder.startPage(id, title)
        return recorder
      }),
      close: () => ff.close(),
      version: ff.version
    }
  }
  const b = await launchBrowser({
    ca: trust ? trust.ca || trust.caPem || trust.caFile || null : null,
    link,
    handleSignals: false,
    netBenchmarking: false,
    protocolArgs: protocolArgs || chromiumProtocolArgs(protocol, url)
  })
  try {
    const page = (await b.context.pages())[0] || await b.context.newPage()
    const cdp = await page.createCDPSession()
    const version = chromiumVersion(b.executablePath)
    const browser = { name: 'Chromium', version }
    return {
      page,
      cdp,
      meter: costMeter({ browserDir: b.userDataDir, localServers: false, cdp, ...linkMeter }),
      har: harOf(browser, async (id, title) => {
        const recorder = await recordCdp(cdp)
        recorder.startPage(id, title)
        return recorder
      }),
      close: () => b.close(),
      version
    }
  } catch (err) {
    await b.close().catch(() => {})
    throw err
  }
}

// A load's HAR: a new recorder per load (begin(id, title) → a recorder of ./harness/har), its log on stop().
function harOf (browser, begin) {
  let recorder = null
  return {
    async start (id, title) {
      recorder = await begin(id, title)
    },
    stop () {
      if (!recorder) return null
      const { pages, entries } = recorder.stop()
      recorder = null
      return buildHar({ browser, pages, entries })
    }
  }
}

// The connections a load opened, per origin, by the best observer each browser gives: Chromium's
// connection ids (CDP's connectionId, in the HAR's `connection`: every socket a response came on, a
// preconnected one too, which shows no connect timings) not seen in an earlier load of the same browser;
// Firefox's connect timings (a request whose timings show a connection set up: harness/har/har.js
// summarizeHar). `seen`: the ids of the browser's earlier loads, added to. → { by, total, origins }.
function newConnectionsOf (har, summary, seen) {
  const entries = har.log.entries
  const withIds = entries.filter(e => e.connection && e.connection !== '0')
  if (!withIds.length) {
    const origins = Object.fromEntries(Object.entries(summary.origins).map(([o, v]) => [o, v.connections]))
    return { by: 'connect timings', total: Object.values(origins).reduce((n, c) => n + c, 0), origins }
  }
  const origins = {}
  for (const e of withIds) {
    const origin = new URL(e.request.url).origin
    origins[origin] = origins[origin] || 0
    if (!seen.has(e.connection)) {
      seen.add(e.connection)
      origins[origin]++
    }
  }
  return { by: 'connection ids', total: Object.values(origins).reduce((n, c) => n + c, 0), origins }
}

module.exports = { openSiteBrowser, newConnectionsOf }

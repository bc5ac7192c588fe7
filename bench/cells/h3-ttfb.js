'use strict'

// The HTTP/3-vs-HTTP/2 study (seed 003, Cloudflare): two kinds of runner
// cell, both behind the packet-level link only; this file the first (the
// second: bench/cells/h3-hol.js).
//
// ttfb: time to the first byte of a small response on a NEW connection, per
//   lane, (a) cold: a fresh incognito browser context, so no TLS/QUIC session
//   ticket, no connection; (b) repeat visit: the same context after its
//   connections were closed (chrome://net-internals "Flush socket pools"),
//   its session cache kept, so TLS 1.3 resumes and QUIC may send its request
//   in 0-RTT. Between the two, a warm request on the connection (b) will not
//   reuse measures the time that is not round trips (server, Caddy, the
//   browser): warm TTFB − one RTT. Round trips paid = (TTFB − that) ÷ RTT.
//   Every cell runs in a browser of its own with Chromium's net-log on; the
//   log says, per connection, whether TLS resumed, whether QUIC attempted
//   0-RTT and whether the server accepted it, and how many Initial packets
//   QUIC had to retransmit.
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { applyNetwork, row, mostFrequent, repeatWithinBudget } = require('./helpers')
const { budgetNote } = require('./budget')
const { parseLinkSpec, rttMsOf } = require('../../link/spec')
const { launchBrowser } = require('../../harness/chromium')
const { parseNetLog, handshakesIn } = require('./net-log')
const { round, med } = require('./h3-figures')

const NET_INTERNALS = 'chrome://net-internals/#sockets'
const FLUSH_BUTTON = '#sockets-view-flush-button'

// The link's RTT (ms) of a spec.
function rttOf (spec) {
  return rttMsOf(parseLinkSpec(spec))
}

// One fetch of `url` from the page, with its Resource Timing entry (ms,
// relative to the entry's startTime) and the wall-clock window it ran in.
async function timedFetch (page, url) {
  const from = Date.now()
  const t = await page.evaluate(async u => {
    const res = await fetch(u, { cache: 'no-store' })
    await res.text()
    let e = null
    for (let i = 0; i < 50 && !e; i++) {
      e = performance.getEntriesByName(u).pop() || null
      if (!e) await new Promise(resolve => setTimeout(resolve, 10))
    }
    if (!e) return { status: res.status, entry: null }
    const rel = v => v > 0 ? v - e.startTime : 0
    return {
      status: res.status,
      entry: {
        protocol: e.nextHopProtocol || null,
        connectStart: rel(e.connectStart),
        secureConnectionStart: rel(e.secureConnectionStart),
        connectEnd: rel(e.connectEnd),
        requestStart: rel(e.requestStart),
        responseStart: rel(e.responseStart),
        responseEnd: rel(e.responseEnd)
      }
    }
  }, url)
  return { ...t, from, to: Date.now() }
}

// A new connection in Resource Timing: the connect phase took time (a
// reused one has connectStart = connectEnd = fetchStart).
const newConnection = e => e.connectEnd - e.connectStart > 0.5

// Closes every connection of the tab's browser context, keeping its session
// caches: net-internals' "Flush socket pools" (HTTP/1.1 and HTTP/2 sockets,
// QUIC sessions).
async function flushSockets (context) {
  const tab = await context.newPage()
  try {
    await tab.goto(NET_INTERNALS)
    await tab.locator(FLUSH_BUTTON).setTimeout(10000).click() // waits for the button, visible and enabled
  } finally {
    await tab.close()
  }
}

// A ttfb cell: for each repeat, for each lane (order reversed every other
// repeat): a fresh context, a cold fetch, a warm one, the flush, a repeat
// fetch. Rows: one per lane and mode (cold, repeat).
async function runTtfbCell ({ link, entry, laneInfo, repeats, budgetMs, log = () => {} }) {
  const { cell } = entry
  if (!link) throw new Error(`${entry.experiment.id} runs behind the packet-level link only (--network link)`)
  const network = await applyNetwork(null, cell.preset, link, cell.link)
  const rttMs = rttOf(network.linkSpec)
  const logDir = fs.mkdtempSync(path.join(os.tmpdir(), 'h2bench-netlog-'))
  const netLog = path.join(logDir, 'net-log.json')
  // A Chromium of our own (not a persistent profile: every cold sample needs a
  // fresh incognito context, and the net-log is this cell's alone), inside the
  // link's client namespace like the runner's, with the net-log on.
  const b = await launchBrowser({
    spki: link.tls.spki,
    link: link.opened,
    lanes: link.running.lanes,
    netLog,
    incognito: true,
    netBenchmarking: false,
    handleSignals: false,
    tmpPrefix: 'h2bench-h3study-'
  })
  const modes = ['cold', 'repeat']
  const per = {}
  for (const l of laneInfo) for (const m of modes) per[`${l.name} ${m}`] = { samples: [], fetches: [], failures: 0, notes: [] }
  const pageUrl = `${link.running.page.url}/h3-study`
  const sampleLane = async (context, lane, r) => {
    const page = await context.newPage()
    // A document on the page server's origin (a JSON 404 will do): the
    // fetches are cross-origin, as the h2bench page's are.
    await page.goto(pageUrl).catch(() => {})
    const url = tag => `${lane.url}/option?size=0&h3study=${tag}-${r}-${Date.now().toString(36)}`
    const cold = await timedFetch(page, url('cold'))
    const warm = await timedFetch(page, url('warm'))
    await flushSockets(context)
    const again = await timedFetch(page, url('repeat'))
    const serverMs = warm.entry && !newConnection(warm.entry) ? warm.entry.responseStart - warm.entry.requestStart - rttMs : null
    for (const [mode, f] of [['cold', cold], ['repeat', again]]) {
      const p = per[`${lane.name} ${mode}`]
      if (f.status !== 200 || !f.entry) {
        p.failures++
        p.notes.push(`status ${f.status}${f.entry ? '' : ', no Resource Timing entry'}`)
        continue
      }
      p.samples.push(f.entry.responseStart)
      p.fetches.push({ ...f, serverMs, warmReused: Boolean(warm.entry && !newConnection(warm.entry)) })
    }
  }
  let budget
  try {
    budget = await repeatWithinBudget({ repeats, budgetMs, log }, async r => {
      const order = r % 2 ? [...laneInfo].reverse() : laneInfo
      for (const lane of order) {
        const context = await b.browser.createBrowserContext()
        try {
          await sampleLane(context, lane, r)
        } catch (err) {
          // A fetch the browser failed (a reset, a timeout): both modes of this repeat are lost.
          for (const m of modes) {
            per[`${lane.name} ${m}`].failures++
            per[`${lane.name} ${m}`].notes.push(`failed: ${err.message.split('\n')[0]}`)
          }
        } finally {
          await context.close()
        }
      }
    })
  } finally {
    await b.close()
  }
  let handshakes = []
  let logNote = null
  try {
    handshakes = parseNetLog(netLog)
  } catch (err) {
    logNote = `net-log unreadable: ${err.message}`
  }
  fs.rmSync(logDir, { recursive: true, force: true })
  const note = budgetNote(repeats, budget.planned, budget.firstMs, budgetMs)
  const rows = []
  for (const lane of laneInfo) {
    const port = Number(new URL(lane.url).port)
    for (const mode of modes) {
      const p = per[`${lane.name} ${mode}`]
      const seen = p.fetches.map(f => handshakesIn(handshakes, port, f.from, f.to))
      const counted = seen.filter(h => h.length)
      const server = p.fetches.map(f => f.serverMs).filter(v => v !== null)
      const serverMs = med(server)
      // From the start of the connection: time the browser spent before it began to connect (queueing in
      // a busy browser) is no round trip; it is kept apart as preConnectMs. The server's part taken away is the least
      // any warm request of the row showed (serverFloorMs): a sample's own is unknown, and its warm neighbour's, one
      // other request, can be far longer on a loaded machine (172 ms once, which left -1.45 round trips: a count
      // below physics, so the instrument was wrong, not the link); what is left over the floor is the machine's.
      const serverFloorMs = server.length ? Math.min(...server) : null
      const tripsOf = list => list.filter(f => f.serverMs !== null).map(f => (f.entry.responseStart - f.entry.connectStart - serverFloorMs) / rttMs)
      const trips = tripsOf(p.fetches)
      // The samples whose connection needed no retransmitted QUIC Initial (quic-go #3760: a server of
      // Caddy 2.6's vintage may drop the second packet of a ClientHello split over two): the protocol's own count.
      const clean = tripsOf(p.fetches.filter((f, i) => seen[i].length && !seen[i].some(h => h.initialRetransmits > 0)))
      rows.push(row({
        entry,
        lane: lane.name,
        mode,
        samples: p.samples,
        failures: p.failures,
        protocol: mostFrequent(p.fetches.map(f => f.entry.protocol).filter(Boolean)),
        asked: repeats,
        note: [note, logNote, ...new Set(p.notes)].filter(Boolean).join('; ') || null,
        extra: {
          ...network,
          ttfb: {
            rttMs,
            serverMs: round(serverMs),
            serverFloorMs: round(serverFloorMs),
            roundTrips: round(med(trips)),
            roundTripSamples: trips.map(v => round(v)),
            roundTripsClean: round(med(clean)),
            cleanSamples: clean.length,
            connectMs: round(med(p.fetches.map(f => f.entry.connectEnd - f.entry.connectStart))),
            preConnectMs: round(med(p.fetches.map(f => f.entry.connectStart))),
            requestBeforeConnectEnd: p.fetches.filter(f => f.entry.requestStart + 0.5 < f.entry.connectEnd).length,
            newConnections: p.fetches.filter(f => newConnection(f.entry)).length,
            warmReused: p.fetches.filter(f => f.warmReused).length,
            handshakes: counted.length,
            resumed: counted.filter(h => h.some(x => x.resumed)).length,
            zeroRttAttempted: counted.filter(h => h.some(x => x.zeroRttState && !/NotAttempted/.test(x.zeroRttState))).length,
            zeroRtt: counted.filter(h => h.some(x => x.zeroRtt)).length,
            initialRetransmits: counted.filter(h => h.some(x => x.initialRetransmits > 0)).length
          }
        }
      }))
    }
  }
  return rows
}

module.exports = { runTtfbCell, rttOf, flushSockets }

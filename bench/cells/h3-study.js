'use strict'

// The HTTP/3-vs-HTTP/2 study (seed 003, Cloudflare): two kinds of runner
// cell, both behind the packet-level link only.
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
//
// hol: head-of-line blocking: one window.h2bench.run batch (the Run
//   button's code path) of many parallel requests over one connection, under
//   loss; the row keeps the batch time and the spread of the requests'
//   completion times within each batch (p10, p50, p90).
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const stats = require('../../client/js/stats')
const { applyNetwork, row, mostFrequent, repeatWithinBudget } = require('./helpers')
const { budgetNote } = require('../runner/budget')
const { parseLinkSpec } = require('../../link/spec')

const NET_INTERNALS = 'chrome://net-internals/#sockets'
const FLUSH_BUTTON = '#sockets-view-flush-button'
const round = (v, d = 2) => v === null || v === undefined || Number.isNaN(v) ? null : +v.toFixed(d)
const med = list => list.length ? stats.median(list) : null

// The link's RTT (ms) of a spec.
function rttOf (spec) {
  const link = parseLinkSpec(spec)
  return (link.up.delayUs + link.down.delayUs) / 1000
}

// A Chromium of our own (not a persistent profile: every cold sample needs a
// fresh incognito context, which only a launched browser gives), inside the
// link's client namespace like bench/browser.js's, with the net-log on.
async function launchStudyBrowser ({ spki, link, lanes, netLog }) {
  const { chromium } = require('playwright-core')
  const { chromiumLaunch } = require('../../harness/chromium')
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'h2bench-h3study-'))
  const launch = chromiumLaunch({ spki, link, lanes, dir, extra: netLog ? [`--log-net-log=${netLog}`, '--net-log-capture-mode=Default'] : [] })
  const browser = await chromium.launch({
    executablePath: launch.launchPath,
    headless: true,
    handleSIGINT: false,
    handleSIGTERM: false,
    handleSIGHUP: false,
    args: launch.args
  })
  return {
    browser,
    dir,
    async close () {
      await browser.close()
      fs.rmSync(dir, { recursive: true, force: true })
    }
  }
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
    await tab.click(FLUSH_BUTTON, { timeout: 10000 })
  } finally {
    await tab.close()
  }
}

// What Chromium's net-log says about the connections to `port` opened in
// [from, to] (wall clock, ms): [{ kind: 'tls'|'quic', at, resumed, zeroRtt,
// initialRetransmits, protocol }].
function handshakesIn (log, port, from, to) {
  return log.filter(h => h.port === port && h.at >= from - 5 && h.at <= to + 5)
}

// The net-log file → every TLS handshake over TCP and every QUIC session,
// with their port and wall-clock start.
function parseNetLog (file) {
  let json
  try {
    json = JSON.parse(fs.readFileSync(file, 'utf8'))
  } catch {
    // Chromium may leave the closing brackets off when it dies; the events are there.
    const text = fs.readFileSync(file, 'utf8').replace(/,?\s*$/, '')
    json = JSON.parse(text.endsWith(']}') ? text : `${text}]}`)
  }
  const c = json.constants
  const type = Object.fromEntries(Object.entries(c.logEventTypes).map(([k, v]) => [v, k]))
  const source = Object.fromEntries(Object.entries(c.logSourceType).map(([k, v]) => [v, k]))
  const BEGIN = c.logEventPhase.PHASE_BEGIN
  const END = c.logEventPhase.PHASE_END
  const offset = Number(c.timeTickOffset)
  const sockets = new Map()
  const quic = new Map()
  for (const e of json.events) {
    const kind = source[e.source.type]
    const t = type[e.type]
    const at = Number(e.time) + offset
    const id = e.source.id
    if (kind === 'SOCKET') {
      const s = sockets.get(id) || { kind: 'tls', port: null, at: null, resumed: null, zeroRtt: null, initialRetransmits: 0, protocol: null }
      if (t === 'TCP_CONNECT' && e.phase === BEGIN && s.at === null) s.at = at
      if (t === 'TCP_CONNECT' && e.phase === END && e.params && e.params.remote_address) s.port = Number(e.params.remote_address.split(':').pop())
      if (t === 'SSL_CONNECT' && e.phase === END && e.params && 'is_resumed' in e.params) {
        s.resumed = e.params.is_resumed
        s.protocol = e.params.next_proto || null
        s.version = e.params.version || null
        s.zeroRtt = false // Chromium sends no TLS early data over TCP unless a feature enables it
      }
      sockets.set(id, s)
    } else if (kind === 'QUIC_SESSION') {
      const s = quic.get(id) || { kind: 'quic', port: null, at: null, resumed: false, zeroRtt: null, zeroRttState: null, initialRetransmits: 0, protocol: 'h3' }
      if (t === 'QUIC_SESSION' && e.phase === BEGIN) {
        s.at = at
        s.port = e.params ? Number(e.params.port) : null
      }
      if (t === 'QUIC_SESSION_TRANSPORT_PARAMETERS_RESUMED') s.resumed = true
      if (t === 'QUIC_SESSION_ZERO_RTT_STATE' && e.params) {
        s.zeroRttState = e.params.state
        s.zeroRtt = /Succeeded/.test(e.params.state)
        if (/Attempted/.test(e.params.state) && !/Not/.test(e.params.state)) s.resumed = true
      }
      if (t === 'QUIC_SESSION_PACKET_SENT' && e.params && e.params.encryption_level === 'ENCRYPTION_INITIAL' && e.params.transmission_type !== 'NOT_RETRANSMISSION') s.initialRetransmits++
      quic.set(id, s)
    }
  }
  return [...sockets.values(), ...quic.values()].filter(h => h.port !== null && h.at !== null && (h.kind === 'quic' || h.resumed !== null))
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
  const b = await launchStudyBrowser({ spki: link.tls.spki, link: link.opened, lanes: link.running.lanes, netLog })
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
        const context = await b.browser.newContext()
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
      // a busy browser) is no round trip; it is kept apart as preConnectMs.
      const tripsOf = list => list.filter(f => f.serverMs !== null).map(f => (f.entry.responseStart - f.entry.connectStart - f.serverMs) / rttMs)
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

// Per batch, the completion times (ms from the batch's start) of its
// requests that succeeded, from window.h2bench.run's result.
function runHolBatch (page, options) {
  return page.evaluate(o => window.h2bench.run(o).then(r => r.lanes.map(l => ({
    lane: l.lane,
    protocol: l.protocol,
    protocolOk: l.protocolOk,
    samples: l.samples,
    leftOut: l.leftOut || 0,
    failures: l.failures,
    unreachable: l.unreachable ? (l.unreachable.error || `status ${l.unreachable.status}`) : null,
    batches: (l.batches || []).filter(b => b.state === 'done').map(b => ({
      elapsed: b.elapsed,
      failed: b.failed,
      ends: b.requests.filter(q => !q.error && q.status === 200).map(q => q.end)
    }))
  }))), options)
}

// A hol cell: window.h2bench.run, one batch per lane per repeat, lanes
// alternating, through a link with the cell's loss.
async function runHolCell ({ page, cdp, link, entry, lanes, laneInfo = [], repeats, budgetMs, log = () => {} }) {
  const { cell } = entry
  if (!link) throw new Error(`${entry.experiment.id} runs behind the packet-level link only (--network link)`)
  const network = await applyNetwork(cdp, cell.preset, link, cell.link)
  const per = Object.fromEntries(lanes.map(l => [l, { samples: [], batches: [], failures: 0, leftOut: 0, protocols: [], notes: [] }]))
  const { planned, firstMs } = await repeatWithinBudget({ repeats, budgetMs, log }, async r => {
    const order = r % 2 ? [...lanes].reverse() : lanes
    const result = await runHolBatch(page, { requests: cell.requests, size: cell.size, delay: cell.delay || 0, repeats: 1, lanes: order })
    for (const l of result) {
      const p = per[l.lane]
      p.samples.push(...l.samples)
      p.failures += l.failures
      p.leftOut += l.leftOut
      if (l.protocol) p.protocols.push(l.protocol)
      if (l.unreachable) p.notes.push(`unreachable: ${l.unreachable}`)
      for (const b of l.batches) if (!b.failed) p.batches.push(b)
    }
  })
  const note = budgetNote(repeats, planned, firstMs, budgetMs)
  const linkSpec = parseLinkSpec(network.linkSpec)
  // The TCP lanes' congestion control (this namespace's default: no cell sets one here), read off
  // the server's sockets of the batches' connections, still open: ss -ti.
  const { socketsCongestion } = require('./congestion')
  const { tally } = require('./site-page')
  const ccSeen = {}
  for (const l of laneInfo) {
    ccSeen[l.name] = l.protocol === 'h3' ? 'QUIC: quic-go (Caddy), CUBIC' : tally(await socketsCongestion(l.port).catch(() => []))
  }
  return lanes.map(lane => {
    const p = per[lane]
    const q = k => p.batches.map(b => stats.quantile(b.ends, k))
    const p10 = q(0.1)
    const p50 = q(0.5)
    const p90 = q(0.9)
    const spread = p.batches.map((b, i) => p90[i] - p10[i])
    return row({
      entry,
      lane,
      samples: p.samples,
      failures: p.failures,
      protocol: mostFrequent(p.protocols),
      asked: repeats,
      note: [note, p.leftOut ? `${p.leftOut} of ${planned} batches had failed requests and are not samples` : null, ...new Set(p.notes)].filter(Boolean).join('; ') || null,
      extra: {
        ...network,
        ccSeen: ccSeen[lane] || null,
        hol: {
          lossPct: round(linkSpec.down.loss * 100, 3),
          rttMs: (linkSpec.up.delayUs + linkSpec.down.delayUs) / 1000,
          batches: p.batches.length,
          p10: round(med(p10)),
          p50: round(med(p50)),
          p90: round(med(p90)),
          spreadMs: round(med(spread)),
          firstMs: round(med(p.batches.map(b => Math.min(...b.ends))))
        }
      }
    })
  })
}

module.exports = { runTtfbCell, runHolCell, parseNetLog, launchStudyBrowser, rttOf, flushSockets }

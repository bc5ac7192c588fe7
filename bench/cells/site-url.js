'use strict'

// Cells of kind `site-url` (experiment site): a page the user names, loaded
// in Chromium or Firefox with one protocol forced per run
// (harness/force-protocol.js). Per repeat and protocol (protocols in
// alternating order) a new browser in a new profile:
//  - cold: the first load (empty cache, no connection, no TLS session);
//  - repeat: the same browser at once loads it again (about:blank between):
//    its cache, TLS sessions and the connections it kept open warm, as a
//    visitor's second view. (WebPageTest's repeat view restarts the browser
//    first; here the HAR counts the connections each load opened.)
// A sample is onload (loadEventEnd); TTFB, FCP, LCP and the HAR's requests,
// bytes, connections and protocols are kept per load. A load counts when the
// document answered 2xx/3xx over the forced protocol; the rest are failures
// named in the row's note. The browser, its meter and its HARs: site-browser.js;
// one load: site-load.js. The round trip to the origin is measured by TCP
// connects, and each row's time to first byte is held to the round trips a
// new connection cannot avoid (3 for TCP + TLS 1.3, 2 for QUIC, 1 on a
// connection kept open, none for a document from the cache). With the cell's
// link (--link) the browser sits behind it and the origin is reached by NAT
// (harness/site-nat.js). The replay experiment (bench/cells/replay.js) measures its loads
// with measureLoad and makes its rows with siteRow.
const fs = require('node:fs')
const path = require('node:path')
const stats = require('../../shared/stats')
const { WIRE_NAMES, PROTOCOL_NAMES } = require('../../harness/force-protocol')
const { connectTimes, connectOverheadMs } = require('../../harness/remote-lanes')
const { trustSite, trustLine } = require('../../harness/site-trust')
const { summarizeHar } = require('../../harness/har/har')
const { openSiteBrowser, newConnectionsOf } = require('./site-browser')
const { row, repeatWithinBudget, mostFrequent, seedOf } = require('./helpers')
const { startTrace } = require('../../harness/visual/trace')
const { visualMetrics } = require('../../harness/visual/speed-index')
const { writeFilmstrip } = require('../../harness/visual/filmstrip')
const { loadPage } = require('./site-load')
const { budgetNote } = require('./budget')
const { sumCosts } = require('../../harness/cell-costs')
const { tally } = require('./site-page')
const { openLink, LinkUnavailableError } = require('../../link/namespace')
const { parseLinkSpec, rttMsOf } = require('../../link/spec')
const { forwarderCommands } = require('../../link/forwarder-commands')
const { natUnavailableReason, natThroughLink } = require('../../harness/site-nat')
const { UserError } = require('../../common/errors')
const { failuresOf, failuresProblem, failedOrigins, allowList, FIRST_NAMED } = require('../../common/failed-requests')

const VIEWS = ['cold', 'repeat']
// Round trips before the first byte of the document that no load can avoid: TCP's handshake, TLS 1.3's, the
// request; QUIC's handshake carries TLS's; a repeat view may find its connection open (one: the request),
// or its document in the cache (none: roundsOf).
const ROUNDS = { cold: { h1: 3, h2: 3, h3: 2 }, repeat: { h1: 1, h2: 1, h3: 1 } }
const roundsOf = (view, protocol, documentFromCache) => documentFromCache ? 0 : ROUNDS[view][protocol]

// How finely each browser's Navigation Timing reads time in a page that is not cross-origin isolated: Chromium
// coarsens to 100 µs, Firefox to 1 ms (privacy.reduceTimerPrecision, jittered within the step). A time to first byte
// is the difference of two such readings (responseStart − startTime), so it can read up to a step below the truth
// (two in Firefox, whose jitter moves each reading's edge).
const TIMER_MARGIN_MS = { chromium: 0.1, firefox: 2 }

// The lower bound of a time to first byte of `rounds` round trips over `rtt` (roundTripOf's, with the link's part
// added), read by `browser`: each round trip at least the link's (its delays less their jitter: the forwarder never
// sends early) plus the path's, the path's being its shortest TCP connect less what such a connect costs with no path
// at all (rtt.overheadMs: harness/remote-lanes.js connectOverheadMs; a connect times the handshake and this event
// loop's turn, which no round trip of the browser's pays), less the browser's timer margin. A bound tighter than its
// instrument flags good loads (issue 42: 300.9 ms against 3 × 100.688 ms behind rtt=100ms). → { boundMs, perRoundMs,
// marginMs (what the bound gives up against rounds × rtt.minMs) } or null without a round trip.
function ttfbBound (rounds, rtt, browser) {
  if (!rtt) return null
  const pathMs = Math.max(0, (rtt.pathMinMs ?? rtt.minMs) - (rtt.overheadMs || 0))
  const perRoundMs = (rtt.linkMs || 0) + pathMs
  const boundMs = Math.max(0, rounds * perRoundMs - (rounds ? TIMER_MARGIN_MS[browser] ?? TIMER_MARGIN_MS.firefox : 0))
  return { boundMs: +boundMs.toFixed(3), perRoundMs: +perRoundMs.toFixed(3), marginMs: +(rounds * rtt.minMs - boundMs).toFixed(3) }
}

const median = xs => xs.length ? +stats.median(xs).toFixed(1) : null

// What is wrong with a load, or null: the document's status or protocol, no load event, or (`record`, the load's
// record) a request that failed below HTTP and no --allow-failed pattern expected (common/failed-requests.js): a
// load that lost part of its page is not the page's load.
function problemOf (load, protocol, record = null) {
  if (!load.status || load.status >= 400) return `the document answered status ${load.status}`
  if (load.protocol !== WIRE_NAMES[protocol]) return `the document came over ${load.protocol || 'an unknown protocol'}, not ${WIRE_NAMES[protocol]} (the server does not offer ${PROTOCOL_NAMES[protocol]}, or the browser fell back)`
  if (!(load.onload > 0)) return 'no load event'
  if (record && record.failures && record.failures.failed) return failuresProblem(record.failures.first, record.requests, record.failures.failed)
  return null
}

// The shortest TCP connect to the origin (ms), the lower bound's round trip; null when none connects.
async function roundTripOf (url, log) {
  const u = new URL(url)
  try {
    const times = await connectTimes(u.hostname.replace(/^\[|\]$/g, ''), Number(u.port || 443))
    const overheadMs = await connectOverheadMs()
    return { minMs: +Math.min(...times).toFixed(3), medianMs: +stats.median(times).toFixed(3), samples: times.map(t => +t.toFixed(3)), overheadMs }
  } catch (err) {
    log(`  no TCP connect to ${u.host} (${err.message}): no lower bound for time to first byte`)
    return null
  }
}

// Before any browser starts: every page's origin answers a TCP connect (h1 and h2 need one; a run of h3
// alone is let through, QUIC being UDP), so a mistyped host or port costs one line, not a run of failed
// loads. UserError naming the URL and what went wrong.
async function checkSites (cells) {
  for (const cell of cells) {
    if (!cell.protocols.some(p => p !== 'h3')) continue
    const u = new URL(cell.url)
    try {
      await connectTimes(u.hostname.replace(/^\[|\]$/g, ''), Number(u.port || 443), 1)
    } catch (err) {
      const why = { ENOTFOUND: 'no such host', EAI_AGAIN: 'its name did not resolve', ECONNREFUSED: 'nothing listens there', EHOSTUNREACH: 'no route to it', ENETUNREACH: 'no route to it' }[err.code] || err.message
      throw new UserError(`--url ${cell.url}: cannot reach ${u.host} over TCP (${why}); check the address, or measure HTTP/3 alone with --protocols h3`, { status: 400, code: 'H2B_SITE_UNREACHABLE' })
    }
  }
}

// With the cell's link (`npm run bench -- site --link spec`): the link opened, the browser behind it, the
// origin reached by NAT (harness/site-nat.js); → { opened, spec, natted } or null.
async function openSiteLink (cell, seeding, log) {
  if (!cell.link) return null
  const why = natUnavailableReason()
  if (why) throw new LinkUnavailableError(why)
  const spec = parseLinkSpec(cell.link, { traces: false })
  const opened = await openLink(forwarderCommands(spec), { seed: seeding ? seeding.seed : undefined })
  try {
    const natted = await natThroughLink(opened)
    log(`  behind the link ${spec.description}: ${new URL(cell.url).host} reached by NAT from the link's namespace (slirp4netns, user-mode networking; this machine's interfaces untouched), TCP through a Linux splice (port ${natted.splice.port})`)
    return { opened, spec, natted }
  } catch (err) {
    await opened.close()
    throw err
  }
}

async function runSiteUrlCell ({ entry, repeats, budgetMs, log = () => {}, browser = 'chromium', outDir = null, seeding = null }) {
  const { cell } = entry
  const url = cell.url
  // --ca: the CA trusted by the browser for every origin (openSiteBrowser), the page origin's leaf checked first.
  const trust = cell.ca ? await trustSite(url, cell.ca) : null
  if (trust) log(`  ${trustLine(cell.ca, trust.caPem, [trust])}`)
  const path0 = await roundTripOf(url, log)
  const link = await openSiteLink(cell, seeding, log)
  try {
    return await measureSite({ entry, cell, url, trust, path0, link, repeats, budgetMs, log, browser, outDir, seeding })
  } finally {
    if (link) {
      if (link.natted) await link.natted.close()
      await link.opened.close()
    }
  }
}

async function measureSite ({ entry, cell, url, trust, path0, link, repeats, budgetMs, log, browser, outDir, seeding }) {
  // The shortest round trip a load can meet: the path's (TCP connects from here) and, behind a link, the link's own
  // (its delays less their jitter, both ways: bench/report/runner/bounds.js networkNumbers).
  const linkRttMs = link ? rttMsOf(link.spec, { min: true }) : 0
  const rtt = path0 ? { ...path0, minMs: +(path0.minMs + linkRttMs).toFixed(3), pathMinMs: path0.minMs, linkMs: linkRttMs } : null
  if (rtt) log(`  round trip to ${new URL(url).host}: ${rtt.minMs} ms at least (TCP connects from here, median ${path0.medianMs} ms${link ? `, plus the link's ${linkRttMs} ms` : ''}; a connect with no path costs ${rtt.overheadMs} ms here)`)
  const harDir = outDir ? path.join(outDir, 'har') : null
  if (harDir) fs.mkdirSync(harDir, { recursive: true })
  const key = (protocol, view) => `${protocol} ${view}`
  const per = new Map(cell.protocols.flatMap(p => VIEWS.map(v => [key(p, v), { samples: [], loads: [], problems: [], costs: [], failures: 0 }])))
  let version = null
  const { planned, firstMs } = await repeatWithinBudget({ repeats, budgetMs, log }, async r => {
    const order = r % 2 ? [...cell.protocols].reverse() : cell.protocols
    for (const protocol of order) {
      let b
      // Every protocol of repeat r meets the link's same drops (paired, as the lanes of a repeat: helpers.js seedOf).
      const seed = link ? seedOf(seeding, r, cell.protocols.indexOf(protocol)) : null
      try {
        b = await openSiteBrowser(browser, { protocol, url, trust, link: link ? link.opened : null })
        b.connectionIds = new Set()
        version = version || b.version
      } catch (err) {
        for (const view of VIEWS) {
          const p = per.get(key(protocol, view))
          p.failures++
          p.problems.push(`the browser did not start: ${err.message.split('\n')[0]}`)
        }
        continue
      }
      try {
        await loadViews(b, {
          url, protocol, r, seed, link, harDir, outDir, visual: Boolean(cell.visual), allowFailed: cell.allowFailed || [],
          tally: view => per.get(key(protocol, view)),
          nameOf: view => `page${entry.index + 1}-${browser}-${protocol}-r${r + 1}-${view}`,
          titleOf: view => `${url} (${PROTOCOL_NAMES[protocol]} forced, ${view})`
        })
      } finally {
        await b.close().catch(() => {})
      }
    }
  })
  const note = budgetNote(repeats, planned, firstMs, budgetMs)
  return cell.protocols.flatMap(protocol => VIEWS.map(view => siteRow({
    entry, protocol, view, p: per.get(key(protocol, view)), rtt, link, repeats, note, browser, version, url
  })))
}

// The cold load and the repeat view of one browser `b` for `url` (forced `protocol`: measureLoad's), into the
// tallies `tally(view)` ({ samples, loads, problems, costs, failures }): each load's record with its repeat (1-based),
// the link's seed (null without a link) and `extra(state)`'s fields, `state` being what `before()` gave just before
// the load (the replay's counters), and its problem; a repeat view only after a good cold load. `nameOf(view)`,
// `titleOf(view)`: its HAR's file name and title. The site and the replay experiments' loads alike.
async function loadViews (b, options) {
  const { url, protocol, r, tally, nameOf, titleOf, link = null, seed = null, harDir = null, outDir = null, visual = false, allowFailed = [] } = options
  const { before = () => null, extra = () => ({}) } = options
  let coldFailed = false
  for (const view of VIEWS) {
    const p = tally(view)
    if (view !== 'cold' && coldFailed) {
      p.failures++
      p.problems.push('no repeat view: the cold load failed')
      continue
    }
    try {
      if (seed !== null && view === 'cold') await link.opened.seed(seed)
      const state = before()
      const measured = await measureLoad(b, { url, name: nameOf(view), title: titleOf(view), view, protocol, harDir, outDir, visual, allowFailed })
      p.costs.push(measured.costs)
      const problem = problemOf(measured.load, protocol, measured.record)
      const record = { repeat: r + 1, ...measured.record, linkSeed: seed, ...extra(state), problem }
      p.loads.push(record)
      if (problem) {
        p.failures++
        p.problems.push(problem)
        coldFailed = coldFailed || view === 'cold'
      } else p.samples.push(record.onload)
    } catch (err) {
      coldFailed = coldFailed || view === 'cold'
      p.failures++
      p.problems.push(`failed: ${err.message.split('\n')[0]}`)
    }
  }
}

// One load of `url` in the browser `b` (openSiteBrowser's), `view` cold or repeat (about:blank first), forced
// `protocol` (h1, h2, h3: its rounds), its HAR written as `name`.har into harDir when there is one; metered.
// `visual` (--visual, Chromium): the load traced with screenshots (harness/visual/), its Speed Index and visual
// changes in record.visual and its filmstrip (a frame every 100 ms) written into outDir/filmstrips/`name`/; the
// trace starts before the meter and stops after it, but the screenshots it takes during the load are the
// browser's work, in the load's CPU and times (so --visual is asked, not the default).
// → { load (loadPage's, for problemOf), costs (the meter's), record (site rows' loads[], its HAR file relative to
// outDir; repeat and problem are the caller's) }. Throws when the load fails (b.har stopped).
// `allowFailed`: --allow-failed's URL patterns (record.failures: common/failed-requests.js).
async function measureLoad (b, { url, name, title, view, protocol, harDir = null, outDir = null, visual = false, allowFailed = [] }) {
  try {
    if (view !== 'cold') await b.page.goto('about:blank')
    await b.har.start(name, title)
    const trace = visual && b.cdp ? await startTrace(b.cdp) : null
    await b.meter.start()
    const load = await loadPage(b.page, url)
    const costs = await b.meter.stop()
    const seen = visual ? await visualOf(b, trace, { url, name, outDir }) : null
    const har = b.har.stop()
    const summary = summarizeHar(har)
    const failures = failuresOf(har.log.entries, allowList(allowFailed))
    const opened = newConnectionsOf(har, summary, b.connectionIds)
    let harFile = null
    if (harDir) {
      harFile = path.join(harDir, `${name}.har`)
      fs.writeFileSync(harFile, JSON.stringify(har, null, 1))
    }
    const record = {
      // A document from the cache made no request: no time to first byte (Firefox then gives one below 0, seen -2.4 ms).
      ttfb: load.documentFromCache ? null : +load.ttfb.toFixed(2),
      fcp: load.fcp === null ? null : +load.fcp.toFixed(2),
      lcp: load.lcp === null ? null : +load.lcp.toFixed(2),
      domContentLoaded: +load.domContentLoaded.toFixed(2),
      onload: +load.onload.toFixed(2),
      status: load.status,
      protocol: load.protocol,
      documentFromCache: load.documentFromCache,
      earlyHintsPreloads: load.earlyHintsPreloads,
      ttfbRounds: roundsOf(view, protocol, load.documentFromCache),
      requests: summary.requests,
      failedRequests: summary.failed,
      // Below HTTP (common/failed-requests.js): not expected (a failed load), expected by --allow-failed, given up by
      // the page; the first of the failures, and every origin that had one.
      failures: {
        failed: failures.failed.length,
        allowed: failures.allowed.length,
        aborted: failures.aborted,
        first: failures.failed.slice(0, FIRST_NAMED),
        origins: failedOrigins([...failures.failed, ...failures.allowed])
      },
      bytes: summary.bytes,
      bodyBytes: summary.bodyBytes,
      fromCache: summary.fromCache,
      newConnections: opened.total,
      connectionsBy: opened.by,
      protocols: summary.protocols,
      origins: Object.fromEntries(Object.entries(summary.origins).map(([o, v]) => [
        o,
        { requests: v.requests, protocols: v.protocols, newConnections: opened.origins[o] ?? 0 }
      ])),
      har: harFile && outDir ? path.relative(outDir, harFile) : null,
      ...(visual ? { visual: seen } : {})
    }
    return { load, costs, record }
  } catch (err) {
    b.har.stop()
    throw err
  }
}

// After a traced load: the frames that show its last content are drawn after the load event (VISUAL_SETTLE_MS),
// then the trace → { speedIndexMs, perceptualSpeedIndexMs, firstVisualChangeMs, visuallyCompleteMs,
// lastVisualChangeMs, filmstrip (its folder, relative to outDir), error (why a figure is missing) }.
const VISUAL_SETTLE_MS = 300
const FILMSTRIP_STEP_MS = 100
async function visualOf (b, trace, { url, name, outDir }) {
  if (!trace) return { error: 'no trace: Firefox has no DevTools protocol trace with screenshots (harness/visual/trace.js)' }
  await new Promise(resolve => setTimeout(resolve, VISUAL_SETTLE_MS))
  const { traceEvents } = await trace.stop()
  const v = await visualMetrics(traceEvents, { url })
  let filmstrip = null
  let frames = null
  if (!v.error && outDir) {
    const dir = path.join(outDir, 'filmstrips', name)
    const written = writeFilmstrip(dir, v.filmstrip(FILMSTRIP_STEP_MS), { label: name })
    filmstrip = path.relative(outDir, dir)
    frames = written.row.steps.map(s => ({ ms: s.ms, progress: s.progress === null || s.progress === undefined ? null : Math.round(s.progress), file: s.file }))
  }
  const at = ms => ms === null || ms === undefined ? null : +ms.toFixed(1)
  return {
    speedIndexMs: at(v.speedIndexMs),
    perceptualSpeedIndexMs: at(v.perceptualSpeedIndexMs),
    firstVisualChangeMs: at(v.firstVisualChangeMs),
    visuallyCompleteMs: at(v.visuallyCompleteMs),
    lastVisualChangeMs: at(v.lastVisualChangeMs),
    filmstrip,
    frames, // the filmstrip's: a frame every FILMSTRIP_STEP_MS ({ ms, progress (visual, %), file in filmstrip })
    error: v.error || null
  }
}

// A row's requests that failed below HTTP, over its loads (each load's record.failures) → { loads (loads with a
// failure no --allow-failed pattern expected), requests (those failures), allowed (the expected ones), aborted (given
// up by the page), origins: [{ origin, failed, errors }] of both kinds, most first }.
function failedOver (loads) {
  const of = loads.map(l => l.failures).filter(Boolean)
  const by = new Map()
  for (const f of of) {
    for (const o of f.origins) {
      const m = by.get(o.origin) || { origin: o.origin, failed: 0, errors: [] }
      m.failed += o.failed
      for (const e of o.errors) if (!m.errors.includes(e)) m.errors.push(e)
      by.set(o.origin, m)
    }
  }
  const sum = key => of.reduce((n, f) => n + f[key], 0)
  return {
    loads: of.filter(f => f.failed > 0).length,
    requests: sum('failed'),
    allowed: sum('allowed'),
    aborted: sum('aborted'),
    origins: [...by.values()].sort((a, b) => b.failed - a.failed || a.origin.localeCompare(b.origin))
  }
}

// One row: a protocol and view of the cell, over its repeats.
// `forced`: the wire protocol when the lane names a variant (the replay's h2-spdy is h2's rounds).
function siteRow ({ entry, protocol, forced = protocol, view, p, rtt, link, repeats, note, browser, version, url }) {
  const good = p.loads.filter(l => !l.problem)
  const pick = f => median(good.map(f).filter(v => v !== null && v !== undefined))
  // The median load (by onload) speaks for the row's per-origin figures.
  const sorted = good.slice().sort((a, b) => a.onload - b.onload)
  const mid = sorted.length ? sorted[(sorted.length - 1) >> 1] : null
  const protocols = {}
  for (const l of p.loads) for (const [k, n] of Object.entries(l.protocols || {})) protocols[k] = (protocols[k] || 0) + n
  // Each load against its own bound (a document from the cache has none); the row's is its loads' smallest.
  const rounds = good.length ? Math.min(...good.map(l => l.ttfbRounds)) : ROUNDS[view][forced]
  const bound = ttfbBound(rounds, rtt, browser)
  const boundMs = bound ? bound.boundMs : null
  const boundOf = l => ttfbBound(l.ttfbRounds, rtt, browser).boundMs
  const beaten = rtt ? good.filter(l => l.ttfb !== null && l.ttfb < boundOf(l)) : []
  const below = beaten.length > 0
  const problems = [...new Set(p.problems)].map(x => `${p.problems.filter(y => y === x).length}× ${x}`)
  return row({
    entry, lane: protocol, mode: view, samples: p.samples, failures: p.failures,
    protocol: mostFrequent(p.loads.map(l => l.protocol).filter(Boolean)), asked: repeats,
    note: [note, below ? `INSTRUMENT ERROR: ${beaten.length} of ${good.length} loads' time to first byte below its bound (${beaten.map(l => `${l.ttfb} ms < ${boundOf(l)} ms, ${l.ttfbRounds} × ${bound.perRoundMs} ms less ${TIMER_MARGIN_MS[browser] ?? TIMER_MARGIN_MS.firefox} ms`).join(', ')})` : null,
      good.some(l => l.documentFromCache) ? `the document came from the browser's cache in ${good.filter(l => l.documentFromCache).length} of ${good.length} loads (no request, so no time to first byte)` : null,
      ...problems].filter(Boolean).join('; ') || null,
    extra: {
      network: link ? 'link' : 'real path',
      link: link ? link.spec.description : null,
      linkSpec: link ? link.spec.text : null,
      ...(link && good.some(l => l.linkSeed !== null) ? { linkSeeds: good.map(l => l.linkSeed) } : {}),
      browser,
      browserVersion: version,
      costs: sumCosts(p.costs),
      site: {
        url,
        view,
        ttfbMedian: pick(l => l.ttfb),
        fcpMedian: pick(l => l.fcp),
        lcpMedian: pick(l => l.lcp),
        domContentLoadedMedian: pick(l => l.domContentLoaded),
        // --visual: the loads' Speed Index and visual changes (medians), and the median load's filmstrip folder.
        ...(p.loads.some(l => l.visual) ? {
          speedIndexMedian: pick(l => l.visual && l.visual.speedIndexMs),
          firstVisualChangeMedian: pick(l => l.visual && l.visual.firstVisualChangeMs),
          lastVisualChangeMedian: pick(l => l.visual && l.visual.lastVisualChangeMs),
          filmstrip: mid && mid.visual ? mid.visual.filmstrip : null,
          filmstripFrames: mid && mid.visual ? mid.visual.frames : null
        } : {}),
        requests: pick(l => l.requests),
        fromCacheMedian: pick(l => l.fromCache),
        bytes: pick(l => l.bytes),
        newConnections: pick(l => l.newConnections),
        connectionsBy: good.length ? good[0].connectionsBy : null,
        protocols: tally(Object.entries(protocols).flatMap(([k, n]) => Array(n).fill(k))),
        origins: mid
          ? Object.fromEntries(Object.entries(mid.origins).map(([o, v]) => [
              o,
              { ...v, protocols: tally(Object.entries(v.protocols || {}).flatMap(([k, n]) => Array(n).fill(k))) }
            ]))
          : null,
        rttMs: rtt ? rtt.minMs : null,
        pathRttMs: rtt ? rtt.pathMinMs : null,
        nat: link && link.natted ? `${link.natted.tap} (slirp4netns; TCP spliced)` : null, // the replay's link has no NAT
        ttfbRounds: rounds,
        ttfbBoundMs: boundMs,
        // What the bound gives up against its rounds × the shortest connect (ttfbBound): the connect's own cost and the timer's step.
        ttfbBoundMarginMs: bound ? bound.marginMs : null,
        connectOverheadMs: rtt && rtt.overheadMs !== undefined ? rtt.overheadMs : null,
        ttfbBelowBound: below,
        documentFromCache: good.filter(l => l.documentFromCache).length,
        failed: failedOver(p.loads),
        loads: p.loads
      }
    }
  })
}

module.exports = { runSiteUrlCell, checkSites, problemOf, measureLoad, loadViews, siteRow, ttfbBound, ROUNDS, VIEWS, TIMER_MARGIN_MS }

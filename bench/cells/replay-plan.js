'use strict'

// The replay experiment's plain logic (no browser, no server): a HAR read
// into the archive the replay serves (server/replay/archive.js) and the facts
// a report names it by (file, recordedAt, pages, what was assumed); the
// pages to load (each HAR page's first request); the Chromium switches
// that send the recorded names to the replay's addresses
// (--host-resolver-rules), force the protocol on every recorded origin; and
// the requests a load missed. bench/cells/replay.js runs it.
const fs = require('node:fs')
const { parseHar, HarError } = require('../../server/replay/har-check')
const { archiveFromHar } = require('../../server/replay/archive')
const { PROTOCOLS, VARIANTS, variantRefusal } = require('../../server/replay/serve')
const { summarizeHar } = require('../../harness/har/har')
const { failuresOf } = require('../../common/failed-requests')
const stats = require('../../shared/stats')

// The replay's protocols (--protocols) and the one each forces in the browser (force-protocol.js's name):
// h2-spdy is HTTP/2 served by spdy instead of node:http2; h2e is HTTP/2 over TCP from h3's own server (the same
// Caddy, configured as for h3: the browser is kept off QUIC), so h3 against h2e differs in protocol only.
const REPLAY_PROTOCOLS = PROTOCOLS
const FORCED = { h1: 'h1', h2: 'h2', 'h2-spdy': 'h2', h2e: 'h2', h3: 'h3' }
const SERVERS = { h1: 'node:https', h2: 'node:http2', 'h2-spdy': 'spdy', h2e: 'Caddy (TCP; h3\'s server) in front of node:http', h3: 'Caddy (QUIC) in front of node:http' }
const MISSES_NAMED = 5

const https = url => { try { return new URL(url).protocol === 'https:' } catch { return false } }

// The pages of a HAR, as URLs to load, in the order recorded: each page's first https entry (by startedDateTime,
// then file order), else its title when that is an https URL the HAR has an entry of; without log.pages (or
// no page found), the first https entry's. Each once.
function pagesOf (har) {
  const entries = har.log.entries
    .map((e, i) => ({ e, i, t: Date.parse(e.startedDateTime) }))
    .filter(x => https(x.e.request && x.e.request.url))
    .sort((a, b) => ((a.t - b.t) || 0) || (a.i - b.i))
  const urls = new Set(entries.map(x => x.e.request.url))
  const pages = []
  for (const page of har.log.pages || []) {
    const first = entries.find(x => x.e.pageref === page.id)
    const url = first ? first.e.request.url : https(page.title) && urls.has(page.title) ? page.title : null
    if (url && !pages.includes(url)) pages.push(url)
  }
  if (!pages.length && entries.length) pages.push(entries[0].e.request.url)
  return pages
}

// When it was recorded: the recorder's recordedAt, else the first page's (or entry's) start, else null.
function recordedAtOf (har) {
  if (har.log._h2bench && har.log._h2bench.recordedAt) return har.log._h2bench.recordedAt
  const first = (har.log.pages || [])[0] || har.log.entries[0]
  return (first && first.startedDateTime) || null
}

// Every sentence the archive says it assumed (a HAR DevTools saved), each origin's named, and the entries it left out.
function assumptionsOf (archive) {
  return [
    ...archive.assumed,
    ...archive.origins.flatMap(o => o.assumed.map(a => `${o.origin}: ${a}`)),
    ...(archive.summary.skipped.length ? [`${archive.summary.skipped.length} entries not replayed (${archive.summary.skipped.slice(0, 3).map(s => `${s.url}: ${s.why}`).join('; ')}${archive.summary.skipped.length > 3 ? '; …' : ''})`] : [])
  ]
}

// A HAR's text → { archive, recorded (recordedLoadsOf), facts: { file, recordedAt, pages, source, browser, entries, origins, assumed,
// failed } }.
// HarError (server/replay/har-check.js) naming the file and the field when it cannot be replayed.
function replayOfText (text, file) {
  const har = parseHar(text, file)
  const archive = archiveFromHar(har, { file })
  const pages = pagesOf(har)
  return {
    archive,
    recorded: recordedLoadsOf(har, pages),
    facts: {
      file,
      recordedAt: recordedAtOf(har),
      pages,
      source: archive.source,
      browser: archive.browser,
      entries: archive.summary.served,
      origins: archive.origins.map(o => o.origin),
      assumed: assumptionsOf(archive),
      // The recorded requests that failed below HTTP (common/failed-requests.js): the replay refuses them unless
      // --allow-failed expects each (bench/runner/run-args.js), and the fidelity table counts them.
      failed: failuresOf(har.log.entries).failed
    }
  }
}

// The HAR file → replayOfText's (a file it cannot read: a HarError too, as readArchive says it).
function readReplay (file) {
  let text
  try {
    text = fs.readFileSync(file, 'utf8')
  } catch (err) {
    throw new HarError(`cannot read ${file} (${err.code || err.message})`)
  }
  return replayOfText(text, file)
}

// Chromium's switches for a replay over `protocol` (a started replay's origins and hostResolverRules): every
// recorded name to its replay address, and the protocol forced as the site experiment forces it
// (harness/force-protocol.js), QUIC from the first request to every recorded origin for h3; for h2e QUIC off, so the
// edge's Alt-Svc (it offers h3 too) moves no request onto it.
function replayChromiumArgs (protocol, replay) {
  const rules = `--host-resolver-rules=${replay.hostResolverRules}`
  const forced = FORCED[protocol]
  if (forced === 'h1') return ['--disable-http2', '--disable-quic', rules]
  if (forced === 'h2') return ['--disable-quic', rules]
  if (forced === 'h3') return ['--enable-quic', `--origin-to-force-quic-on=${replay.origins.map(o => `${o.host}:${o.port}`).join(',')}`, rules]
  throw new Error(`unknown replay protocol "${protocol}"; protocols are ${REPLAY_PROTOCOLS.join(', ')}`)
}

// What one load cost the replay: app.served(), app.misses() and app.variantStats() (`variant`) before and after
// it → { served, misses, missed, hints (103s sent), scheduled (bodies through the variant's scheduler), notModified (304s) }
// (missed: the first few requests nothing was recorded for, "GET https://…").
function loadFacts (before, after) {
  const scheduled = s => s.variant && s.variant.scheduler ? s.variant.scheduler.responses : 0
  return {
    served: after.served.total - before.served.total,
    misses: after.misses.total - before.misses.total,
    missed: after.misses.requests.slice(before.misses.requests.length, before.misses.requests.length + MISSES_NAMED).map(m => `${m.method} ${m.url}`),
    hints: after.variant ? after.variant.hints.responses - before.variant.hints.responses : 0,
    scheduled: scheduled(after) - scheduled(before),
    // The conditional requests answered 304 (server/replay/app.js: the recorded validators matched).
    notModified: (after.served.notModified || 0) - (before.served.notModified || 0)
  }
}

// A row's loads' replay facts → { servedMedian, misses (over the loads), missed (distinct, the first few),
// hints, scheduled and notModified (over the loads), hintedLoads (loads a 103 was sent in), hintsUsed (those of them in which the
// browser fetched a 103's preload: the load's earlyHintsPreloads) }.
function rowFacts (loads) {
  const served = loads.map(l => l.replay.served).sort((a, b) => a - b)
  const sum = key => loads.reduce((n, l) => n + (l.replay[key] || 0), 0)
  return {
    servedMedian: served.length ? served[(served.length - 1) >> 1] : null,
    misses: sum('misses'),
    missed: [...new Set(loads.flatMap(l => l.replay.missed))].slice(0, MISSES_NAMED),
    hints: sum('hints'),
    scheduled: sum('scheduled'),
    notModified: sum('notModified'),
    hintedLoads: loads.filter(l => l.replay.hints > 0).length,
    hintsUsed: loads.filter(l => l.replay.hints > 0 && l.earlyHintsPreloads > 0).length
  }
}

// A replay row's mode: its view, and beside it the variant's name unless plain ('cold', 'cold early-hints').
const modeOf = (view, variant) => variant === 'plain' ? view : `${view} ${variant}`

// The recorded load of each page, summed as a load's own HAR is (harness/har/har.js summarizeHar): the entries
// of the HAR page its first request belongs to (every https entry when it has none) → { [page url]: { requests,
// bodyBytes, failed (requests that failed below HTTP: common/failed-requests.js), origins: { origin: { requests,
// connections (distinct connection ids, null without ids) } } } }.
function recordedLoadsOf (har, pages) {
  const entries = har.log.entries.filter(e => https(e.request && e.request.url))
  return Object.fromEntries(pages.map(url => {
    const first = entries.find(e => e.request.url === url && e.pageref)
    const mine = first ? entries.filter(e => e.pageref === first.pageref) : entries
    const s = summarizeHar({ entries: mine })
    const origins = Object.fromEntries(Object.entries(s.origins).map(([o, v]) => [o, { requests: v.requests, connections: v._connectionIds ?? null }]))
    const page = first ? (har.log.pages || []).find(p => p.id === first.pageref) : null
    return [url, { requests: s.requests, bodyBytes: s.bodyBytes, failed: failuresOf(mine).failed.length, origins, timings: recordedTimingsOf(page) }]
  }))
}

// The recorded load's own times (ms from its navigation's start): HAR's pageTimings.onLoad, and the first and largest
// contentful paint where the recorder wrote them (pageTimings._firstContentfulPaint, _largestContentfulPaint:
// bench/record/record.js); null for what the HAR lacks (a DevTools HAR has no paints; -1 is HAR's "not known").
function recordedTimingsOf (page) {
  const t = page && page.pageTimings ? page.pageTimings : {}
  const known = v => typeof v === 'number' && v >= 0 ? v : null
  return { onload: known(t.onLoad), fcp: known(t._firstContentfulPaint), lcp: known(t._largestContentfulPaint) }
}

// The replay's time against the recording's own load of the page: per figure (onload, fcp, lcp) the row's median
// over its good loads, the recorded load's, and their ratio; null where either is missing. The recording was one
// load, cold, on the recorder's network with its cache off: a ratio far from 1 behind a link says the link is not
// the recorder's path, not that the replay is wrong (docs/site.md).
function timeFidelityOf (recorded, site) {
  const of = (replayed, rec) => ({
    replayed: replayed ?? null,
    recorded: rec ?? null,
    ratio: replayed > 0 && rec > 0 ? +(replayed / rec).toFixed(3) : null
  })
  const t = recorded.timings || {}
  const onloads = (site.loads || []).filter(l => !l.problem && l.onload > 0).map(l => l.onload)
  const onload = onloads.length ? +stats.median(onloads).toFixed(1) : null
  return { onload: of(onload, t.onload), fcp: of(site.fcpMedian, t.fcp), lcp: of(site.lcpMedian, t.lcp) }
}

// How faithful a row's cold loads were to the recording of their page (`recorded`: recordedLoadsOf's): the
// requests and each origin's requests equal, as a replay must be to be one; the body bytes as a ratio (an encoding
// made again may differ by a few bytes: gzip's level); each origin's connections beside the recording's (equal
// only where the recorded protocol was forced). The median load (by onload) speaks, as for the row's origins; a
// repeat view (its cache and open connections) or a row without a good load → null.
function fidelityOf (recorded, site) {
  if (!recorded || !site || site.view !== 'cold') return null
  const good = (site.loads || []).filter(l => !l.problem)
  const bytes = good.map(l => l.bodyBytes).filter(b => b > 0).sort((a, b) => a - b)
  const bodyBytes = bytes.length ? bytes[(bytes.length - 1) >> 1] : null
  // Without a good load there are no replayed origins: every recorded one differs (and the failures say why).
  const replayedOrigins = site.origins || {}
  const names = [...new Set([...Object.keys(recorded.origins), ...Object.keys(replayedOrigins)])].sort()
  const origins = names.map(origin => ({
    origin,
    recorded: recorded.origins[origin] ? recorded.origins[origin].requests : 0,
    replayed: replayedOrigins[origin] ? replayedOrigins[origin].requests : 0,
    recordedConnections: recorded.origins[origin] ? recorded.origins[origin].connections : null,
    replayedConnections: replayedOrigins[origin] ? replayedOrigins[origin].newConnections ?? null : null
  }))
  return {
    time: timeFidelityOf(recorded, site),
    recordedRequests: recorded.requests,
    requests: site.requests,
    // Requests that failed below HTTP: the recording's (its page), and the replayed loads' (over the row's loads,
    // good and failed alike: a load that failed by one is not among `good`).
    recordedFailed: recorded.failed ?? null,
    failed: (site.loads || []).reduce((n, l) => n + (l.failures ? l.failures.failed + l.failures.allowed : 0), 0),
    requestsEqual: site.requests === recorded.requests,
    originsEqual: Boolean(site.origins) && origins.every(o => o.recorded === o.replayed),
    recordedBodyBytes: recorded.bodyBytes,
    bodyBytes,
    bodyBytesRatio: bodyBytes !== null && recorded.bodyBytes > 0 ? +(bodyBytes / recorded.bodyBytes).toFixed(4) : null,
    origins
  }
}

module.exports = {
  recordedLoadsOf, fidelityOf,
  REPLAY_PROTOCOLS, VARIANTS, variantRefusal, modeOf, FORCED, SERVERS,
  pagesOf, recordedAtOf, assumptionsOf, replayOfText, readReplay, replayChromiumArgs, loadFacts, rowFacts
}

'use strict'

// Cells of kind `replay` (experiment replay): one recorded page of a HAR
// (`npm run bench -- replay --har site.har`), every recorded origin served by
// the replay (server/replay/serve.js) over the protocol of the run, each on
// its own loopback address and recorded port in the runner's private network
// namespace. Per repeat and protocol (alternating order, as site does): the
// replay started, a new browser of the cell's (--browser, as site's) sent to
// it: Chromium by --host-resolver-rules and trusting its leaves by their SPKI
// hashes, Firefox by a hosts file of the recorded names over /etc/hosts in a
// mount namespace of its own and the replay's CA in its throw-away profile
// (./replay-firefox.js; its loads measured as site measures Firefox's, by
// BiDi HAR, with no visual metrics), the page loaded cold and then as
// a repeat view, each load measured as the site experiment measures one
// (bench/cells/site-url.js measureLoad: TTFB, FCP, LCP, onload, the HAR's
// requests, bytes, protocols and connections per origin, browser CPU), then
// the replay closed (its certificates made once for the cell). With the
// cell's variants (`replay --variants`), each protocol is replayed once
// plain and once per variant (server/replay/serve.js: fifo, rfc9218,
// early-hints) in each repeat, alternating; a variant's rows have its name
// beside the view in their mode (cold early-hints). Rows are site's (siteRow) with the replay's own facts:
// the HAR (file, recordedAt, pages), what its archive assumed, the entries it
// served per load, and the requests the recording lacked (404s, counted and
// the first few named). With the cell's link (`replay --link spec`), as site's:
// the link opened once for the cell, the replay on addresses of the link's
// own (link/namespace.js addServerAddresses, one per replay address, recorded
// ports kept), the browser in the link's client namespace, so every request
// crosses the link; the round trip is the link's on top of the local one.
const fs = require('node:fs')
const path = require('node:path')
const stats = require('../../shared/stats')
const { PROTOCOL_NAMES } = require('../../harness/force-protocol')
const { connectTimes, connectOverheadMs } = require('../../harness/remote-lanes')
const { ensureEdge } = require('../../harness/start-lanes')
const { startReplay, replayCertificates, EDGE_PROTOCOLS } = require('../../server/replay/serve')
const { openSiteBrowser } = require('./site-browser')
const { loadViews, siteRow, VIEWS } = require('./site-url')
const { repeatWithinBudget, seedOf } = require('./helpers')
const { budgetNote } = require('./budget')
const { readReplay, replayChromiumArgs, loadFacts, rowFacts, fidelityOf, modeOf, FORCED, SERVERS } = require('./replay-plan')
const { addressCount } = require('../../server/replay/origins')
const { openLink } = require('../../link/namespace')
const { parseLinkSpec, rttMsOf } = require('../../link/spec')
const { forwarderCommands } = require('../../link/forwarder-commands')
const { replayHosts, replayFirefoxPrefs } = require('./replay-firefox')
const { corpusHarFile } = require('../corpus')

// What a load's title says of its server beside the protocol forced, where two protocols force the same one.
const SERVED_BY = { 'h2-spdy': ', spdy', h2e: ', Caddy over TCP' }

const snapshot = app => ({ served: app.served(), misses: app.misses(), variant: app.variantStats() })

// The shortest TCP connect to the page's replay address from here (loopback, or the link's own address on this
// side) plus, behind the link, the link's round trip (its delays less their jitter: site's), or null.
async function roundTripOf (replay, url, log, link = null) {
  const o = replay.origins.find(x => x.origin === new URL(url).origin)
  if (!o) return null
  try {
    const times = await connectTimes(o.address, o.port)
    const pathMs = +Math.min(...times).toFixed(3)
    const linkMs = link ? rttMsOf(link.spec, { min: true }) : 0
    const samples = times.map(t => +t.toFixed(3))
    // The connect timer's own cost, which the TTFB bound takes off the path's part (site-url.js ttfbBound).
    const overheadMs = await connectOverheadMs()
    return { minMs: +(pathMs + linkMs).toFixed(3), pathMinMs: pathMs, linkMs, medianMs: +stats.median(times).toFixed(3), samples, overheadMs }
  } catch (err) {
    log(`  no TCP connect to the replay of ${o.origin} at ${o.address}:${o.port} (${err.message}): no lower bound for time to first byte`)
    return null
  }
}

// With the cell's link: the link opened and one address of its own per replay address → { opened, spec, addresses,
// natted: null } (siteRow's link), or null without one.
async function openReplayLink (cell, archive, log) {
  if (!cell.link) return null
  const spec = parseLinkSpec(cell.link, { traces: false })
  const opened = await openLink(forwarderCommands(spec))
  try {
    const addresses = await opened.addServerAddresses(addressCount(archive))
    log(`  behind the link ${spec.description}: the replay on the link's addresses ${addresses.join(', ')}, the browser in its client namespace`)
    return { opened, spec, addresses, natted: null }
  } catch (err) {
    await opened.close()
    throw err
  }
}

async function runReplayCell ({ entry, repeats, budgetMs, log = () => {}, browser = 'chromium', outDir = null, seeding = null }) {
  const { cell } = entry
  const url = cell.url
  // A generated page of the corpus experiment: its HAR written now, beside the results (bench/corpus/).
  const har = cell.har || corpusHarFile(cell.corpus, outDir ? path.join(outDir, 'corpus') : null)
  const { archive, facts, recorded } = readReplay(har)
  log(`  replaying ${facts.file} (recorded ${facts.recordedAt || 'at an unknown time'}, ${facts.pages.length} page${facts.pages.length === 1 ? '' : 's'}, ${facts.entries} entries, ${facts.origins.length} origins): page ${url}`)
  for (const a of facts.assumed) log(`  assumed: ${a}`)
  const edged = cell.protocols.filter(p => EDGE_PROTOCOLS.includes(p)) // h3 and h2e: the same Caddy
  if (edged.length) await ensureEdge(edged, log)
  const link = await openReplayLink(cell, archive, log)
  try {
    return await measureReplay({ entry, cell, url, archive, facts, recorded, link, repeats, budgetMs, log, browser, outDir, seeding })
  } finally {
    if (link) await link.opened.close()
  }
}

async function measureReplay ({ entry, cell, url, archive, facts, recorded, link, repeats, budgetMs, log, browser, outDir, seeding }) {
  const harDir = outDir ? path.join(outDir, 'har') : null
  if (harDir) fs.mkdirSync(harDir, { recursive: true })
  const variants = cell.variants || ['plain']
  // Each protocol with each variant: a replay of its own per repeat (plain first, then the cell's variants).
  const runs = cell.protocols.flatMap(protocol => variants.map(variant => ({ protocol, variant })))
  const key = (run, view) => `${run.protocol} ${run.variant} ${view}`
  const per = new Map(runs.flatMap(x => VIEWS.map(v => [key(x, v), { samples: [], loads: [], problems: [], costs: [], failures: 0, variantNote: null }])))
  const failAll = (run, why) => {
    for (const view of VIEWS) {
      const p = per.get(key(run, view))
      p.failures++
      p.problems.push(why)
    }
  }
  let version = null
  let rtt = null
  const caddyOf = new Map() // protocol → the version of the Caddy that served it (h3 and h2e: one binary)
  const certificates = await replayCertificates(archive) // one CA and its leaves for every replay of the cell
  const { planned, firstMs } = await repeatWithinBudget({ repeats, budgetMs, log }, async r => {
    const order = r % 2 ? [...runs].reverse() : runs
    for (const run of order) {
      const { protocol, variant } = run
      const forced = FORCED[protocol]
      let replay
      try {
        replay = await startReplay(archive, { protocol, variant, addresses: link ? link.addresses : null, certificates })
      } catch (err) {
        failAll(run, `the replay did not start: ${err.message.split('\n')[0]}`)
        continue
      }
      for (const view of VIEWS) per.get(key(run, view)).variantNote = replay.variantNote
      if (replay.edge && replay.edge.caddys.length) caddyOf.set(protocol, replay.edge.caddys[0].version || null)
      try {
        if (!rtt) {
          rtt = await roundTripOf(replay, url, log, link)
          if (rtt) log(`  round trip to the replay: ${rtt.minMs} ms at least (TCP connects, median ${rtt.medianMs} ms${link ? `, plus the link's ${rtt.linkMs} ms` : ''})`)
        }
        let b
        try {
          b = await openReplayBrowser(browser, protocol, url, replay, link)
          b.connectionIds = new Set()
          version = version || b.version
        } catch (err) {
          failAll(run, `the browser did not start: ${err.message.split('\n')[0]}`)
          continue
        }
        try {
          // Every protocol and variant of repeat r meets the link's same drops (paired, as site's: helpers.js seedOf).
          const seed = link ? seedOf(seeding, r, runs.indexOf(run)) : null
          // Each load with the replay's facts of it: what it served and missed meanwhile.
          await loadViews(b, {
            url, protocol: forced, r, seed, link, harDir, outDir, visual: Boolean(cell.visual), allowFailed: cell.allowFailed || [],
            tally: view => per.get(key(run, view)),
            nameOf: view => `replay${entry.index + 1}-${browser}-${protocol}${variant === 'plain' ? '' : `-${variant}`}-r${r + 1}-${view}`,
            titleOf: view => `${url} (replay, ${PROTOCOL_NAMES[forced]} forced${SERVED_BY[protocol] || ''}${variant === 'plain' ? '' : `, ${variant}`}, ${view})`,
            before: () => snapshot(replay.app),
            extra: before => ({ replay: loadFacts(before, snapshot(replay.app)) })
          })
        } finally {
          await b.close().catch(() => {})
        }
      } finally {
        await replay.close()
      }
    }
  })
  const note = budgetNote(repeats, planned, firstMs, budgetMs)
  return runs.flatMap(run => VIEWS.map(view => {
    const { protocol, variant } = run
    const p = per.get(key(run, view))
    const row = siteRow({ entry, protocol, forced: FORCED[protocol], view, p, rtt, link, repeats, note, browser, version, url })
    row.mode = modeOf(view, variant)
    const got = rowFacts(p.loads)
    if (got.misses) row.note = [row.note, `${got.misses} requests over ${p.loads.length} loads the recording lacked (404): ${got.missed.join(', ')}`].filter(Boolean).join('; ')
    if (p.variantNote) row.note = [row.note, p.variantNote].filter(Boolean).join('; ')
    if (got.hintsUsed < got.hintedLoads) row.note = [row.note, hintsNote(got)].filter(Boolean).join('; ')
    row.replay = {
      har: facts.file,
      recordedAt: facts.recordedAt,
      pages: facts.pages,
      page: url,
      source: facts.source,
      server: SERVERS[protocol],
      // The Caddy that served an edge protocol (h3, h2e): the same one for both sides of h3 against h2e.
      ...(caddyOf.has(protocol) ? { caddy: caddyOf.get(protocol) } : {}),
      entries: facts.entries,
      served: got.servedMedian,
      misses: got.misses,
      missed: got.missed,
      notModified: got.notModified,
      assumed: facts.assumed,
      fidelity: fidelityOf(recorded[url], row.site),
      // The server's behaviour (server/replay/serve.js variants): what it did over the row's loads.
      variant: {
        name: variant, note: p.variantNote || null, hints: got.hints, scheduled: got.scheduled, hintedLoads: got.hintedLoads, hintsUsed: got.hintsUsed
      }
    }
    return row
  }))
}

// Loads that were sent a 103 and whose page fetched none of its preloads (a preconnect-only 103 shows none; over
// HTTP/2 Chromium drops a 103 that arrives before it waits for the response's headers, as on loopback without
// --link: docs/site.md).
const hintsNote = got => `a 103 was sent in ${got.hintedLoads} load${got.hintedLoads === 1 ? '' : 's'}; the browser fetched its preloads in ${got.hintsUsed}`

// A browser of `browser` (chromium, firefox) for the started `replay` over `protocol`, behind the cell's link
// when there is one: openSiteBrowser's, sent to the replay's addresses for the recorded names, trusting the
// replay's own CA (server/replay/ca.js: one leaf per recorded certificate) for every origin, in the browser's
// throw-away NSS database, every recorded origin forced to the protocol (over HTTP/3 Chromium takes a root outside
// its own store only for forced origins: harness/chromium/headless.js).
function openReplayBrowser (browser, protocol, url, replay, link) {
  const forced = FORCED[protocol]
  const common = { protocol: forced, url, link: link ? link.opened : null, trust: { ca: replay.caPem } }
  if (browser === 'firefox') {
    return openSiteBrowser('firefox', { ...common, firefoxPrefs: replayFirefoxPrefs(forced, url, replay), hosts: replayHosts(replay) })
  }
  return openSiteBrowser('chromium', { ...common, protocolArgs: replayChromiumArgs(protocol, replay) })
}

module.exports = { runReplayCell }

'use strict'

// Cells of kind `site-page` (h3-pages, h3-cc): top-level navigations of a tab
// to a lane's /site page (server/routes/site.js: a document and its CSS, JS
// and images, `size` bytes in all), in a tab of its own behind the cell's
// link, as a returning visitor on new connections:
//  - per lane one untimed first visit (TLS session tickets, QUIC tokens), then
//  - per repeat and lane a load with a tag of its own (nothing from a cache),
//    lanes interleaved and the order reversed every other repeat;
//  - after every load the browser closes all its connections
//    (chrome.benchmarking.closeConnections, --enable-net-benchmarking), so each
//    load opens its own (handshakes included, as in Cloudflare's test) and
//    each is accepted under the cell's TCP congestion control.
// A sample is the page load, loadEventEnd − startTime of the Navigation Timing
// entry; responseStart (time to first byte, connection setup included) is kept
// too. A load counts only when every subresource finished with its exact size
// and the document and every subresource came over the lane's protocol (h3 on
// the h3 lane: a fallback to TCP is a failed load, named in the row's note).
const stats = require('../../shared/stats')
const { parseSize } = require('../../server/payload')
const { composition } = require('../../server/routes/site')
const { applyNetwork, row, mostFrequent, repeatWithinBudget, applySeed, seedsOf } = require('./helpers')
const { budgetNote } = require('./budget')
const { sumCosts } = require('../../harness/cell-costs')
const { setCongestionControl, socketsCongestion } = require('./congestion')

const LOAD_TIMEOUT_MS = 3 * 60 * 1000

// One navigation; → { status, load, responseStart, protocol, resources: [{ path, protocol, bytes, finished }] }.
async function loadSite (tab, url) {
  const response = await tab.goto(url, { waitUntil: 'load', timeout: LOAD_TIMEOUT_MS })
  await tab.waitForFunction(() => performance.getEntriesByType('navigation')[0].loadEventEnd > 0, { timeout: LOAD_TIMEOUT_MS })
  const t = await tab.evaluate(() => {
    const nav = performance.getEntriesByType('navigation')[0]
    return {
      load: nav.loadEventEnd - nav.startTime,
      responseStart: nav.responseStart - nav.startTime,
      protocol: nav.nextHopProtocol || null,
      navStatus: nav.responseStatus || null,
      resources: performance.getEntriesByType('resource').filter(e => e.name.includes('/site/a/')).map(e => ({
        path: new URL(e.name).pathname + new URL(e.name).search, protocol: e.nextHopProtocol || null, bytes: e.encodedBodySize, finished: e.responseEnd > 0,
        decoded: e.decodedBodySize, transfer: e.transferSize, status: e.responseStatus
      }))
    }
  })
  // The runner's browser runs without puppeteer's Network domain (its goto then resolves null): Navigation Timing's status.
  const { navStatus, ...rest } = t
  return { ...rest, status: response ? response.status() : navStatus }
}

// What is wrong with a load, or null: missing or unfinished subresources, a
// wrong size, a protocol other than the lane's.
function problemOf (t, lane, expected) {
  if (t.status !== 200) return `status ${t.status}`
  if (t.resources.length !== expected.length - 1) return `${t.resources.length} of ${expected.length - 1} subresources in Resource Timing`
  const unfinished = t.resources.filter(r => !r.finished).length
  if (unfinished) return `${unfinished} subresources did not finish`
  const wrongSize = t.resources.filter(r => r.bytes !== Number(new URLSearchParams(r.path.split('?')[1]).get('size')))
  if (wrongSize.length) return `${wrongSize.length} subresources with the wrong size (${wrongSize[0].path}: ${wrongSize[0].bytes} bytes, decoded ${wrongSize[0].decoded}, transfer ${wrongSize[0].transfer}, status ${wrongSize[0].status})`
  const other = [t, ...t.resources].filter(r => r.protocol !== lane.protocol)
  if (other.length) {
    const seen = [...new Set(other.map(r => r.protocol))].join(', ')
    return `${other.length} of ${t.resources.length + 1} responses over ${seen}, not ${lane.protocol}` +
      (lane.protocol === 'h3' ? ' (fell back to TCP)' : '')
  }
  return null
}

// Closes every connection of the browser (from the page open in `tab`).
async function closeConnections (tab) {
  await tab.evaluate(() => {
    const bench = window.chrome && window.chrome.benchmarking
    if (!bench) throw new Error('no chrome.benchmarking: start Chromium with --enable-net-benchmarking')
    return bench.closeConnections()
  })
}

// "bbr ×4" from ['bbr', 'bbr', 'bbr', 'bbr'].
const tally = list => {
  const counts = new Map()
  for (const x of list) counts.set(x, (counts.get(x) || 0) + 1)
  return [...counts].map(([x, n]) => `${x} ×${n}`).join(', ') || null
}

async function runSitePageCell ({ context, link, entry, laneInfo, repeats, budgetMs, meter = null, seeding = null, log = () => {} }) {
  const { cell } = entry
  const expected = composition(parseSize(cell.size))
  const cc = cell.cc && link ? await setCongestionControl(cell.cc, link.opened) : null
  if (cc && !cc.applied) log(`  ${cc.note}`)
  const tab = await context.newPage()
  try {
    const cdp = await tab.createCDPSession()
    // The cache switch needs the Network domain (no body kept: it only throttles and switches the cache).
    await cdp.send('Network.enable', { maxTotalBufferSize: 0, maxResourceBufferSize: 0 })
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true })
    const network = await applyNetwork(cdp, cell.preset, link, cell.link, { keepsNetwork: true })
    // The meter on this tab (its own DevTools session): each timed load's costs, the navigation and its Resource Timing read.
    const tabMeter = meter ? meter.forPage(cdp) : null
    const url = (lane, tag) => `${lane.url}/site?size=${encodeURIComponent(cell.size)}&tag=${tag}${cell.delay ? `&delay=${cell.delay}` : ''}`
    for (const lane of laneInfo) {
      await loadSite(tab, url(lane, `first-${Date.now().toString(36)}`)).catch(err => log(`  ${lane.name} first visit: ${err.message.split('\n')[0]}`))
      await closeConnections(tab).catch(() => {})
    }
    const per = laneInfo.map(() => ({
      samples: [], ttfb: [], failures: 0, protocols: [], resourceProtocols: [], ccSeen: [], problems: [], costs: [], seeds: []
    }))
    const { planned, firstMs } = await repeatWithinBudget({ repeats, budgetMs, log }, async r => {
      const order = laneInfo.map((l, i) => i)
      if (r % 2) order.reverse()
      for (const i of order) {
        const lane = laneInfo[i]
        const p = per[i]
        try {
          const seed = await applySeed(link, seeding, r, i)
          if (tabMeter) await tabMeter.start()
          const t = await loadSite(tab, url(lane, `r${Date.now().toString(36)}-${i}-${r}`))
          if (tabMeter) p.costs.push(await tabMeter.stop())
          if (t.protocol) p.protocols.push(t.protocol)
          p.resourceProtocols.push(...t.resources.map(x => x.protocol || 'unknown'))
          if (lane.protocol !== 'h3') p.ccSeen.push(...await socketsCongestion(lane.port).catch(() => []))
          const problem = problemOf(t, lane, expected)
          if (problem) {
            p.failures++
            p.problems.push(problem)
          } else {
            p.samples.push(t.load)
            if (seed !== null) p.seeds.push(seed)
            p.ttfb.push(t.responseStart)
          }
        } catch (err) {
          p.failures++
          p.problems.push(`failed: ${err.message.split('\n')[0]}`)
        }
        await closeConnections(tab).catch(err => p.problems.push(`connections not closed: ${err.message.split('\n')[0]}`))
      }
    })
    const note = budgetNote(repeats, planned, firstMs, budgetMs)
    return laneInfo.map((lane, i) => {
      const p = per[i]
      const wrongCc = cc && cc.applied && lane.protocol !== 'h3' && p.ccSeen.some(x => x !== cc.cc)
        ? `server sockets used ${tally(p.ccSeen)}, not ${cc.cc}` : null
      const problems = [...new Set(p.problems)].map(x => `${p.problems.filter(y => y === x).length}× ${x}`)
      return row({
        entry, lane: lane.name, samples: p.samples, failures: p.failures + (wrongCc ? 1 : 0),
        protocol: mostFrequent(p.protocols), asked: repeats,
        note: [note, cc && !cc.applied ? cc.note : null, wrongCc, ...problems].filter(Boolean).join('; ') || null,
        extra: {
          ...network,
          responseStartMedian: p.ttfb.length ? +stats.median(p.ttfb).toFixed(2) : null,
          ...(meter ? { costs: sumCosts(p.costs) } : {}),
          ...seedsOf(p),
          resources: expected.length,
          resourceProtocols: tally(p.resourceProtocols),
          cc: lane.protocol === 'h3' ? null : (cc && cc.applied ? cc.cc : null),
          ccVia: lane.protocol === 'h3' ? null : (cc && cc.applied ? cc.via : null),
          ccSeen: lane.protocol === 'h3' ? 'QUIC: quic-go (Caddy), CUBIC' : tally(p.ccSeen)
        }
      })
    })
  } finally {
    await tab.close()
  }
}

module.exports = { runSitePageCell, problemOf, loadSite, tally }

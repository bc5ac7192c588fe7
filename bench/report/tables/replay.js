'use strict'

// replay's tables (bench/experiments/replay.js): first what was replayed (the HAR: file, when it was recorded,
// its pages; what its archive assumed), then per row what the replay served and the requests the recording
// lacked, HTTP/3 against each HTTP/2 (h2e, the same server, then node:http2 and spdy as references), what each
// server behaviour of --variants did, then site's tables of the loads (bench/report/tables/site.js), each page's a replay of that HAR.
const siteTables = require('./site')
const { HTTP3_AGAINST } = require('../claims/replay')

// The loads whose page fetched a 103's preload, of those a 103 was sent in ('–' where none was sent, or in results
// from before it was counted).
const hintsUsedCell = v => v.hintedLoads ? `${v.hintsUsed} of ${v.hintedLoads}` : '–'

const ms = v => v === null || v === undefined ? '–' : `${Math.round(v)}`
// The failed requests over the row's loads beside the recording's ('–' in results from before they were counted).
const failedCell = f => f.failed === undefined ? '–' : `${f.failed} (${f.recordedFailed ?? '–'})`

// h3's onload median against each HTTP/2's of the same cell, browser and mode (view, and variant beside it): h2e
// first (the same Caddy: the protocol only), then the references (claims/replay.js HTTP3_AGAINST), a row each;
// null without an h3 row that has one beside it. The verdicts are the claims'; this gives the medians.
function http3Table (rows) {
  const browsers = new Set(rows.map(r => r.browser || 'chromium'))
  const ok = r => r.median > 0
  const body = []
  for (const h3 of rows.filter(r => r.lane === 'h3' && ok(r))) {
    for (const other of HTTP3_AGAINST) {
      const o = rows.find(r => r.lane === other.lane && ok(r) && r.cell === h3.cell && r.mode === h3.mode && (r.browser || 'chromium') === (h3.browser || 'chromium'))
      if (!o) continue
      body.push([`${h3.preset}${browsers.size > 1 ? ` (${h3.browser || 'chromium'})` : ''}`, h3.mode, other.reference ? `${other.lane} (reference)` : other.lane, other.differ,
        String(Math.round(h3.median)), String(Math.round(o.median)), `${(h3.median / o.median).toFixed(2)}×`])
    }
  }
  if (!body.length) return null
  return {
    title: 'HTTP/3 against HTTP/2: h3\'s onload median (ms) against h2e, the same Caddy over TCP: the sides differ in protocol only; then against node:http2 (h2) and spdy (h2-spdy) as references, in rows of their own, whose sides differ in server too (medians; the claims give the verdicts)',
    head: ['page', 'view', 'against', 'sides differ in', 'h3 (ms)', 'the other (ms)', 'h3 ÷ the other'],
    body
  }
}

module.exports = function tables (rows) {
  const withReplay = rows.filter(r => r.replay)
  if (!withReplay.length) return siteTables(rows)
  const hars = [...new Map(withReplay.map(r => [r.replay.har, r.replay])).values()]
  // Behind --link the replay served on the link's addresses, not loopback (bench/cells/replay.js).
  const where = har => withReplay.some(r => r.replay.har === har && r.network === 'link') ? 'behind the link' : 'from loopback'
  const out = hars.map(h => ({
    title: `Replay of ${h.har}: recorded ${h.recordedAt || 'at an unknown time'} (${h.source === 'h2bench' ? 'h2bench record' : 'a HAR without h2bench\'s fields, as DevTools saves one'}), ${h.pages.length} page${h.pages.length === 1 ? '' : 's'}, ${h.entries} entries for the replay to serve ${where(h.har)} as recorded`,
    head: ['pages', 'assumed'],
    body: [[h.pages.join(', '), h.assumed.length ? h.assumed.join('; ') : 'nothing: the recorder\'s own fields']]
  }))
  out.push({
    title: 'What the replay served per load: its server, the recorded entries it answered (median per load), the 304s it answered over the row\'s loads, and the requests nothing was recorded for (answered 404; over the row\'s loads, the first few named)',
    head: ['page', 'forced', 'view', 'server', 'entries served', '304s (recorded validators matched)', 'misses', 'missed'],
    body: withReplay.map(r => [r.replay.page, r.lane, r.mode, r.replay.server, r.replay.served ?? '–', r.replay.notModified ?? '–', r.replay.misses, r.replay.missed.join(', ') || '–'])
  })
  const http3 = http3Table(withReplay)
  if (http3) out.push(http3)
  // --variants: what each server behaviour did (server/replay/serve.js), beside the plain replay's rows.
  const varied = withReplay.filter(r => r.replay.variant && r.replay.variant.name !== 'plain')
  if (varied.length) {
    out.push({
      title: 'The server\'s behaviours (--variants), each against the plain replay of the same protocol: fifo (each connection\'s bodies one after another, as asked), rfc9218 (by each request\'s priority header), early-hints (a 103 with the recorded preload and preconnect Link headers at once); over the row\'s loads, the 103s sent, the loads whose page fetched a 103\'s preload (Resource Timing initiatorType early-hints) of those a 103 was sent in, and the bodies the variant\'s scheduler sent',
      head: ['page', 'forced', 'view', 'variant', '103s sent', 'loads using a 103', 'bodies scheduled', 'note'],
      body: varied.map(r => [r.replay.page, r.lane, r.site ? r.site.view : r.mode, r.replay.variant.name, r.replay.variant.hints, hintsUsedCell(r.replay.variant), r.replay.variant.scheduled, r.replay.variant.note || '–'])
    })
  }
  const faithful = withReplay.filter(r => r.replay.fidelity)
  if (faithful.length) {
    const f = r => r.replay.fidelity
    const conns = o => `${o.origin}: ${o.replayedConnections ?? '–'} (recorded ${o.recordedConnections ?? '–'})`
    out.push({
      title: 'Fidelity: each row\'s cold load (the median by onload) against the recording of its page: a replay is one only when its requests, and each origin\'s, are the recorded ones; body bytes as a ratio (an encoding made again may differ by a few bytes); connections per origin beside the recording\'s (alike only where the recorded protocol was forced)',
      head: ['page', 'forced', 'requests (recorded)', 'requests', 'each origin\'s requests', 'failed below HTTP: replayed loads (recorded)', 'body bytes ÷ recorded', 'connections per origin (recorded)'],
      body: faithful.map(r => [r.replay.page, r.lane, `${f(r).requests ?? '–'} (${f(r).recordedRequests})`, f(r).requestsEqual ? 'equal' : 'differ', f(r).originsEqual ? 'equal' : `differ: ${f(r).origins.filter(o => o.recorded !== o.replayed).map(o => `${o.origin} ${o.replayed} of ${o.recorded}`).join(', ')}`,
        failedCell(f(r)), f(r).bodyBytesRatio === null ? '–' : `${f(r).bodyBytesRatio.toFixed(3)}×`, f(r).origins.map(conns).join('; ')])
    })
    // Fidelity in time: the replay's medians against the recording's own load of the page (results from before
    // it lack `time`: no table).
    const timed = faithful.filter(r => f(r).time)
    if (timed.length) {
      const cell = t => t.replayed === null || t.recorded === null ? `${ms(t.replayed)} (${ms(t.recorded)})` : `${ms(t.replayed)} (${ms(t.recorded)}): ${t.ratio.toFixed(2)}×`
      out.push({
        title: 'Fidelity in time: each row\'s cold loads (medians over its good loads, ms) against the recording\'s own load of its page (in brackets; – where the HAR has none: a DevTools HAR has no paints). The recording is one load, its cache off, on the recorder\'s own path and without --link: behind a link the ratio is the link\'s doing as much as the replay\'s; the live site through the same link is the comparison that holds the replay to the site (docs/site.md)',
        head: ['page', 'forced', 'onload (recorded)', 'FCP (recorded)', 'LCP (recorded)'],
        body: timed.map(r => [r.replay.page, r.lane, cell(f(r).time.onload), cell(f(r).time.fcp), cell(f(r).time.lcp)])
      })
    }
  }
  return [...out, ...siteTables(rows).map(t => ({ ...t, title: `Replay: ${t.title}` }))]
}

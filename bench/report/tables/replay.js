'use strict'

// replay's tables (bench/experiments/replay.js): first what was replayed (the HAR: file, when it was recorded,
// its pages; what its archive assumed), then per row what the replay served and the requests the recording
// lacked, what each server behaviour of --variants did, then site's tables of the loads (bench/report/tables/site.js), each page's a replay of that HAR.
const siteTables = require('./site')

// The loads whose page fetched a 103's preload, of those a 103 was sent in ('–' where none was sent, or in results
// from before it was counted).
const hintsUsedCell = v => v.hintedLoads ? `${v.hintsUsed} of ${v.hintedLoads}` : '–'

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
    title: 'What the replay served per load: its server, the recorded entries it answered (median per load), and the requests nothing was recorded for (answered 404; over the row\'s loads, the first few named)',
    head: ['page', 'forced', 'view', 'server', 'entries served', 'misses', 'missed'],
    body: withReplay.map(r => [r.replay.page, r.lane, r.mode, r.replay.server, r.replay.served ?? '–', r.replay.misses, r.replay.missed.join(', ') || '–'])
  })
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
      head: ['page', 'forced', 'requests (recorded)', 'requests', 'each origin\'s requests', 'body bytes ÷ recorded', 'connections per origin (recorded)'],
      body: faithful.map(r => [r.replay.page, r.lane, `${f(r).requests ?? '–'} (${f(r).recordedRequests})`, f(r).requestsEqual ? 'equal' : 'differ', f(r).originsEqual ? 'equal' : `differ: ${f(r).origins.filter(o => o.recorded !== o.replayed).map(o => `${o.origin} ${o.replayed} of ${o.recorded}`).join(', ')}`,
        f(r).bodyBytesRatio === null ? '–' : `${f(r).bodyBytesRatio.toFixed(3)}×`, f(r).origins.map(conns).join('; ')])
    })
  }
  return [...out, ...siteTables(rows).map(t => ({ ...t, title: `Replay: ${t.title}` }))]
}

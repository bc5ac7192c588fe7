'use strict'

// replay's tables (bench/experiments/replay.js): first what was replayed (the HAR: file, when it was recorded,
// its pages; what its archive assumed), then per row what the replay served and the requests the recording
// lacked, then site's tables of the loads (bench/report/tables/site.js), each page's a replay of that HAR.
const siteTables = require('./site')

module.exports = function tables (rows) {
  const withReplay = rows.filter(r => r.replay)
  if (!withReplay.length) return siteTables(rows)
  const hars = [...new Map(withReplay.map(r => [r.replay.har, r.replay])).values()]
  const out = hars.map(h => ({
    title: `Replay of ${h.har}: recorded ${h.recordedAt || 'at an unknown time'} (${h.source === 'h2bench' ? 'h2bench record' : 'a HAR without h2bench\'s fields, as DevTools saves one'}), ${h.pages.length} page${h.pages.length === 1 ? '' : 's'}, ${h.entries} entries for the replay to serve from loopback as recorded`,
    head: ['pages', 'assumed'],
    body: [[h.pages.join(', '), h.assumed.length ? h.assumed.join('; ') : 'nothing: the recorder\'s own fields']]
  }))
  out.push({
    title: 'What the replay served per load: its server, the recorded entries it answered (median per load), and the requests nothing was recorded for (answered 404; over the row\'s loads, the first few named)',
    head: ['page', 'forced', 'view', 'server', 'entries served', 'misses', 'missed'],
    body: withReplay.map(r => [r.replay.page, r.lane, r.mode, r.replay.server, r.replay.served ?? '–', r.replay.misses, r.replay.missed.join(', ') || '–'])
  })
  return [...out, ...siteTables(rows).map(t => ({ ...t, title: `Replay: ${t.title}` }))]
}

'use strict'

// corpus's tables (bench/experiments/corpus.js): first the pages generated (each HAR's requests, bytes and link),
// then replay's (bench/report/tables/replay.js: what the replay served per load, h3 against h2e (one Caddy) and the
// references h2 and h2-spdy per cell and view, its fidelity, site's tables of the loads).
const replayTables = require('./replay')

module.exports = function tables (rows) {
  const cells = [...new Map(rows.map(r => [r.cell, r])).values()]
  const pages = {
    title: 'The generated pages (bench/corpus/: HTTP Archive / Web Almanac 2022 distributions, docs/corpus.md), one cell each behind each link',
    head: ['cell', 'link', 'HAR', 'requests', 'body bytes'],
    body: cells.map(r => [r.preset, r.linkSpec || '–', r.replay ? r.replay.har : '–', r.replay && r.replay.fidelity ? r.replay.fidelity.recordedRequests : '–', r.replay && r.replay.fidelity ? r.replay.fidelity.recordedBodyBytes : '–'])
  }
  return [pages, ...replayTables(rows)]
}

'use strict'

// h3-hol's table (bench/experiments/h3-hol.js): the completion times of the requests within a batch.
const ok = r => r && r.samples.length > 0 && r.failures === 0 && r.hol && r.hol.p10 !== null
const s = v => v === null || v === undefined ? '–' : `${(v / 1000).toFixed(2)} s`

// The h3-hol experiment's tables under its main one (bench/report/runner/report-sections.js): [{ title, head, body }].
module.exports = function tables (rows) {
  const body = rows.filter(ok).sort((a, b) => a.hol.lossPct - b.hol.lossPct || a.lane.localeCompare(b.lane)).map(r => [
    `${r.hol.lossPct} %`, r.lane, r.protocol || '–', s(r.median), s(r.hol.firstMs), s(r.hol.p10), s(r.hol.p50), s(r.hol.p90), s(r.hol.spreadMs), String(r.hol.batches), r.ccSeen || '–'])
  return [{
    title: 'Completion times of the requests within a batch (medians over the batches; from the batch start)',
    head: ['loss', 'lane', 'protocol', 'batch time', 'first request done', 'p10', 'p50', 'p90', 'p90 − p10', 'batches', 'congestion control (server sockets)'],
    body
  }]
}

'use strict'

// The runner's rows through the verdict engine (shared/verdict.js, the
// page's own): each row against its baseline (h1, or request for push) in
// its cell, with the engine's ratio, 95 % interval, runs, verdict, flags and
// sentence; and each row's workload, as the engine compares it with a
// source's: { tool, connections, streams (per connection), pipelining
// (HTTP/1.1 requests in flight per connection), requests, bytes, state }.
const { compare, compareSlowdowns, RULES } = require('../../../shared/verdict')

const { loadWorkload } = require('../../cells/load-workload')

// A page row's: the h2bench page's batch in the browser, after a warm-up that
// opened its connections (six for HTTP/1.1, one for HTTP/2 and 3).
function pageWorkload (row) {
  const n = row.params.requests
  const h1 = /^http\/1/.test(row.protocol || '') || (!row.protocol && row.lane === 'h1')
  return {
    tool: row.browser || 'chromium',
    connections: h1 ? Math.min(6, n) : 1,
    streams: h1 ? 1 : n,
    pipelining: 1,
    requests: n,
    bytes: n * (row.params.sizeBytes || 0),
    state: 'warm'
  }
}

const whole = v => v === null || v === undefined ? null : Math.round(v)

// A site row's (bench/cells/site-url.js): the browser's load of the page, as its HARs counted it (medians per load).
function siteWorkload (row) {
  return {
    tool: row.browser || 'chromium',
    connections: whole(row.site.newConnections),
    streams: null,
    pipelining: 1,
    requests: whole(row.site.requests),
    bytes: whole(row.site.bytes),
    state: row.mode === 'cold' ? 'cold' : 'warm (repeat view: cache, TLS sessions and open connections)'
  }
}

// A ttfb row's (bench/cells/h3-ttfb.js): one request for an empty response on a new connection, cold (no session
// ticket) or on a repeat visit (the session cache kept: the client may resume, and send 0-RTT over QUIC). The state
// is what the cell asked for, not what the handshake did: the ttfb table counts resumptions and 0-RTT per row.
function ttfbWorkload (row) {
  return { tool: row.browser || 'chromium', connections: 1, streams: 1, pipelining: 1, requests: 1, bytes: 0, state: row.mode === 'repeat' ? 'resumed' : 'cold' }
}

// A site-page row's (bench/cells/site-page.js): a navigation to the lane's /site page of `size` bytes, as a returning
// visitor (an untimed first visit left TLS session tickets and QUIC tokens) on new connections, nothing from a cache.
function sitePageWorkload (row) {
  return { tool: row.browser || 'chromium', connections: null, streams: null, pipelining: 1, requests: null, bytes: row.params.sizeBytes, state: 'resumed' }
}

// → the row's workload, or null for kinds that do not record one (rest: its visits differ by scenario).
// hol's batch is the page's (bench/kinds/hol.js).
function workloadOf (row) {
  if (row.load && row.load.command) return loadWorkload(row)
  if (row.site) return siteWorkload(row)
  if (row.ttfb) return ttfbWorkload(row)
  if (row.resources !== undefined && row.responseStartMedian !== undefined) return sitePageWorkload(row)
  if (row.experiment && row.params && row.params.requests && !row.rest && row.mode === null) return pageWorkload(row)
  return null
}

// The engine's side of a row: its samples in the order they ran; runs left
// out (failed) counted where the row says how many; the round of each sample
// where the row's sides ran in turn within rounds (`rounds`: bench:page's
// pairs), which pairs them with another such row's.
function sideOf (row, name) {
  return { name, samples: row.samples, failed: row.runsLeftOut || 0, workload: workloadOf(row), ...(row.rounds ? { rounds: row.rounds } : {}) }
}

const seriesName = row => row.mode ? `${row.lane} ${row.mode}` : row.lane

// What results.json keeps of a comparison: everything a reader needs to check the sentence.
function comparisonRecord (c) {
  const num = v => Number.isFinite(v) ? +v.toFixed(4) : null
  return {
    against: c.a,
    verdict: c.verdict,
    ratio: num(c.ratio),
    low: num(c.low),
    high: num(c.high),
    runs: c.n,
    failed: c.failed,
    flags: c.flags,
    sentence: c.sentence
  }
}

// `base` against `row` (the row's median over the base's is c.ratio's inverse:
// the engine says how many times faster `row` is than `base`).
function compareRows (base, row, options = {}) {
  return compare(sideOf(base, seriesName(base)), sideOf(row, seriesName(row)), options)
}

// How a change (loss on the link) slows two rows down, each against its own
// row without it, by the engine's compareSlowdowns ('faster': b suffers less).
// `pick` reads the samples of a row (default: its samples).
function compareRowSlowdowns ([a0, a], [b0, b], pick = r => r.samples) {
  const side = (r0, r) => ({ name: seriesName(r), before: pick(r0) || [], after: pick(r) || [], failed: r.runsLeftOut || 0 })
  return compareSlowdowns(side(a0, a), side(b0, b))
}

module.exports = { compareRows, compareRowSlowdowns, comparisonRecord, workloadOf, loadWorkload, pageWorkload, RULES }

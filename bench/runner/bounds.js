'use strict'

// The physical lower bound of a runner cell on its network: no client, server
// or protocol can finish the workload faster on that link. It is
//   max( one round + every byte through the bottleneck,
//        the rounds one connection must wait in turn, each with its own bytes )
// where a round is one RTT plus the server's delay. The connections are warm
// (the page warms up min(N, 6) of them; push loads open theirs before
// timing), so handshakes are not in it. Bytes are counted as they cross the
// link: body + about 250 bytes of response headers, + through a link the TCP/IP headers of
// 1,500-byte packets (1,448 bytes of payload each, TCP timestamps on) and
// TLS's 22 bytes per 16 KiB record. Slow start, loss and the request bytes
// are left out on purpose: a bound must never be above what a perfect
// transfer could do, and how far a measurement stays above it is the point.
//
// Both kinds of network are given a bound, each with its own numbers: a
// link's RTT and downlink rate, a DevTools preset's per-request latency and
// throughput. DevTools holds each response until `latency` after its request
// went out, so the server's delay hides inside that latency instead of adding
// to it: a DevTools round is max(latency, delay), a link's RTT + delay.

const { presetByName, toCdp } = require('../../link/devtools-presets')
const { parseLinkSpec } = require('../../link/spec')

const HEADER_BYTES = 250
const WIRE = (1500 / 1448) * (1 + 22 / 16384)
const BROWSER_CONNECTIONS = 6
const PAGE_BYTES = 1200 // the /push page itself, about

// { rttMs, downBitsPerSecond|null } of a row's network.
function networkNumbers (row) {
  if (row.network === 'link') {
    const link = parseLinkSpec(row.linkSpec || linkSpecFor(row.preset))
    const rttMs = (link.up.delayUs + link.down.delayUs) / 1000
    const rate = link.down.rateBps || (link.down.trace ? link.down.trace.meanBitsPerSecond : null)
    return { rttMs, downBitsPerSecond: rate }
  }
  const cdp = toCdp(presetByName(row.preset))
  return { rttMs: cdp.latency, downBitsPerSecond: cdp.downloadThroughput > 0 ? cdp.downloadThroughput * 8 : null }
}

// The link preset a DevTools preset's cell runs on (same name, same numbers).
function linkSpecFor (presetName) {
  return presetName === 'No throttling' ? 'none' : presetName
}

// Bytes a response costs on the network: through a link, every IP packet; under
// DevTools, which meters what the network service receives, body and headers.
const wireBytes = (bodyBytes, network = 'link') => (bodyBytes + HEADER_BYTES) * (network === 'link' ? WIRE : 1)

// → { ms, latencyMs, bandwidthMs, rounds, rttMs, downBitsPerSecond, bytes } or null when the row is not a kind we model.
function boundOf (row, kind) {
  const { rttMs, downBitsPerSecond } = networkNumbers(row)
  const p = row.params
  const wire = body => wireBytes(body, row.network === 'link' ? 'link' : 'devtools')
  const delay = p.delayMs || 0
  const size = p.sizeBytes || 0
  const ms = bytes => downBitsPerSecond ? bytes * 8 / downBitsPerSecond * 1000 : 0
  let rounds, bytes, perConnection
  if (kind === 'page') {
    const n = p.requests
    const h1 = row.protocol ? /^http\/1/.test(row.protocol) : row.lane === 'h1'
    rounds = h1 ? Math.ceil(n / BROWSER_CONNECTIONS) : 1
    bytes = n * wire(size)
    perConnection = rounds * wire(size)
  } else if (kind === 'push-page' || kind === 'push-protocol') {
    const n = p.assets
    const pushed = row.mode === 'push' && (row.pushed === undefined ? !/refused|cannot/.test(row.pushOutcome || '') : row.pushed > 0)
    rounds = pushed ? 1 : 2 // the page, then (unless pushed) its scripts
    bytes = wire(PAGE_BYTES) + n * wire(size)
    perConnection = bytes
  } else if (kind === 'rest' && row.rest) {
    // A REST visit (bench/cells/rest.js): the collection (links: ~60 B per item), then the items not in the
    // cache (a fresh hit costs nothing; a 304 costs a round trip and no body); compound: one response.
    const n = p.requests
    const compound = row.mode === 'compound'
    const pushed = /push-protocol/.test(row.mode || '') && row.pushed > 0
    const h1 = row.protocol ? /^http\/1/.test(row.protocol) : row.lane === 'h1'
    const fetched = compound || pushed ? 0 : Math.max(0, Math.round(row.rest.network || 0) - 1)
    const bodies = compound ? n : fetched - Math.round(row.rest.revalidated || 0) + (pushed ? n : 0)
    rounds = compound || pushed ? 1 : fetched === 0 ? 1 : 1 + (h1 ? Math.ceil(fetched / BROWSER_CONNECTIONS) : 1)
    bytes = wire(n * 60) + Math.max(0, bodies) * wire(size) + Math.max(0, fetched - Math.max(0, bodies)) * wire(0)
    perConnection = h1 ? wire(n * 60) + Math.ceil(fetched / BROWSER_CONNECTIONS) * wire(size) : bytes
  } else {
    return null
  }
  const roundMs = row.network === 'link' ? rttMs + delay : Math.max(rttMs, delay)
  const streamMs = roundMs + ms(bytes)
  const serialMs = rounds * roundMs + ms(perConnection)
  return {
    ms: Math.max(streamMs, serialMs),
    latencyMs: rounds * roundMs,
    bandwidthMs: ms(bytes),
    rounds,
    rttMs,
    downBitsPerSecond,
    bytes: Math.round(bytes)
  }
}

// How close a measured median came to its bound, naming the dominant cost:
// "bandwidth-bound: 97 % of the link's rate", "latency-bound: 5 round trips".
function closeness (row, kind) {
  if (row.median === null || !row.samples || !row.samples.length) return null
  const b = boundOf(row, kind)
  if (!b) return null
  const ofBound = b.ms / row.median
  let dominant
  if (b.downBitsPerSecond && b.bandwidthMs >= b.latencyMs) {
    const rate = b.bytes * 8 / (row.median / 1000) / b.downBitsPerSecond
    dominant = `bandwidth-bound: ${Math.round(rate * 100)} % of the ${row.network === 'link' ? "link's" : "preset's"} rate`
  } else {
    dominant = `latency-bound: ${b.rounds} round trip${b.rounds === 1 ? '' : 's'} of ${+b.rttMs.toFixed(1)} ms` +
      (row.params.delayMs ? ` + ${row.params.delayMs} ms server delay` : '')
  }
  return { boundMs: +b.ms.toFixed(1), ofBound: +ofBound.toFixed(3), dominant }
}

module.exports = { boundOf, closeness, linkSpecFor, networkNumbers, wireBytes, HEADER_BYTES, WIRE }

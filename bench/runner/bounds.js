'use strict'

// The physical lower bound of a runner cell on its network: no client, server
// or protocol can finish the workload faster on that link. It is
//   max( one round + every byte through the bottleneck,
//        the rounds one connection must wait in turn, each with its own bytes )
// where a round is one RTT plus the server's delay. The page's connections
// are warm (the page warms up min(N, 6) of them; push loads open theirs
// before timing), so handshakes are not in its bound; a load tool's are new
// every run, so theirs are (QUIC 1 round trip, TCP + TLS 1.3 2). The link's
// shortest round trip counts (its delays less their jitter). Bytes are counted as they cross the
// link: every body, and per response the fewest header bytes its protocol
// can send (HEADER_BYTES: HTTP/1.1 250, below the 387-429 bytes the app's
// responses carry; HTTP/2 10, a HEADERS frame's 9-byte header and one indexed
// :status, as HPACK sends a repeated response; HTTP/3 5, the same in QPACK),
// + through a link the TCP/IP headers of 1,500-byte packets (1,448 bytes of
// payload each, TCP timestamps on) and TLS's 22 bytes per 16 KiB record.
// Slow start, loss, frame headers and the request bytes are left out on
// purpose: a bound must never be above what a perfect transfer could do, and
// how far a measurement stays above it is the point. A measurement below its
// bound is an instrument error (the bound's numbers or the timer), never a
// result: closeness() says so.
//
// Both kinds of network are given a bound, each with its own numbers: a
// link's RTT and downlink rate, a DevTools preset's per-request latency and
// throughput. DevTools holds each response until `latency` after its request
// went out, so the server's delay hides inside that latency instead of adding
// to it: a DevTools round is max(latency, delay), a link's RTT + delay.

const { presetByName, toCdp, linkSpecFor } = require('../../link/devtools-presets')
const { parseLinkSpec } = require('../../link/spec')
const { itemPath } = require('../../server/routes/api')
const { composition } = require('../../server/routes/site')
const { loadWorkload, turnsOf } = require('./compare-rows')

// The fewest bytes of response headers each protocol can send (see above);
// test/bench/bounds.test.js checks HTTP/1.1's against the app's real responses.
const HEADER_BYTES = Object.freeze({ 'http/1.1': 250, h2: 10, h3: 5 })
const MIN_HEADER_BYTES = Math.min(...Object.values(HEADER_BYTES))
const WIRE = (1500 / 1448) * (1 + 22 / 16384)
const BROWSER_CONNECTIONS = 6
const PAGE_BYTES = 1200 // the /push page itself, about

// { rttMs, downBitsPerSecond|null } of a row's network.
function networkNumbers (row) {
  // A site's row (experiment site): the real path, its round trip the shortest TCP connect measured, its rate unknown.
  if (row.site) return { rttMs: row.site.rttMs, downBitsPerSecond: null }
  if (row.network === 'link') {
    const link = parseLinkSpec(row.linkSpec || linkSpecFor(row.preset))
    // The shortest round trip the link allows: its jitter is uniform ± around the delay (link/forwarder).
    const rttMs = (link.up.delayUs - link.up.jitterUs + link.down.delayUs - link.down.jitterUs) / 1000
    const rate = link.down.rateBps || (link.down.trace ? link.down.trace.meanBitsPerSecond : null)
    return { rttMs, downBitsPerSecond: rate }
  }
  const cdp = toCdp(presetByName(row.preset))
  return { rttMs: cdp.latency, downBitsPerSecond: cdp.downloadThroughput > 0 ? cdp.downloadThroughput * 8 : null }
}

// The fewest header bytes of one response on `protocol` (a row's: 'http/1.1',
// 'h2', 'h3'); unknown: the fewest of any.
const headerBytesOf = protocol => HEADER_BYTES[protocol] ?? MIN_HEADER_BYTES

// Bytes a response costs on the network: through a link, every IP packet; under
// DevTools, which meters what the network service receives, body and headers.
const wireBytes = (bodyBytes, network = 'link', protocol) => (bodyBytes + headerBytesOf(protocol)) * (network === 'link' ? WIRE : 1)

// The fewest bytes of a REST collection's links to n items (server/routes/api.js:
// {"href":"<itemPath>"}, one per item), with the shortest cache word and no tag.
function restLinkBytes (n, size) {
  let bytes = 0
  for (let id = 1; id <= n; id++) bytes += `{"href":"${itemPath(id, { size, cache: 'none' })}"},`.length
  return bytes
}

// → { ms, latencyMs, bandwidthMs, rounds, rttMs, downBitsPerSecond, bytes } or null when the row is not a kind we model.
function boundOf (row, kind) {
  const { rttMs, downBitsPerSecond } = networkNumbers(row)
  const p = row.params
  const protocol = row.protocol || (row.lane === 'h1' ? 'http/1.1' : null)
  const wire = body => wireBytes(body, row.network === 'link' ? 'link' : 'devtools', protocol)
  const delay = p.delayMs || 0
  const size = p.sizeBytes || 0
  const ms = bytes => downBitsPerSecond ? bytes * 8 / downBitsPerSecond * 1000 : 0
  let rounds, bytes, perConnection
  if (kind === 'page' || kind === 'hol') {
    // The page's batch (hol: the same batch, through a lossy link).
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
    // A REST visit (bench/cells/rest.js): the collection (its links), then the items not in the cache (a
    // fresh hit costs nothing; a 304 costs a round trip and headers, no body); compound: one response,
    // the links and every item in it.
    const n = p.requests
    const compound = row.mode === 'compound'
    const pushed = /push-protocol/.test(row.mode || '') && row.pushed > 0
    const h1 = row.protocol ? /^http\/1/.test(row.protocol) : row.lane === 'h1'
    const fetched = compound || pushed ? 0 : Math.max(0, Math.round(row.rest.network || 0) - 1)
    const bodies = compound ? n : fetched - Math.round(row.rest.revalidated || 0) + (pushed ? n : 0)
    rounds = compound || pushed ? 1 : fetched === 0 ? 1 : 1 + (h1 ? Math.ceil(fetched / BROWSER_CONNECTIONS) : 1)
    const links = restLinkBytes(n, size)
    bytes = compound
      ? wire(links + n * size)
      : wire(links) + Math.max(0, bodies) * wire(size) + Math.max(0, fetched - Math.max(0, bodies)) * wire(0)
    perConnection = h1 && !compound ? wire(links) + Math.ceil(fetched / BROWSER_CONNECTIONS) * wire(size) : bytes
  } else if (kind === 'site-page') {
    // A navigation to /site (server/routes/site.js) on a new connection (the cell closes them after
    // every load): the document, then its subresources; the handshake as short as the protocol allows
    // a returning client: QUIC's 0-RTT none, TCP's SYN one (no TCP Fast Open; TLS 1.3 could send the
    // request as early data); every response's bytes. h3-common.js's pageBoundMs is this for every lane.
    const parts = composition(size).length
    rounds = protocol === 'h3' ? 2 : 3
    bytes = (size + parts * headerBytesOf(protocol)) * (row.network === 'link' ? WIRE : 1)
    perConnection = bytes
  } else if (kind === 'site-url' && row.site) {
    // A load of a site of the user's (bench/cells/site-url.js): nothing is known of the page's chain of
    // requests, so the bound is the document's first byte: the round trips a new connection cannot
    // avoid (TCP's and TLS 1.3's handshakes and the request; QUIC's handshake and the request), one
    // for a repeat view, which may find its connection open (site-url.js ROUNDS); its rate is unknown.
    // Its rounds only: a load whose document came from the cache (0 rounds) needs no round trip at all, so
    // the general form's one round for streaming the bytes does not hold.
    if (row.site.rttMs === null || row.site.rttMs === undefined) return null
    const latencyMs = row.site.ttfbRounds * rttMs
    return { ms: latencyMs, latencyMs, bandwidthMs: 0, rounds: row.site.ttfbRounds, rttMs, downBitsPerSecond, bytes: Math.round(row.site.bytes || 0) }
  } else if (kind === 'load' && row.load && row.load.command) {
    // A load tool's run (bench/cells/load.js): every connection new (a new process: no session to
    // resume, no 0-RTT, no TCP Fast Open), so its handshake is in the bound: QUIC's one round trip, or
    // TCP's and TLS 1.3's two, before the first request; then its share of the requests, as many at a
    // time as it keeps in flight (streams, or HTTP/1.1 pipelining); ab (no -k) opens a connection for
    // every request. Runs in turn (compare-rows.js turnsOf: each run that many runs of the tool, one
    // after another) wait for each other: their rounds and their bytes add up.
    const w = loadWorkload(row)
    if (!w.requests || !w.connections) return null
    const turns = turnsOf(row)
    const shake = row.protocol === 'h3' ? 1 : 2
    const share = Math.ceil(w.requests / w.connections)
    const depth = Math.max(1, w.streams || 1, w.pipelining || 1)
    rounds = (w.tool === 'ab' ? share * (shake + 1) : shake + Math.ceil(share / depth)) * turns
    bytes = w.requests * wire(size)
    perConnection = share * wire(size) * turns
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

const kilobytes = bytes => bytes >= 1e6 ? `${(bytes / 1e6).toFixed(2)} MB` : `${Math.round(bytes / 1000)} KB`
const megabits = bps => `${+(bps / 1e6).toPrecision(3)} Mbit/s`

// How close a measured median came to its bound, and which part of the bound
// is the larger: "bandwidth: 296 KB through the link's 20 Mbit/s, 0.118 s of
// the bound", "latency: 5 round trips of 100 ms". That part is the bound's, not a measured cost: where the median is
// more than twice the bound, most of the time went to something the bound
// does not hold (CPU, slow start, loss), and the sentence says so. A sample
// below the bound is an instrument error (the bound's numbers or the timer is
// wrong): `instrumentError` names it, and the report puts it first.
// → { boundMs, ofBound, dominant, instrumentError: null | 'INSTRUMENT ERROR: …' }
function closeness (row, kind) {
  if (row.median === null || !row.samples || !row.samples.length) return null
  const b = boundOf(row, kind)
  if (!b) return null
  const ofBound = b.ms / row.median
  let dominant
  if (b.downBitsPerSecond && b.bandwidthMs >= b.latencyMs) {
    dominant = `bandwidth: ${kilobytes(b.bytes)} through the ${row.network === 'link' ? "link's" : "preset's"} ${megabits(b.downBitsPerSecond)}, ${(b.bandwidthMs / 1000).toFixed(3)} s of the bound`
  } else {
    dominant = `latency: ${b.rounds} round trip${b.rounds === 1 ? '' : 's'} of ${+b.rttMs.toFixed(1)} ms` +
      (row.params.delayMs ? ` + ${row.params.delayMs} ms server delay` : '')
  }
  if (ofBound < 0.5) dominant += `; ${Math.round((1 - ofBound) * 100)} % of the time is outside the bound (not the link's rate or round trips)`
  const below = row.samples.filter(v => v < b.ms)
  const instrumentError = below.length
    ? `INSTRUMENT ERROR: ${below.length} of ${row.samples.length} samples below the lower bound of ${(b.ms / 1000).toFixed(3)} s ` +
      `(fastest ${(Math.min(...below) / 1000).toFixed(3)} s): the bound's numbers or the timer is wrong, so this cell measures nothing`
    : null
  return { boundMs: +b.ms.toFixed(1), ofBound: +ofBound.toFixed(3), dominant, instrumentError }
}

module.exports = { boundOf, closeness, networkNumbers, wireBytes, headerBytesOf, restLinkBytes, HEADER_BYTES, WIRE }

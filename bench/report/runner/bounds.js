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

// Each kind of cell gives its own bound (bench/kinds/<kind>.js bound(row): its rounds and bytes);
// the numbers they are made of and the general form above: bench/kinds/bound-form.js.
const { KINDS } = require('../../kinds')
const { networkNumbers, wireBytes, headerBytesOf, restLinkBytes, HEADER_BYTES, WIRE } = require('../../kinds/bound-form')

// → { ms, latencyMs, bandwidthMs, rounds, rttMs, downBitsPerSecond, bytes } or null when the row is not a kind we model.
function boundOf (row, kind) {
  return Object.hasOwn(KINDS, kind) ? KINDS[kind].bound(row) : null
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

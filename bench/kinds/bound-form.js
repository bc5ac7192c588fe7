'use strict'

// What every kind's lower bound (its bound(row); the model: bench/report/runner/bounds.js) is made
// of, whatever the kind: the numbers of a row's network, the bytes a response costs on it,
// and the general form
//   max( one round + every byte through the bottleneck,
//        the rounds one connection must wait in turn, each with its own bytes )
// where a round is one RTT plus the server's delay (a DevTools round: max(latency, delay)).
// A kind says only its rounds and bytes (boundFrom). bounds.js passes these on to its callers.
const { presetByName, toCdp, linkSpecFor } = require('../../link/devtools-presets')
const { parseLinkSpec, rttMsOf } = require('../../link/spec')
const { itemPath } = require('../../server/routes/api')

// The fewest bytes of response headers each protocol can send (bounds.js says why);
// test/bench/bounds.test.js checks HTTP/1.1's against the app's real responses.
const HEADER_BYTES = Object.freeze({ 'http/1.1': 250, h2: 10, h3: 5 })
const MIN_HEADER_BYTES = Math.min(...Object.values(HEADER_BYTES))
// Through a link: the TCP/IP headers of 1,500-byte packets (1,448 bytes of payload each), TLS's 22 bytes per 16 KiB record.
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
    const rttMs = rttMsOf(link, { min: true })
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

// A row's protocol as its header bytes count it ('http/1.1' for the h1 lane when the row names none).
const protocolOf = row => row.protocol || (row.lane === 'h1' ? 'http/1.1' : null)
// Whether a row's requests went over HTTP/1.x (six connections of a browser, one request each at a time).
const isH1 = row => row.protocol ? /^http\/1/.test(row.protocol) : row.lane === 'h1'
// body bytes → the bytes one response of the row costs on its network.
const wireOf = row => body => wireBytes(body, row.network === 'link' ? 'link' : 'devtools', protocolOf(row))

// The general form, from a kind's `rounds`, every byte of the workload (`bytes`) and those of the connection
// that waits longest (`perConnection`): → { ms, latencyMs, bandwidthMs, rounds, rttMs, downBitsPerSecond, bytes }.
function boundFrom (row, { rounds, bytes, perConnection }) {
  const { rttMs, downBitsPerSecond } = networkNumbers(row)
  const delay = row.params.delayMs || 0
  const ms = b => downBitsPerSecond ? b * 8 / downBitsPerSecond * 1000 : 0
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

module.exports = {
  networkNumbers, headerBytesOf, wireBytes, restLinkBytes, protocolOf, isH1, wireOf, boundFrom,
  HEADER_BYTES, WIRE, BROWSER_CONNECTIONS, PAGE_BYTES
}

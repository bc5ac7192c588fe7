'use strict'

// One protocol per browser run, for measuring a site that is not ours (the
// runner's `site` experiment): the switches that leave a browser only
// HTTP/1.1, HTTP/2 at most, or HTTP/3 from the first request to the page's
// origin. The browser can still only speak what the server offers: a server
// without h2 answers an "h2" run over HTTP/1.1, which the run records (every
// request's protocol) and does not count as an h2 load.
//   Chromium: --disable-http2 (no h2 in ALPN), --disable-quic, and
//     --origin-to-force-quic-on=host:port (QUIC to that origin from the
//     first request, without waiting for an Alt-Svc answer over TCP).
//   Firefox: network.http.http2.enabled, network.http.http3.enable, and
//     network.http.http3.alt-svc-mapping-for-testing ("host;h3=:port": every
//     port of that host over QUIC to that port, from the first request).
const PROTOCOLS = ['h1', 'h2', 'h3']
const PROTOCOL_NAMES = { h1: 'HTTP/1.1', h2: 'HTTP/2', h3: 'HTTP/3' }
// What Resource Timing's nextHopProtocol and the DevTools protocols call each.
const WIRE_NAMES = { h1: 'http/1.1', h2: 'h2', h3: 'h3' }

const originPort = u => u.port || (u.protocol === 'https:' ? '443' : '80')

// Chromium's switches for `protocol` on the page at `url`.
function chromiumProtocolArgs (protocol, url) {
  const u = new URL(url)
  if (protocol === 'h1') return ['--disable-http2', '--disable-quic']
  if (protocol === 'h2') return ['--disable-quic']
  if (protocol === 'h3') return ['--enable-quic', `--origin-to-force-quic-on=${u.hostname}:${originPort(u)}`]
  throw new Error(`unknown protocol "${protocol}"; protocols are ${PROTOCOLS.join(', ')}`)
}

// Firefox's preferences for `protocol` on the page at `url`. `customCa`: the
// profile trusts a root of the user's own (--ca), which makes Firefox refuse
// HTTP/3 unless told otherwise.
function firefoxProtocolPrefs (protocol, url, { customCa = false } = {}) {
  const u = new URL(url)
  if (protocol === 'h1') return { 'network.http.http2.enabled': false, 'network.http.http3.enable': false }
  if (protocol === 'h2') return { 'network.http.http2.enabled': true, 'network.http.http3.enable': false }
  if (protocol === 'h3') {
    return {
      'network.http.http2.enabled': true,
      'network.http.http3.enable': true,
      'network.http.http3.alt-svc-mapping-for-testing': `${u.hostname};h3=:${originPort(u)}`,
      ...(customCa ? { 'network.http.http3.disable_when_third_party_roots_found': false } : {})
    }
  }
  throw new Error(`unknown protocol "${protocol}"; protocols are ${PROTOCOLS.join(', ')}`)
}

module.exports = { PROTOCOLS, PROTOCOL_NAMES, WIRE_NAMES, chromiumProtocolArgs, firefoxProtocolPrefs }

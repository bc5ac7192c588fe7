'use strict'

// The site and replay experiments' bound of a time to first byte (bench/cells/site-url.js ttfbBound) held to what it
// is measured with, on every link preset that delays: made as a site cell makes it (the shortest TCP connect from
// here to the server's address, less what a connect with no path costs here, plus the link's round trip less its
// jitter), one round trip's bound is never above a TCP connect from the link's namespace, which is one round trip
// (SYN, SYN-ACK) with the browser's place on the link. Issue 42 found a bound of 3 × 100.688 ms above a live
// cold load's 300.9 ms behind rtt=100ms: the path's connect timed this event loop's turn, which no round trip pays.
const assert = require('node:assert/strict')
const net = require('node:net')
const { LINK_PRESETS } = require('../../../link/presets')
const { parseLinkSpec, rttMsOf } = require('../../../link/spec')
const { connectTimes, connectOverheadMs } = require('../../../harness/remote-lanes')
const { ttfbBound } = require('../../../bench/cells/site-url')
const { runInside } = require('../../support/link-probe')
const { withLink, note, listen, closeServer, skipWithoutLink } = require('../../support/link-tests')

const delaying = LINK_PRESETS.filter(p => p.spec && rttMsOf(parseLinkSpec(p.spec, { traces: false })) > 0)

describe('the time-to-first-byte bound against TCP connects through the link, on every preset that delays', function () {
  this.timeout(180000)
  before(skipWithoutLink)

  it(`one round trip's bound is never above a connect from the browser's side (${delaying.length} presets)`, async () => {
    assert.ok(delaying.length >= 10, delaying.map(p => p.name).join(', '))
    for (const preset of delaying) {
      const spec = parseLinkSpec(preset.spec, { traces: false })
      await withLink(preset.spec, async link => {
        const server = net.createServer(socket => socket.destroy())
        const port = await listen(server, link.serverAddress)
        try {
          // As bench/cells/site-url.js measureSite makes it: the path from here, the link's part beside it.
          const path = await connectTimes(link.serverAddress, port)
          const linkMs = rttMsOf(spec, { min: true })
          const rtt = { minMs: Math.min(...path) + linkMs, pathMinMs: Math.min(...path), linkMs, overheadMs: await connectOverheadMs() }
          const one = ttfbBound(1, rtt, 'chromium')
          const { times } = await runInside(link, 'connect', { host: link.serverAddress, port, count: 3 })
          note(`${preset.name}: bound ${one.boundMs} ms a round trip (margin ${one.marginMs} ms), connects ${times.map(t => t.toFixed(2)).join(', ')} ms`)
          for (const t of times) assert.ok(t >= one.boundMs, `${preset.name}: a connect in ${t.toFixed(3)} ms, under the bound of ${one.boundMs} ms`)
          // Three round trips (TCP, TLS 1.3, the request): three connects in a row are never faster than its bound.
          assert.ok(times.reduce((a, b) => a + b, 0) >= ttfbBound(3, rtt, 'chromium').boundMs, preset.name)
        } finally {
          await closeServer(server)
        }
      })
    }
  })
})

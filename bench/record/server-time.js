'use strict'

// A recorded response's server time, measured alone (`npm run bench -- record`, after the pages have
// loaded). In the page, the time from a request sent to its first byte, less the round trip, is the
// server's time plus whatever held that response back on its connection: over HTTP/2 the bytes of the
// other responses ahead of it, on a loaded machine the browser's own delays. A replay that waited that
// long again would pay the contention twice (seen: a median of 38 ms, 136 ms at most, for the static
// files of a test's nginx and Caddy on loopback). So each recorded GET is asked once more from here, one
// at a time on one kept-alive HTTP/1.1 connection per origin (to the address the browser used, its
// recorded names as SNI and Host, its recorded request headers), and its first byte timed after the
// request is written, less the origin's round trip: what the server takes alone. The HAR keeps both
// (entry._h2bench.serverTimeInPageMs, serverTimeAloneMs) and serverTimeMs, what the replay waits, is the
// smaller. Certificates are not checked here: nothing received is kept, only its time.
const https = require('node:https')
const { performance } = require('node:perf_hooks')

// Request headers not sent again: HTTP/2's pseudo-headers, those of one connection, the length of a body not sent,
// and conditions and ranges (the recorder's cache is off, so it sends none; were one sent, the time timed would be a
// 304's or a part's, and the replay would answer the whole response that fast).
const SKIPPED = /^(:|connection$|keep-alive$|host$|content-length$|transfer-encoding$|upgrade$|te$|if-|range$)/i
const ALONE_TIMEOUT_MS = 10000

// One GET on `agent` → { ms (written to the first byte), reused (on a kept connection) } or null (an error).
function timedGet (agent, target, path, headers) {
  return new Promise(resolve => {
    const req = https.request({
      agent, host: target.address, port: target.port, servername: target.host, path, method: 'GET', headers, rejectUnauthorized: false, timeout: ALONE_TIMEOUT_MS
    })
    let sent = null
    req.on('finish', () => { sent = performance.now() })
    req.on('response', res => {
      const ms = sent === null ? null : performance.now() - sent
      res.resume()
      res.on('end', () => resolve(ms === null ? null : { ms, reused: req.reusedSocket }))
      res.on('error', () => resolve(null))
    })
    req.on('timeout', () => req.destroy(new Error('timeout')))
    req.on('error', () => resolve(null))
    req.end()
  })
}

// har (the recorder's, with log._h2bench.origins) → how many entries were timed alone; each timed entry's
// _h2bench gets serverTimeInPageMs, serverTimeAloneMs and serverTimeMs the smaller. Origins in parallel,
// each one's GETs in turn; `deadlineMs`: no new request after this long.
async function timeServersAlone (har, { log = () => {}, deadlineMs = 60000 } = {}) {
  const until = Date.now() + deadlineMs
  const origins = har.log._h2bench.origins
  let timed = 0
  await Promise.all(origins.map(async o => {
    if (!o.address || o.rttMs === null || o.rttMs === undefined) return
    const entries = har.log.entries.filter(e => e._h2bench && e._h2bench.origin === o.origin && e.request.method === 'GET' && e._h2bench.serverTimeMs !== null)
    if (!entries.length) return
    const agent = new https.Agent({ keepAlive: true, maxSockets: 1 })
    const target = { address: o.address, port: o.port, host: o.host }
    try {
      for (const [i, e] of entries.entries()) {
        if (Date.now() > until) break
        const u = new URL(e.request.url)
        const headers = Object.fromEntries(e.request.headers.filter(h => !SKIPPED.test(h.name)).map(h => [h.name.toLowerCase(), h.value]))
        headers.host = u.host
        // The first on a new connection carries its handshakes: asked again, on the kept one.
        let got = await timedGet(agent, target, u.pathname + u.search, headers)
        if (got && !got.reused && i === 0) got = await timedGet(agent, target, u.pathname + u.search, headers)
        if (!got || !got.reused) continue
        const alone = Math.max(0, +(got.ms - o.rttMs).toFixed(3))
        const f = e._h2bench
        f.serverTimeInPageMs = f.serverTimeMs
        f.serverTimeAloneMs = alone
        f.serverTimeMs = Math.min(f.serverTimeMs, alone)
        timed++
      }
    } finally {
      agent.destroy()
    }
  }))
  log(`  server times: ${timed} of ${har.log.entries.length} responses asked again alone (one at a time per origin, HTTP/1.1 kept alive); each one's the smaller of that and the page's`)
  return timed
}

module.exports = { timeServersAlone }

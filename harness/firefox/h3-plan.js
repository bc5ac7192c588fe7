'use strict'

// How Firefox comes to use HTTP/3 for the h3 lanes: mapped to QUIC by a
// preference from the first request where it can be (h3Plan), else learnt
// from the lane's own Alt-Svc before the browser is handed over (learnH3).
const http = require('node:http')
const debug = require('debug')('h2bench:firefox')

const LEARN_TRIES = 6

// Firefox's way to reach an origin over QUIC from its first request is the
// pref network.http.http3.alt-svc-mapping-for-testing ("host;h3=:port"), but
// it maps a host, every port of it: with other lanes on the same address it
// would send those over HTTP/3 to the h3 lane's port too (Caddy answers them).
// So an h3 lane is mapped only when no other lane shares its host; the
// others learn HTTP/3 from the lane's own Alt-Svc (its TCP answers carry
// it), which launchFirefox fetches once before handing the browser over.
// → { mapping (the pref's value, '' for none), learn: [lanes] }
function h3Plan (lanes = []) {
  const hostOf = lane => new URL(lane.url).hostname
  const h3 = lanes.filter(l => l.protocol === 'h3' && l.url)
  const shared = host => lanes.some(l => l.url && l.protocol !== 'h3' && hostOf(l) === host)
  const mapped = h3.filter(l => !shared(hostOf(l)))
  return {
    mapping: mapped.map(l => `${hostOf(l)};h3=:${new URL(l.url).port || 443}`).join(','),
    learn: h3.filter(l => shared(hostOf(l)))
  }
}

// What Firefox learns from an Alt-Svc it keeps per network partition, the
// site of the top-level page (privacy.partition.network_state): learnt on
// the lane's own page (https://host:port), it does not reach the h2bench page
// (http://host:port, another scheme, another site), whose first requests to
// the lane then went over TCP (behind a 100 ms link: the first 2 of 10 in
// each of 6 launches; in docs/study-rest at dd6176c, every Firefox h3 row).
// So each lane is learnt twice: on its own page (top-level loads, as a user
// opening the lane sees it) and from a blank page served over plain HTTP on
// the lane's host (fetches, as the h2bench page on that host makes them).
// Loads each of `lanes` (h3 lanes sharing their host with other lanes) until
// Firefox reaches it over HTTP/3, each way at most LEARN_TRIES times, then
// leaves the page blank. → { lane name: the protocol of the last fetch from
// the plain HTTP page ('h3' when learnt), or of the lane's own page when that
// failed }.
async function learnH3 (page, lanes) {
  const learnt = {}
  for (const lane of lanes) {
    let protocol = await untilH3(async () => {
      await page.goto(`${lane.url}/`, { timeout: 30000 })
      return page.evaluate(() => performance.getEntriesByType('navigation')[0].nextHopProtocol)
    })
    if (!protocol.startsWith('failed')) {
      const blank = await servePlainPage(new URL(lane.url).hostname)
      try {
        await page.goto(blank.url, { timeout: 30000 })
        protocol = await untilH3(() => page.evaluate(async url => {
          const u = `${url}/option?size=0&learn-h3=${Math.random()}`
          await (await fetch(u, { cache: 'no-store' })).text()
          const entry = performance.getEntriesByName(u)[0]
          return entry ? entry.nextHopProtocol : 'no timing'
        }, lane.url))
      } finally {
        await blank.close()
      }
    }
    learnt[lane.name] = protocol
    debug('h3 lane %s: %s', lane.name, protocol)
  }
  if (lanes.length) await page.goto('about:blank').catch(() => {})
  return learnt
}

// Calls `load` (→ the protocol it went over) until it says h3, at most
// LEARN_TRIES times, waiting a little longer each time. → that protocol, or
// 'failed: …' (unreachable or untrusted: no use trying again).
async function untilH3 (load) {
  let protocol = null
  for (let i = 0; i < LEARN_TRIES && protocol !== 'h3'; i++) {
    if (i) await new Promise(resolve => setTimeout(resolve, 100 * i))
    try {
      protocol = await load()
    } catch (err) {
      return `failed: ${err.message.split('\n')[0]}`
    }
  }
  return protocol
}

// A blank page over plain HTTP on `host` (a lane's hostname, as URL gives it:
// an IPv6 address in brackets), on a free port: the h2bench page's site.
// → { url, close() }
function servePlainPage (host) {
  const server = http.createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' })
    res.end('<!doctype html><title>h2bench: learning HTTP/3</title>')
  })
  return new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, host.replace(/^\[|\]$/g, ''), () => {
      server.off('error', reject)
      resolve({
        url: `http://${host}:${server.address().port}/`,
        close: () => new Promise(resolve => { server.close(() => resolve()); server.closeAllConnections() })
      })
    })
  })
}

module.exports = { h3Plan, learnH3 }

'use strict'

// How Firefox comes to use HTTP/3 for the h3 lanes: mapped to QUIC by a
// preference from the first request where it can be (h3Plan), else learnt
// from the lane's own Alt-Svc before the browser is handed over (learnH3).
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

// Loads each of `lanes` (h3 lanes sharing their host with other lanes) until
// Firefox reaches it over HTTP/3, having learnt that from the lane's Alt-Svc
// (at most LEARN_TRIES loads), then leaves the page blank. → { lane name:
// the protocol of its last load } ('h3' when learnt).
async function learnH3 (page, lanes) {
  const learnt = {}
  for (const lane of lanes) {
    let protocol = null
    for (let i = 0; i < LEARN_TRIES && protocol !== 'h3'; i++) {
      if (i) await new Promise(resolve => setTimeout(resolve, 100 * i))
      try {
        await page.goto(`${lane.url}/`, { timeout: 30000 })
        protocol = await page.evaluate(() => performance.getEntriesByType('navigation')[0].nextHopProtocol)
      } catch (err) {
        protocol = `failed: ${err.message.split('\n')[0]}` // unreachable or untrusted: no use trying again
        break
      }
    }
    learnt[lane.name] = protocol
    debug('h3 lane %s: %s', lane.name, protocol)
  }
  if (lanes.length) await page.goto('about:blank').catch(() => {})
  return learnt
}

module.exports = { h3Plan, learnH3 }

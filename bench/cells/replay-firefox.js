'use strict'

// The replay in Firefox, its plain logic (no browser, no server): Chromium is sent to the replay's addresses by
// --host-resolver-rules (replay-plan.js replayChromiumArgs); Firefox has no such switch, so it gets a hosts file of
// the recorded names at the replay's addresses, bind-mounted over /etc/hosts in a mount namespace of its own
// (harness/firefox/hosts.js; launchFirefox's `hosts`), and the protocol forced by preferences as the site
// experiment forces it (harness/force-protocol.js firefoxProtocolPrefs), HTTP/3 mapped for every recorded origin
// from its first request. bench/cells/replay.js uses it.
const net = require('node:net')
const { firefoxProtocolPrefs } = require('../../harness/force-protocol')

// Why a replay cannot be given to Firefox by a hosts file: a hosts file maps a name to addresses, every port alike,
// and cannot move a port or name an IP address. → an Error saying which origin, or null.
function hostsRefusal (replay) {
  const origins = (replay.plan || replay).origins // the plan's know the recorded port (recordedPort) too
  for (const o of origins) {
    if (net.isIP(o.host)) return new Error(`${o.origin} is an IP address: a hosts file cannot send it to the replay (Chromium only)`)
    const other = origins.find(x => x.host === o.host && x.address !== o.address)
    if (other) return new Error(`${o.origin} and ${other.origin} are replayed at two addresses (${o.address}, ${other.address}): a hosts file maps a name, every port alike (Chromium only)`)
    if (o.recordedPort !== undefined && o.recordedPort !== o.port) return new Error(`${o.origin} is replayed on port ${o.port}: a hosts file cannot move a port (Chromium only)`)
  }
  return null
}

// A started replay's (server/replay/serve.js startReplay) origins → launchFirefox's `hosts`: [{ address, names }],
// each replay address with the recorded names it serves, in the replay's order. Throws hostsRefusal's error.
function replayHosts (replay) {
  const why = hostsRefusal(replay)
  if (why) throw why
  const byAddress = new Map()
  for (const o of replay.origins) {
    if (!byAddress.has(o.address)) byAddress.set(o.address, [])
    const names = byAddress.get(o.address)
    if (!names.includes(o.host)) names.push(o.host)
  }
  return [...byAddress].map(([address, names]) => ({ address, names }))
}

// Firefox's preferences for a replay over `forced` (h1, h2 or h3: replay-plan.js FORCED's; h2-spdy and h2e force h2,
// HTTP/3 off, so h2e's edge, which offers h3 too, is spoken to over HTTP/2 on TCP) of the page `url`:
// force-protocol's for the page, and for h3 every recorded origin mapped to QUIC on its port from its first request
// (network.http.http3.alt-svc-mapping-for-testing, "host;h3=:port", comma-separated; it maps a host, every port
// alike: a host recorded on two ports gets the first) and HTTP/3 kept on with the replay's CA in the profile (a root
// from outside Firefox's store otherwise turns it off). DNS over HTTPS is off in every profile (harness/firefox/
// profile.js network.trr.mode 5): the system's resolver, which reads the hosts file, answers every name.
function replayFirefoxPrefs (forced, url, replay) {
  const prefs = firefoxProtocolPrefs(forced, url, { customCa: true })
  if (forced !== 'h3') return prefs
  const mapped = []
  for (const o of replay.origins) if (!mapped.some(m => m.host === o.host)) mapped.push(o)
  return { ...prefs, 'network.http.http3.alt-svc-mapping-for-testing': mapped.map(o => `${o.host};h3=:${o.port}`).join(',') }
}

module.exports = { replayHosts, replayFirefoxPrefs, hostsRefusal }

'use strict'

// Firefox as a second browser, driven through puppeteer-core over WebDriver
// BiDi. It trusts the lanes the way a user's Firefox would trust a site: its
// throw-away profile's NSS database holds the local CA (server/certs.js
// ca.pem), imported with certutil; no certificate error is overridden, so
// Firefox caches and uses HTTP/3 as it would for any site. (A self-signed
// leaf cannot work: Firefox refuses a CA certificate as an end entity.)
// Behind a packet-level link the lanes' leaf names the link's address too
// (harness/start-lanes.js startLanesBehindLink), so nothing is overridden there either.
//
// Firefox runs under harness/firefox/relay.js, which starts it and relays its
// BiDi WebSocket over pipes: the same path on this machine and inside a
// packet-level link's client namespace, where Firefox's BiDi server listens
// on the namespace's own loopback.
//
// Every caller imports it from here. firefox/find.js: the executable, whether
// it can run here, its version; firefox/profile.js: the profile (preferences,
// the local CA by certutil); firefox/h3-plan.js: HTTP/3 for the h3 lanes
// (mapped, or learnt from Alt-Svc); firefox/start-relay.js and
// firefox/relay.js: Firefox started and its BiDi relayed; firefox/launch.js:
// launchFirefox and its close(); firefox/hosts.js: names sent to chosen
// addresses (a hosts file over /etc/hosts in a mount namespace of Firefox's
// own); firefox/error.js: FirefoxError.
const { FirefoxError, FIREFOX_INSTALL_HINT } = require('./firefox/error')
const { findFirefox, firefoxUnavailableReason } = require('./firefox/find')
const { firefoxPreferences } = require('./firefox/profile')
const { h3Plan } = require('./firefox/h3-plan')
const { launchFirefox } = require('./firefox/launch')
const { mountNamespaceUnavailableReason } = require('./firefox/hosts')

module.exports = {
  launchFirefox, findFirefox, firefoxUnavailableReason, firefoxPreferences, h3Plan, mountNamespaceUnavailableReason, FIREFOX_INSTALL_HINT, FirefoxError
}

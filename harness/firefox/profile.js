'use strict'

// Firefox's throw-away profile: the local CA (or a site's, --ca; or a replay's)
// in its NSS database (certutil, through harness/nss-trust.js, as Chromium's
// throw-away home has it), so that Firefox trusts every origin that CA signed
// as it would any site, and the preferences that keep it to the benchmark's
// own requests (firefoxPreferences).
const fs = require('node:fs')
const path = require('node:path')
const { createProfile, Browser } = require('@puppeteer/browsers')
const { FirefoxError, FIREFOX_INSTALL_HINT } = require('./error')
const { trustCaInNssDb, NssTrustError } = require('../nss-trust')
const { h3Plan } = require('./h3-plan')

const CA_NICKNAME = 'h2bench local CA'

// Firefox's $HOME: a folder inside the throw-away profile (removed with it), so that what Firefox keeps under
// $HOME (~/.cache/mozilla, ~/.config/mozilla/…/Crash Reports, ~/Downloads) is its own, as the measuring
// Chromium's is (harness/chromium/headless.js); the user's own home is never written.
const profileHome = profile => path.join(profile, 'home')

// The profile's preferences beyond @puppeteer/browsers' defaults (which keep
// Firefox from updates, safebrowsing, normandy and most other traffic).
function firefoxPreferences (lanes = []) {
  const { mapping } = h3Plan(lanes)
  const h3 = lanes.some(l => l.protocol === 'h3')
  return {
    // puppeteer's FirefoxLauncher.getPreferences: one content process
    'fission.webContentIsolationStrategy': 0,
    'network.proxy.type': 0,
    // no OCSP, CRLite, intermediate preloading or DNS over HTTPS requests
    'security.OCSP.enabled': 0,
    'security.OCSP.require': false,
    'security.pki.crlite_mode': 0,
    'security.remote_settings.crlite_filters.enabled': false,
    'security.remote_settings.intermediates.enabled': false,
    'network.trr.mode': 5,
    // HTTP/3 only when there is an h3 lane (see h3Plan). Firefox otherwise
    // refuses HTTP/3 when a root from outside its own store (our local CA)
    // is in the profile.
    'network.http.http3.enable': h3,
    ...(h3 ? { 'network.http.http3.disable_when_third_party_roots_found': false } : {}),
    ...(mapping ? { 'network.http.http3.alt-svc-mapping-for-testing': mapping } : {}),
    // the page server is plain HTTP on purpose (no HTTPS-First upgrade)
    'dom.security.https_first': false,
    'dom.security.https_first_schemeless': false,
    'dom.security.https_only_mode': false,
    // full-precision performance.now() and Resource Timing, like Chromium's
    'privacy.reduceTimerPrecision': false,
    // nothing but the benchmark's own requests
    'network.captive-portal-service.enabled': false,
    'network.connectivity-service.enabled': false,
    'network.dns.disablePrefetch': true,
    'network.prefetch-next': false,
    'network.predictor.enabled': false,
    'browser.urlbar.speculativeConnect.enabled': false,
    'app.update.enabled': false,
    'app.update.auto': false,
    'app.normandy.enabled': false,
    'app.shield.optoutstudies.enabled': false,
    'messaging-system.rsexperimentloader.enabled': false,
    'toolkit.telemetry.enabled': false,
    'toolkit.telemetry.unified': false,
    'toolkit.telemetry.archive.enabled': false,
    'toolkit.telemetry.server': '',
    'toolkit.telemetry.reportingpolicy.firstRun': false,
    'datareporting.policy.dataSubmissionEnabled': false,
    'browser.ping-centre.telemetry': false,
    'browser.region.network.url': '',
    'browser.region.update.enabled': false,
    'browser.safebrowsing.downloads.remote.enabled': false,
    'browser.safebrowsing.update.enabled': false,
    'browser.discovery.enabled': false,
    'browser.topsites.contile.enabled': false,
    'browser.newtabpage.activity-stream.feeds.section.topstories': false,
    'browser.newtabpage.activity-stream.feeds.snippets': false,
    'extensions.blocklist.enabled': false,
    'extensions.getAddons.cache.enabled': false,
    'media.gmp-manager.updateEnabled': false,
    'media.gmp-gmpopenh264.enabled': false,
    'services.settings.server': 'http://127.0.0.1:9/', // remote settings: nowhere (port 9, discard), never the network
    'browser.aboutwelcome.enabled': false
  }
}

// Fills the throw-away profile directory `profile`: the local CA `caFile`
// (or `ca`, its PEM text) in its NSS database unless `trustCa` is false, then
// firefoxPreferences(lanes) and `prefs` with @puppeteer/browsers' defaults,
// and Firefox's throw-away home (profileHome).
async function fillProfile (profile, { trustCa, caFile, ca, lanes, prefs }) {
  if (trustCa) {
    try {
      trustCaInNssDb(profile, { ca: caFile || ca, nickname: CA_NICKNAME, forWhom: "Firefox's profile" })
    } catch (err) {
      if (!(err instanceof NssTrustError)) throw err
      throw new FirefoxError(/^no certutil/.test(err.message) ? `${err.message}: ${FIREFOX_INSTALL_HINT}` : err.message, { cause: err })
    }
  }
  await createProfile(Browser.FIREFOX, { path: profile, preferences: { ...firefoxPreferences(lanes), ...prefs } })
  fs.mkdirSync(profileHome(profile), { mode: 0o700 })
}

module.exports = { firefoxPreferences, fillProfile, profileHome }

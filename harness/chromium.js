'use strict'

// Chromium for h2bench, in one place; every caller imports it from here (what
// callers use; the flags themselves are chromium/flags.js's).
// chromium/find.js: where the local Chrome/Chromium is, and the install hint.
// chromium/flags.js: the flags (SPKI trust, QUIC origins, the quiet-network
//   flags, root → --no-sandbox, the profile, the driver's switches).
// chromium/headless.js: launchBrowser, the measurements' headless Chromium
//   through puppeteer-core (a persistent profile, or incognito contexts with
//   the net-log for the h3 study).
// chromium/user-chrome.js: the user's own Chrome with a window (npm run
//   chrome): launchChrome starts it detached, chromeCommand prints it.
const { findChrome, INSTALL_HINT } = require('./chromium/find')
const { isRoot } = require('./chromium/flags')
const { launchBrowser } = require('./chromium/headless')
const { chromeCommand, launchChrome } = require('./chromium/user-chrome')

module.exports = {
  findChrome,
  INSTALL_HINT,
  isRoot,
  launchBrowser,
  chromeCommand,
  launchChrome
}

'use strict'

// Tests use the runner's own launcher: the system Chromium, trusting the
// test certificate by SPKI.
const { launchBrowser } = require('../../harness/chromium')

module.exports = { launchBrowser }

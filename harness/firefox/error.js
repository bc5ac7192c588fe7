'use strict'

// FirefoxError: Firefox could not be found, trusted, started or reached; its
// message says why and what to install (FIREFOX_INSTALL_HINT).
const FIREFOX_INSTALL_HINT = 'apt-get install -y firefox-esr libnss3-tools'

class FirefoxError extends Error {}

module.exports = { FirefoxError, FIREFOX_INSTALL_HINT }

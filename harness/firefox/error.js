'use strict'

// FirefoxError: Firefox could not be found, trusted, started or reached; its
// message says why and what to install (FIREFOX_INSTALL_HINT).
const FIREFOX_INSTALL_HINT = 'apt-get install -y firefox-esr libnss3-tools'

const { UserError } = require('../../common/errors')

class FirefoxError extends UserError {
  constructor (message, options = {}) {
    super(message, { status: 503, code: 'H2B_FIREFOX', ...options })
  }
}

module.exports = { FirefoxError, FIREFOX_INSTALL_HINT }

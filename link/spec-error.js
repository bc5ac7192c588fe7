'use strict'

// The error of a link spec that cannot be used (link/spec.js and the files
// it reads values, trace files and forwarder lines with): an InputError
// with the key at fault (its param) and the code H2B_BAD_LINK.

const { InputError } = require('../common/errors')

class LinkSpecError extends InputError {
  constructor (message, { param = null } = {}) {
    super(message, { param, code: 'H2B_BAD_LINK' })
    this.name = 'LinkSpecError'
  }
}

const fail = (param, message) => { throw new LinkSpecError(param ? `${param}: ${message}` : message, { param }) }

module.exports = { LinkSpecError, fail }

'use strict'

// An error the user caused (bad query, bad flag). It carries the HTTP status,
// the parameter at fault and a stable code, and is answered by one middleware.
class InputError extends Error {
  constructor (message, { param = null, status = 400, code = 'H2B_BAD_INPUT' } = {}) {
    super(message)
    this.name = 'InputError'
    this.param = param
    this.status = status
    this.code = code
  }
}

module.exports = { InputError }

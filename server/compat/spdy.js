'use strict'

// Loads `spdy`; compatibility fixes for current Node are applied here, in one
// place, before the package is used.
module.exports = require('spdy')

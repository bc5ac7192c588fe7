'use strict'

// Seed 000, section 四.2, first table: 6 … 3750 requests of 0.1 MB at 10 ms delay.
module.exports = require('./count')(10)

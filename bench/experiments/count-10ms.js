'use strict'

// Source section 四.2, first table: 6 … 3750 requests of 0.1 MB at 10 ms delay.
const { countExperiment } = require('./count')

module.exports = countExperiment({ delay: 10, source: { h1: [0.04, 0.16, 0.63, 3.03, 20.72], h2: [0.04, 0.16, 0.71, 3.28, 19.34] } })

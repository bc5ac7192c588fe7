'use strict'

// Source section 四.2, second table: 6 … 3750 requests of 0.1 MB at 30 ms delay.
const { countExperiment } = require('./count')

module.exports = countExperiment({ delay: 30, source: { h1: [0.07, 0.24, 1.32, 5.63, 28.82], h2: [0.07, 0.17, 0.78, 3.81, 18.78] } })

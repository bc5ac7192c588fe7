'use strict'

// The h3 study's figures (bench/cells/h3-ttfb.js, h3-hol.js): a number
// rounded for a row (null for none), the median of a list (null when empty).
const stats = require('../../shared/stats')

const round = (v, d = 2) => v === null || v === undefined || Number.isNaN(v) ? null : +v.toFixed(d)
const med = list => list.length ? stats.median(list) : null

module.exports = { round, med }

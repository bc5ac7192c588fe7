'use strict'

// Seed 000, section 四.1: 100 requests of 0.1 MB, server delay 0 … 40 ms.
const { all, grows, flat } = require('./forms')

module.exports = [
  all([grows('h1', 'delayMs', 0, 40, { text: 'HTTP/1.1 grows from 0 to 40 ms' }), flat('h2', 'delayMs', 0, 40, { text: 'HTTP/2 stays flat from 0 to 40 ms' })], {
    text: 'HTTP/1.1 time grows with server delay while HTTP/2 stays flat (100 requests)',
    source: { figure: 'h1 0.38 → 0.94 s, h2 0.48 → 0.50 s from 0 to 40 ms (means of 10 runs, Chrome 2016)', where: 'seed 000 (000_2f4494c122b7de5e.txt), section 四.1, table "延迟因素对性能的影响"' }
  })
]

'use strict'

// h2bench's own aim for the page's measuring path (`npm run bench:page`, issue 33): judged by the verdict engine on
// each lane's batches (bench/report/page-cost/report.js makes a row a lane and side, its samples the browser's CPU
// of each batch, in the order the rounds ran). Not a runner experiment: its tool reads this file itself.
const { atMost } = require('./forms')

const BROWSER_CPU = { name: 'browser CPU a batch', samples: r => r.samples }

module.exports = [
  atMost({ lane: '*', mode: 'page' }, { lane: '*', mode: 'bare' }, 1.1, {
    text: 'The page\'s measuring path (window.h2bench.run, the Run button\'s) costs the browser at most 1.1× the CPU of a bare fetch() of the same URLs, on every lane',
    hypothesis: true,
    metric: BROWSER_CPU
  })
]

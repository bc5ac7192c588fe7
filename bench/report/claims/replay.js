'use strict'

// h2bench's own hypotheses about a replayed site (`npm run bench -- replay --har …`): the site's, per view
// (cold, repeat), onload, with every origin served from loopback as recorded.
const { faster } = require('./forms')
const { PROTOCOL_NAMES } = require('../../../harness/force-protocol')

const fasterThan = (slow, fast) => faster({ lane: fast, mode: '*' }, { lane: slow, mode: '*' }, {
  text: `Replayed, ${PROTOCOL_NAMES[fast]} loads the page (onload) faster than ${PROTOCOL_NAMES[slow]}, cold and as a repeat view`,
  hypothesis: true
})

module.exports = [fasterThan('h1', 'h2'), fasterThan('h2', 'h3')]

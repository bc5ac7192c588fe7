'use strict'

// h2bench's own hypotheses about the user's site (`npm run bench -- site --url …`): per browser and view (cold, repeat), onload.
const { faster } = require('./forms')
const { PROTOCOL_NAMES } = require('../../../harness/force-protocol')

const fasterThan = (slow, fast) => faster({ lane: fast, mode: '*' }, { lane: slow, mode: '*' }, {
  text: `${PROTOCOL_NAMES[fast]} loads the page (onload) faster than ${PROTOCOL_NAMES[slow]}, cold and as a repeat view`,
  hypothesis: true
})

module.exports = [fasterThan('h1', 'h2'), fasterThan('h2', 'h3')]

'use strict'

// h2bench's own hypotheses about a replayed site (`npm run bench -- replay --har …`): the site's, per view
// (cold, repeat), onload, with every origin served as recorded. The protocols are compared on the plain replay;
// each server behaviour of --variants (server/replay/serve.js) against the plain replay of the same protocol,
// cold, where it can change anything (not HTTP/1.1: one response at a time a connection, and Chromium acts on a
// 103 only over HTTP/2 and HTTP/3). A run without a variant leaves its claim not measured.
const { faster, notFaster } = require('./forms')
const { PROTOCOL_NAMES } = require('../../../harness/force-protocol')

const variantOf = r => r.replay && r.replay.variant ? r.replay.variant.name : 'plain'
const plain = r => variantOf(r) === 'plain'

const fasterThan = (slow, fast) => faster({ lane: fast, mode: '*' }, { lane: slow, mode: '*' }, {
  text: `Replayed, ${PROTOCOL_NAMES[fast]} loads the page (onload) faster than ${PROTOCOL_NAMES[slow]}, cold and as a repeat view`,
  hypothesis: true,
  where: plain
})

// The rows a variant's claim rests on: its own and plain's, cold, over HTTP/2 and HTTP/3.
const coldOf = variant => r => r.lane !== 'h1' && r.site && r.site.view === 'cold' && (plain(r) || variantOf(r) === variant)

module.exports = [
  fasterThan('h1', 'h2'),
  fasterThan('h2', 'h3'),
  faster({ lane: '*', mode: 'cold early-hints' }, { lane: '*', mode: 'cold' }, {
    text: 'Replayed with 103 Early Hints for the recorded preloads, the page loads (onload) faster cold than replayed plain, over HTTP/2 and HTTP/3',
    hypothesis: true,
    where: coldOf('early-hints'),
    // A replay that sent no 103 (the recording has no preload or preconnect Link header) measured nothing of them.
    invalid: r => variantOf(r) === 'early-hints' && r.replay.variant.hints === 0 ? 'no 103 was sent: the recorded responses have no preload or preconnect Link header' : ''
  }),
  notFaster({ lane: '*', mode: 'cold' }, { lane: '*', mode: 'cold rfc9218' }, {
    text: 'Replayed with the responses scheduled by each request\'s priority (RFC 9218 urgency, then incremental), the page loads (onload) cold no slower than with the server\'s own scheduling, over HTTP/2 and HTTP/3',
    hypothesis: true,
    where: coldOf('rfc9218')
  }),
  notFaster({ lane: '*', mode: 'cold fifo' }, { lane: '*', mode: 'cold' }, {
    text: 'Replayed with each connection\'s responses sent first in, first out, the page loads (onload) cold no faster than with the server\'s own scheduling, over HTTP/2 and HTTP/3',
    hypothesis: true,
    where: coldOf('fifo')
  })
]

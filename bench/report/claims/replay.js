'use strict'

// h2bench's own hypotheses about a replayed site (`npm run bench -- replay --har …`): the site's, per view
// (cold, repeat), onload, with every origin served as recorded. The protocols are compared on the plain replay,
// each claim saying what its sides differ in: HTTP/3 against HTTP/2 from one server (h3 against h2e: the same Caddy,
// QUIC against TCP, so the protocol only), and against node:http2 (h2) and spdy (h2-spdy) as references, each a
// claim of its own, whose sides differ in server too (server/replay/serve.js). Each server behaviour of --variants
// against the plain replay of the same protocol, cold, where it can change anything (not HTTP/1.1: one response at a
// time a connection, and Chromium acts on a 103 only over HTTP/2 and HTTP/3). A run without a protocol or variant a
// claim names leaves that claim not measured.
const { faster, notFaster } = require('./forms')
const { PROTOCOL_NAMES } = require('../../../harness/force-protocol')

const variantOf = r => r.replay && r.replay.variant ? r.replay.variant.name : 'plain'
const plain = r => variantOf(r) === 'plain'

// HTTP/3 (h3, Caddy over QUIC) against each HTTP/2 the replay serves: h2e the same server (the claim), h2 and
// h2-spdy references. `differ`: what the sides differ in (the claims' words and the report's table:
// bench/report/tables/replay.js); `server`: the other side's server, as the claims name it.
const HTTP3_AGAINST = [
  { lane: 'h2e', reference: false, server: 'Caddy over TCP', differ: 'protocol only (h3 against h2e: the same Caddy, QUIC against TCP)' },
  { lane: 'h2', reference: true, server: 'node:http2', differ: 'protocol and server (h3 against h2: Caddy over QUIC against node:http2)' },
  { lane: 'h2-spdy', reference: true, server: 'spdy', differ: 'protocol and server (h3 against h2-spdy: Caddy over QUIC against spdy)' }
]

const fasterThan = (slow, fast, text, explain = null) => faster({ lane: fast, mode: '*' }, { lane: slow, mode: '*' }, {
  text,
  hypothesis: true,
  where: plain,
  explain
})

// The Caddy that served each side of h3 against h2e (row.replay.caddy: one binary for both, as the claim says).
function sameCaddy (rows) {
  const of = lane => [...new Set(rows.filter(r => r.lane === lane && plain(r) && r.replay && r.replay.caddy).map(r => r.replay.caddy))]
  const [h3, h2e] = [of('h3'), of('h2e')]
  if (!h3.length || !h2e.length) return ''
  if (h3.length === 1 && h2e.length === 1 && h3[0] === h2e[0]) return `both sides served by Caddy ${h3[0]}, in one configuration (QUIC on UDP and HTTP/2 on TCP; the browser kept off QUIC for h2e)`
  return `h3 served by Caddy ${h3.join(', ')}, h2e by Caddy ${h2e.join(', ')}`
}

const views = 'cold and as a repeat view'
const [same, ...references] = HTTP3_AGAINST

// The rows a variant's claim rests on: its own and plain's, cold, over HTTP/2 and HTTP/3.
const coldOf = variant => r => r.lane !== 'h1' && r.site && r.site.view === 'cold' && (plain(r) || variantOf(r) === variant)

module.exports = [
  fasterThan('h1', 'h2', `Replayed, ${PROTOCOL_NAMES.h2} loads the page (onload) faster than ${PROTOCOL_NAMES.h1}, ${views}; the sides differ in protocol and server (h2 against h1: node:http2 against node:https)`),
  fasterThan(same.lane, 'h3', `Replayed from one server, ${PROTOCOL_NAMES.h3} loads the page (onload) faster than ${PROTOCOL_NAMES.h2}, ${views}; the sides differ in ${same.differ}`, sameCaddy),
  ...references.map(ref => fasterThan(ref.lane, 'h3', `Reference: replayed, ${PROTOCOL_NAMES.h3} from Caddy loads the page (onload) faster than ${PROTOCOL_NAMES.h2} from ${ref.server}, ${views}; the sides differ in ${ref.differ}`)),
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

module.exports.HTTP3_AGAINST = HTTP3_AGAINST

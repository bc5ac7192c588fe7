'use strict'

// Named link specs for the packet-level link (h2bench-link --link NAME and
// --list). Each preset is a spec string in the grammar of link/spec.js, so a
// preset means exactly what typing its spec would mean, and a user can start
// from one and override keys ("Regular 3G,loss=1%").

const { PRESETS, SETS } = require('./devtools-presets')
const { findNamed } = require('../common/named')

// "Regular_3G" → "regular-3g": lower case, every run of other characters → "-".
function slugify (text) {
  return String(text).toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '')
}

// The DevTools presets, built from link/devtools-presets.js rather than retyped: its
// kbit/s times the set's bits per kbit (1024 in the 2016 set, 1000 today).
// DevTools holds each response for `latencyMs` (per request); on a link the
// same number becomes the round-trip time, paid by every packet exchange
// (handshakes, slow start) — that difference is what the link is for.
function devtoolsPresets (set, group) {
  const bits = SETS[set].bitsPerKbit
  const rate = kbps => kbps === null ? 'unlimited' : `${kbps * bits}bit`
  return PRESETS.filter(p => p.set === set).map(p => ({
    name: p.name,
    slug: slugify(p.name),
    group,
    spec: `rtt=${p.latencyMs}ms,down=${rate(p.downloadKbps)},up=${rate(p.uploadKbps)}`,
    what: `${SETS[set].what} (1 kbit = ${bits} bits); DevTools applies its ${p.latencyMs} ms latency per request, here it is the link's RTT`
  }))
}

// Seed 004 (nginx-quic vs HTTP/1.1 under netem): netem ran on the server, so
// every impairment hit the server → client direction only ("down" here).
// One difference: netem reorders packets when it adds jitter, the forwarder
// keeps their order (jitter changes their spacing only).
const QUIC_WHERE = 'seed 004 (nginx-quic, netem on the server): server → client only'
const QUIC_ARTICLE = [
  ['100±10 ms', 'quic-delay', 'delay.down=100ms,jitter.down=10ms'],
  ['loss 30 %', 'quic-loss', 'loss.down=30%'],
  ['dup 70 %', 'quic-dup', 'dup.down=70%'],
  ['corrupt 20 %', 'quic-corrupt', 'corrupt.down=20%'],
  ['100±10 ms + loss 30 %', 'quic-delay-loss', 'delay.down=100ms,jitter.down=10ms,loss.down=30%'],
  ['loss 30 % + dup 70 %', 'quic-loss-dup', 'loss.down=30%,dup.down=70%'],
  ['loss 30 % + corrupt 20 %', 'quic-loss-corrupt', 'loss.down=30%,corrupt.down=20%']
].map(([label, slug, spec]) => ({ name: `QUIC article: ${label}`, slug, group: 'quic-article', spec, what: `${label}, ${QUIC_WHERE}` }))

const BASIC = [
  { name: 'none', slug: 'none', group: 'basic', spec: '', what: 'nothing emulated: packets still go through the forwarder, with no delay, limit or loss' },
  { name: 'LAN', slug: 'lan', group: 'basic', spec: 'rtt=1ms', what: 'a local network: 1 ms RTT, no rate limit' }
]

const LINK_PRESETS = [
  ...devtoolsPresets('2016', 'devtools-2016'),
  ...devtoolsPresets('current', 'devtools-current'),
  ...QUIC_ARTICLE,
  ...BASIC
]

// By name (any case) or by slug ("regular-3g", "Regular_3G"); null if none.
function presetByName (name) {
  if (typeof name !== 'string') return null
  const slug = slugify(name)
  return findNamed(LINK_PRESETS, name.trim()) ||
    (slug && findNamed(LINK_PRESETS, slug, { matches: p => p.slug === slug || slugify(p.name) === slug })) ||
    null
}

module.exports = { LINK_PRESETS, presetByName, slugify }

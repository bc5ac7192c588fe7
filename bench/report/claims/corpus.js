'use strict'

// Trevisan et al. 2021 ("Measuring HTTP/3: Adoption and Performance", MedComNet 2021, arXiv:2102.12358) asked of
// the corpus of generated pages (bench/experiments/corpus.js): HTTP/3 against HTTP/2 from the same server (h3
// against h2e: one Caddy, QUIC against TCP, as a site's HTTP/3 and HTTP/2 come from its own servers), then the same
// findings against node:http2 (h2) as references of their own, whose sides differ in server too; cold loads (onload,
// a new browser each, as their BrowserTime visits), each page a cell, the rows picked by the cell's link. Their
// method and how ours differs: the experiment's header and docs/corpus.md.
const { faster, notFaster } = require('./forms')
const { HTTP3_AGAINST } = require('./replay')
const { LINKS } = require('../../experiments/corpus')
const { parseLinkSpec } = require('../../../link/spec')

const PAPER = 'Trevisan, Giordano, Drago, Khatouni, "Measuring HTTP/3: Adoption and Performance", MedComNet 2021 (arXiv:2102.12358)'
const ABSTRACT = `${PAPER}, abstract: "Our experiments show that HTTP/3 provides sizable benefits only in scenarios with high latency or very poor bandwidth. Despite the adoption of QUIC, we do not find benefits in case of high packet loss"`
const H3 = { lane: 'h3', mode: 'cold' }
// HTTP/3's other sides: h2e, HTTP/2 over TCP from the same Caddy (the claims: protocol only), and node:http2 (h2),
// the reference (protocol and server), as the replay's claims name them (./replay.js HTTP3_AGAINST).
const [SAME, NODE] = ['h2e', 'h2'].map(lane => HTTP3_AGAINST.find(x => x.lane === lane))

// A row's link label (clean, 4G, 3G, lossy): by the link it ran behind, else (a row that never opened it) its cell's name.
const specText = spec => parseLinkSpec(spec, { traces: false }).text
const labelOf = row => (LINKS.find(l => row.linkSpec && specText(l.spec) === row.linkSpec) ||
  LINKS.find(l => String(row.preset).startsWith(`${l.label} · `)) || {}).label || null
const at = label => row => labelOf(row) === label
const what = label => LINKS.find(l => l.label === label).what

// Per page of the link, h3's cold onload over `other`'s (medians), and their median.
function ratios (label, other) {
  return rows => {
    const cells = [...new Set(rows.filter(at(label)).map(r => r.cell))]
    const pairs = cells.map(cell => {
      const of = lane => rows.find(r => r.cell === cell && r.lane === lane && r.mode === 'cold' && r.median > 0)
      const h3 = of('h3')
      const h2 = of(other)
      return h3 && h2 ? { page: h3.preset, ratio: h3.median / h2.median } : null
    }).filter(Boolean)
    if (!pairs.length) return ''
    const sorted = pairs.map(p => p.ratio).sort((a, b) => a - b)
    return `${label} (${what(label)}): h3's cold onload over ${other}'s per page ${pairs.map(p => `${p.page} ${p.ratio.toFixed(2)}×`).join(', ')}; median ${sorted[(sorted.length - 1) >> 1].toFixed(2)}×`
  }
}

// Trevisan et al.'s findings, each on its link: its form, its words (`h3`, `h2`: how the sides are named) and the
// abstract's figure.
const FINDINGS = [
  {
    label: '4G',
    form: faster,
    text: (h3, h2) => `At high latency (DevTools' Fast 4G as a link: 165 ms round trip) ${h3} loads the pages faster than ${h2}`,
    figure: 'none in the abstract (a finding: "sizable benefits … with high latency")'
  },
  {
    label: '3G',
    form: faster,
    text: (h3, h2) => `At very low bandwidth (Regular 3G as a link: 768 kbit/s down) ${h3} loads the pages faster than ${h2}`,
    figure: 'none in the abstract (a finding: "sizable benefits … with … very poor bandwidth")'
  },
  {
    label: 'lossy',
    form: notFaster,
    text: (h3, h2) => `Under heavy loss (5 % towards the browser) ${h3} loads the pages no faster than ${h2}`,
    figure: 'none in the abstract (a finding: "we do not find benefits in case of high packet loss")'
  },
  {
    label: 'clean',
    form: notFaster,
    text: (h3, h2) => `Only there: on a clean path (20 ms round trip, no loss, no rate limit) ${h3} loads the pages no faster than ${h2}`,
    figure: 'none in the abstract (a finding: benefits "only in scenarios with high latency or very poor bandwidth")'
  }
]

// Each finding asked of h3 against `other` (SAME or NODE), its words naming what the sides differ in.
const claimsAgainst = (other, h3, h2, prefix = '') => FINDINGS.map(f => f.form(H3, { lane: other.lane, mode: 'cold' }, {
  text: `${prefix}${f.text(h3, h2)}; the sides differ in ${other.differ}`,
  where: at(f.label),
  source: { figure: f.figure, where: ABSTRACT },
  explain: ratios(f.label, other.lane)
}))

// The findings against h2e (one server, as a site's own HTTP/3 and HTTP/2 are), then against node:http2 as
// references of their own.
module.exports = [
  ...claimsAgainst(SAME, 'HTTP/3', 'HTTP/2'),
  ...claimsAgainst(NODE, 'HTTP/3 from Caddy', 'HTTP/2 from node:http2', 'Reference: ')
]

module.exports.labelOf = labelOf

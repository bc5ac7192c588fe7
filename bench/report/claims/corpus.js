'use strict'

// Trevisan et al. 2021 ("Measuring HTTP/3: Adoption and Performance", MedComNet 2021, arXiv:2102.12358) asked of
// the corpus of generated pages (bench/experiments/corpus.js): HTTP/3 against HTTP/2, cold loads (onload, a new
// browser each, as their BrowserTime visits), each page a cell, the rows picked by the cell's link. Their method
// and how ours differs: the experiment's header and docs/corpus.md.
const { faster, notFaster } = require('./forms')
const { LINKS } = require('../../experiments/corpus')
const { parseLinkSpec } = require('../../../link/spec')

const PAPER = 'Trevisan, Giordano, Drago, Khatouni, "Measuring HTTP/3: Adoption and Performance", MedComNet 2021 (arXiv:2102.12358)'
const ABSTRACT = `${PAPER}, abstract: "Our experiments show that HTTP/3 provides sizable benefits only in scenarios with high latency or very poor bandwidth. Despite the adoption of QUIC, we do not find benefits in case of high packet loss"`
const H3 = { lane: 'h3', mode: 'cold' }
const H2 = { lane: 'h2', mode: 'cold' }

// A row's link label (clean, 4G, 3G, lossy): by the link it ran behind, else (a row that never opened it) its cell's name.
const specText = spec => parseLinkSpec(spec, { traces: false }).text
const labelOf = row => (LINKS.find(l => row.linkSpec && specText(l.spec) === row.linkSpec) ||
  LINKS.find(l => String(row.preset).startsWith(`${l.label} · `)) || {}).label || null
const at = label => row => labelOf(row) === label
const what = label => LINKS.find(l => l.label === label).what

// Per page of the link, h3's cold onload over h2's (medians), and their median.
function ratios (label) {
  return rows => {
    const cells = [...new Set(rows.filter(at(label)).map(r => r.cell))]
    const pairs = cells.map(cell => {
      const of = lane => rows.find(r => r.cell === cell && r.lane === lane && r.mode === 'cold' && r.median > 0)
      const h3 = of('h3')
      const h2 = of('h2')
      return h3 && h2 ? { page: h3.preset, ratio: h3.median / h2.median } : null
    }).filter(Boolean)
    if (!pairs.length) return ''
    const sorted = pairs.map(p => p.ratio).sort((a, b) => a - b)
    return `${label} (${what(label)}): h3's cold onload over h2's per page ${pairs.map(p => `${p.page} ${p.ratio.toFixed(2)}×`).join(', ')}; median ${sorted[(sorted.length - 1) >> 1].toFixed(2)}×`
  }
}

module.exports = [
  faster(H3, H2, {
    text: 'At high latency (DevTools\' Fast 4G as a link: 165 ms round trip) HTTP/3 loads the pages faster than HTTP/2',
    where: at('4G'),
    source: { figure: 'none in the abstract (a finding: "sizable benefits … with high latency")', where: ABSTRACT },
    explain: ratios('4G')
  }),
  faster(H3, H2, {
    text: 'At very low bandwidth (Regular 3G as a link: 768 kbit/s down) HTTP/3 loads the pages faster than HTTP/2',
    where: at('3G'),
    source: { figure: 'none in the abstract (a finding: "sizable benefits … with … very poor bandwidth")', where: ABSTRACT },
    explain: ratios('3G')
  }),
  notFaster(H3, H2, {
    text: 'Under heavy loss (5 % towards the browser) HTTP/3 loads the pages no faster than HTTP/2',
    where: at('lossy'),
    source: { figure: 'none in the abstract (a finding: "we do not find benefits in case of high packet loss")', where: ABSTRACT },
    explain: ratios('lossy')
  }),
  notFaster(H3, H2, {
    text: 'Only there: on a clean path (20 ms round trip, no loss, no rate limit) HTTP/3 loads the pages no faster than HTTP/2',
    where: at('clean'),
    source: { figure: 'none in the abstract (a finding: benefits "only in scenarios with high latency or very poor bandwidth")', where: ABSTRACT },
    explain: ratios('clean')
  })
]

module.exports.labelOf = labelOf

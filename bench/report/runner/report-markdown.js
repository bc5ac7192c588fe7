'use strict'

// The runner's report.md.
const { RULE_TEXT } = require('../claims/judge')
const { render, headingOf, environmentLines, INSTRUMENT_ERRORS, COMPARISONS_INTRO, PAIRING_INTRO, CPU_SHAPED, DRIFTING } = require('./report-sections')

// A cell is text, or an image beside the report ({ image: path relative to it, alt }: a filmstrip's frame).
const cellText = c => c && typeof c === 'object' && c.image ? `![${String(c.alt).replace(/[[\]|]/g, ' ')}](${c.image})` : String(c).replace(/\|/g, '\\|')

function markdownTable ({ head, body }) {
  const line = cells => `| ${cells.map(cellText).join(' | ')} |`
  return [line(head), line(head.map(() => '---')), ...body.map(line)].join('\n')
}

function toMarkdown (report) {
  const sections = render(report)
  const heading = headingOf(report)
  const out = [`# ${heading.title}`, '', ...environmentLines(report.environment, heading).map(l => `- ${l}`), '', ...heading.intro, '']
  const errors = sections.flatMap(s => s.instrumentErrors)
  if (errors.length) out.push(`## ${INSTRUMENT_ERRORS}`, '', ...errors.map(e => `- **${e}**`), '')
  const shaped = sections.flatMap(s => s.cpuShaped)
  if (shaped.length) out.push(`## ${CPU_SHAPED}`, '', ...shaped.map(e => `- ${e}`), '')
  const drifting = sections.flatMap(s => s.drifting)
  if (drifting.length) out.push(`## ${DRIFTING}`, '', ...drifting.map(e => `- ${e}`), '')
  out.push('## Verdicts', '', RULE_TEXT, 'Each claim\'s cells, their verdicts and its source are in its experiment\'s section.', '')
  for (const s of sections) for (const v of s.verdicts) out.push(`- ${s.experiment.id}: **${v.text}**: ${v.status}.`)
  out.push('')
  for (const s of sections) {
    out.push(`## ${s.experiment.id}: ${s.experiment.title}`, '', markdownTable(s.table), '')
    for (const v of s.verdicts) out.push(`- **${v.text}**: ${v.status}, ${v.detail}.`)
    for (const r of s.remarks) out.push(`- ${r}`)
    out.push('')
    if (s.bounds) out.push('Against the physical lower bound of each workload on its network:', '', markdownTable(s.bounds), '')
    if (s.comparisons) out.push(COMPARISONS_INTRO, '', markdownTable(s.comparisons), '')
    if (s.pairing) out.push(PAIRING_INTRO, '', markdownTable(s.pairing), '')
    for (const t of s.extra) out.push(`${t.title}:`, '', markdownTable(t), '')
  }
  return out.join('\n')
}

module.exports = { toMarkdown }

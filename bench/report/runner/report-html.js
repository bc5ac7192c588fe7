'use strict'

// The runner's report.html: self-contained (inline SVG charts, no external
// resources).
const { esc } = require('../chart/line-chart')
const { RULE_TEXT } = require('../claims/judge')
const { render, headingOf, environmentLines, INSTRUMENT_ERRORS, COMPARISONS_INTRO, PAIRING_INTRO, CPU_SHAPED, DRIFTING } = require('./report-sections')
const { svgChart } = require('./report-chart')

// `code` spans of the markdown lines, as HTML.
const inline = s => esc(s).replace(/`([^`]+)`/g, '<code>$1</code>')

// A cell is text, or an image beside the report ({ image: path relative to it, alt }: a filmstrip's frame, the
// only thing report.html takes from outside itself, and only when --visual wrote one).
const cellHtml = c => c && typeof c === 'object' && c.image ? `<img src="${esc(c.image)}" alt="${esc(c.alt)}" title="${esc(c.alt)}" width="120" style="border:1px solid #cbd5e0">` : esc(c)

function htmlTable ({ head, body }) {
  return `<table><thead><tr>${head.map(c => `<th>${esc(c)}</th>`).join('')}</tr></thead><tbody>${
    body.map(cells => `<tr>${cells.map(c => `<td>${cellHtml(c)}</td>`).join('')}</tr>`).join('')}</tbody></table>`
}

function toHtml (report) {
  // Rendered once: each rendering recomputes every table and every comparison's bootstrap.
  const rendered = render(report)
  const sections = rendered.map(s => {
    const table = htmlTable(s.table)
    const items = [...s.verdicts.map(v => `<li><strong>${esc(v.text)}</strong>: <span class="v">${esc(v.status)}</span>, ${esc(v.detail)}.</li>`),
      ...s.remarks.map(r => `<li>${inline(r)}</li>`)]
    const bounds = s.bounds ? `<p>Against the physical lower bound of each workload on its network:</p>${htmlTable(s.bounds)}` : ''
    const comparisons = (s.comparisons ? `<p>${esc(COMPARISONS_INTRO)}</p>${htmlTable(s.comparisons)}` : '') +
      (s.pairing ? `<p>${esc(PAIRING_INTRO)}</p>${htmlTable(s.pairing)}` : '')
    const extra = s.extra.map(t => `<p>${esc(t.title)}:</p>${htmlTable(t)}`).join('\n')
    return `<section id="${esc(s.experiment.id)}"><h2>${esc(s.experiment.id)}: ${esc(s.experiment.title)}</h2>\n${svgChart(s.experiment, s.rows)}\n${table}\n<ul>${items.join('')}</ul>\n${bounds}${comparisons}${extra}</section>`
  })
  const errors = rendered.flatMap(s => s.instrumentErrors)
  const errorList = errors.length ? `<h2>${esc(INSTRUMENT_ERRORS)}</h2><ul>${errors.map(e => `<li><strong>${esc(e)}</strong></li>`).join('')}</ul>\n` : ''
  const shaped = rendered.flatMap(s => s.cpuShaped)
  const shapedList = shaped.length ? `<h2>${esc(CPU_SHAPED)}</h2><ul>${shaped.map(e => `<li>${esc(e)}</li>`).join('')}</ul>\n` : ''
  const drifting = rendered.flatMap(s => s.drifting)
  const driftingList = drifting.length ? `<h2>${esc(DRIFTING)}</h2><ul>${drifting.map(e => `<li>${esc(e)}</li>`).join('')}</ul>\n` : ''
  const verdictList = rendered.flatMap(s => s.verdicts.map(v =>
    `<li><a href="#${esc(s.experiment.id)}">${esc(s.experiment.id)}</a>: <strong>${esc(v.text)}</strong>: <span class="v">${esc(v.status)}</span>.</li>`))
  const heading = headingOf(report)
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(heading.title)}</title><style>
body{font:15px/1.5 system-ui,sans-serif;max-width:64em;margin:2em auto;padding:0 1em;color:#1f2937}
table{border-collapse:collapse;margin:1em 0;font-size:13px}td,th{border:1px solid #d1d5db;padding:.2em .5em;text-align:right}
th{background:#f3f4f6}td:first-child,th:first-child{text-align:left}section{margin-bottom:2.5em}svg{max-width:100%;height:auto}
.v{font-weight:600}code{background:#f3f4f6;padding:0 .2em}</style></head><body>
<h1>${esc(heading.title)}</h1>
<ul>${environmentLines(report.environment, heading).map(l => `<li>${inline(l)}</li>`).join('')}</ul>
<p>${heading.intro.map(inline).join(' ')}</p>
${errorList}${shapedList}${driftingList}<h2>Verdicts</h2><p>${esc(RULE_TEXT)} Each claim's cells, their verdicts and its source are in its experiment's section.</p><ul>${verdictList.join('')}</ul>
${sections.join('\n')}
</body></html>
`
}

module.exports = { toHtml }

'use strict'

// The README's study verdicts, generated from the reports: a region
//   <!-- verdicts: docs/study/report.md -->
//   … written by this file …
//   <!-- /verdicts -->
// holds a table of every claim the report judged and its status, taken from
// the report's own "## Verdicts" list (bench/runner/report-markdown.js), so
// the README's words cannot drift from the report's. `npm run studies --
// --write` rewrites every such region; test/bench/readme-verdicts.test.js
// regenerates them and compares. Figures checked by hand stay in the
// figures regions (readme-figures.js), outside these.
const fs = require('node:fs')
const path = require('node:path')

const START = /^<!--\s*verdicts:\s*(\S+)\s*-->\n/gm
const END = '<!-- /verdicts -->'

// The report's verdicts: [{ experiment, text, status }] from its "- id: **text**: status." lines.
function verdictsOf (reportMd) {
  const section = reportMd.split('\n## Verdicts\n')[1]
  if (!section) return []
  const list = section.split('\n## ')[0]
  return [...list.matchAll(/^- ([\w-]+): \*\*(.+)\*\*: ([^.,]+)\.$/gm)].map(m => ({ experiment: m[1], text: m[2], status: m[3] }))
}

// The table a region holds for `file` (a report.md, relative to root).
function regionFor (file, root) {
  const md = fs.readFileSync(path.join(root, file), 'utf8')
  const rows = verdictsOf(md)
  if (!rows.length) throw new Error(`${file}: no verdicts found under "## Verdicts"`)
  const cell = s => s.replace(/\|/g, '\\|')
  return [
    `Generated from [${file}](${file}) by \`npm run studies -- --write\` (the claims and their status as the report judged them; each report's section gives the cells, verdicts and source):`,
    '',
    '| experiment | claim | status |',
    '| --- | --- | --- |',
    ...rows.map(r => `| ${r.experiment} | ${cell(r.text)} | ${r.status} |`),
    ''
  ].join('\n')
}

// The README with every verdicts region rewritten from its report.
function rewriteReadme (readme, root) {
  let out = ''
  let at = 0
  START.lastIndex = 0
  let m
  while ((m = START.exec(readme))) {
    const from = m.index + m[0].length
    const to = readme.indexOf(END, from)
    if (to < 0) throw new Error(`README line ${readme.slice(0, m.index).split('\n').length}: a verdicts region without its ${END}`)
    out += readme.slice(at, from) + regionFor(m[1], root)
    at = to
  }
  return out + readme.slice(at)
}

module.exports = { verdictsOf, regionFor, rewriteReadme }

'use strict'

// The guides' study verdicts, generated from the reports: a region of a
// guide (README.md or docs/*.md: readme-figures.js guidesOf)
//   <!-- verdicts: studies/page/report.md -->
//   … written by this file …
//   <!-- /verdicts -->
// holds a table of every claim the report judged and its status, taken from
// the report's own "## Verdicts" list (bench/report/runner/report-markdown.js), so
// the guide's words cannot drift from the report's. The report is named as a
// link is, relative to the guide's folder. `npm run studies -- --write`
// rewrites every such region of every guide; test/bench/readme-verdicts.test.js
// regenerates them and compares. Figures checked by hand stay in the
// figures regions (readme-figures.js), outside these.
const fs = require('node:fs')
const path = require('node:path')
const { guidesOf } = require('./readme-figures')

const ROOT = path.join(__dirname, '..', '..', '..')

const START = /^<!--\s*verdicts:\s*(\S+)\s*-->\n/gm
const END = '<!-- /verdicts -->'

// The report's verdicts: [{ experiment, text, status }] from its "- id: **text**: status." lines.
function verdictsOf (reportMd) {
  const section = reportMd.split('\n## Verdicts\n')[1]
  if (!section) return []
  const list = section.split('\n## ')[0]
  return [...list.matchAll(/^- ([\w-]+): \*\*(.+)\*\*: ([^.,]+)\.$/gm)].map(m => ({ experiment: m[1], text: m[2], status: m[3] }))
}

// The table a region holds for `file` (a report.md, relative to `dir` under root: the folder of the guide the region
// is in, whose link to the report it writes as `file`).
function regionFor (file, root, dir = '.') {
  const report = path.join(root, dir, file)
  if (!fs.existsSync(report)) throw new Error(`${path.posix.join(dir, file)}: no such report`)
  const rows = verdictsOf(fs.readFileSync(report, 'utf8'))
  if (!rows.length) throw new Error(`${path.posix.join(dir, file)}: no verdicts found under "## Verdicts"`)
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

// The guide `file` (relative to root; its text `text`) with every verdicts region rewritten from its report; a
// failure names the guide and the region's line.
function rewriteReadme (text, root = ROOT, file = 'README.md') {
  let out = ''
  let at = 0
  START.lastIndex = 0
  let m
  while ((m = START.exec(text))) {
    const from = m.index + m[0].length
    const to = text.indexOf(END, from)
    const line = text.slice(0, m.index).split('\n').length
    if (to < 0) throw new Error(`${file} line ${line}: a verdicts region without its ${END}`)
    try {
      out += text.slice(at, from) + regionFor(m[1], root, path.posix.dirname(file))
    } catch (err) {
      throw new Error(`${file} line ${line}: ${err.message}`, { cause: err })
    }
    at = to
  }
  return out + text.slice(at)
}

// Every guide (guidesOf) with its verdicts regions rewritten: → [{ file, text, now }] (`now` what they should hold);
// with `write`, the guides that differ are written.
function rewriteGuides (root = ROOT, { write = false } = {}) {
  return guidesOf(root).map(file => {
    const text = fs.readFileSync(path.join(root, file), 'utf8')
    const now = rewriteReadme(text, root, file)
    if (write && now !== text) fs.writeFileSync(path.join(root, file), now)
    return { file, text, now }
  })
}

module.exports = { verdictsOf, regionFor, rewriteReadme, rewriteGuides }

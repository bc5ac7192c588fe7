'use strict'

// The guides' study figures against the reports they come from: every
// figure in a region a guide (README.md or docs/*.md; guidesOf) marks
//   <!-- figures: studies/rest/report.md [more files] -->
//   … prose and tables …
//   <!-- /figures -->
// must be taken from one of the files it names (the committed reports, made
// from results.json; named as a link is, relative to the guide's folder):
// written there as it is here, or a number there that rounds to it (to as
// many decimals as the guide gives; seconds there, ms here or the other way
// round). A figure is a number with a decimal point or
// one followed by a unit (× % s ms MB GB KB MiB): the kind a hand can mistype
// or a rerun can change (a range's first number too: 28–33 %); versions (153.7.0esr, TLS 1.3, HTTP/1.1) are not
// figures. Code spans and link targets are not prose: they are left out.
// Outside the regions a guide gives what no committed study measured, said as
// such (parameters, what a command does, checks made by hand).
const fs = require('node:fs')
const path = require('node:path')

const ROOT = path.join(__dirname, '..', '..', '..')

// Markers stand at the start of a line (one quoted in prose is not a marker).
const START = /^<!--\s*figures:\s*([^>]*?)\s*-->/gm
const END = '\n<!-- /figures -->'

// The Markdown files whose regions are checked and generated: README.md and
// docs/*.md (the guides; not the study folders' own reports), relative to
// root, with /, README.md first.
function guidesOf (root = ROOT) {
  const docs = path.join(root, 'docs')
  const guides = fs.existsSync(docs) ? fs.readdirSync(docs, { withFileTypes: true }).filter(e => e.isFile() && e.name.endsWith('.md')).map(e => `docs/${e.name}`).sort() : []
  return [...(fs.existsSync(path.join(root, 'README.md')) ? ['README.md'] : []), ...guides]
}

// The marked regions of a guide (`file`, as failures name it): [{ files: ['studies/…/report.md'], text, line }];
// throws on one left open.
function regionsOf (text, file = 'README.md') {
  const out = []
  let m
  START.lastIndex = 0
  while ((m = START.exec(text))) {
    const from = m.index + m[0].length
    const to = text.indexOf(END, from)
    const line = text.slice(0, m.index).split('\n').length
    if (to < 0) throw new Error(`${file} line ${line}: a figures region without its ${END.trim()}`)
    out.push({ files: m[1].split(/\s+/).filter(Boolean), text: text.slice(from, to), line })
  }
  return out
}

// Prose without code spans, link targets and HTML comments.
const prose = text => text.replace(/`[^`]*`/g, ' ').replace(/\]\([^)]*\)/g, '] ').replace(/<!--[\s\S]*?-->/g, ' ')

const FIGURE = /(?<![\w.,/−-])(?<!(?:TLS|HTTP\/?|Node|Chromium|Firefox|Caddy|v) )[−-]?\d{1,3}(?:,\d{3})*(?:\.\d+)?(?![\d.]*\.\d)(?:(?=(?:–[\d.,]+)?\s?(?:×|%|s\b|ms\b|MB\b|GB\b|KB\b|MiB\b))|(?<=\.\d+))/g

// The figures of a text, as written: ['22.08', '10.4', '1,662', …].
function figuresOf (text) {
  return [...prose(text).matchAll(FIGURE)].map(m => m[0])
}

// Every number of a text (thousands separators dropped), once: its numbers a report can give a figure from.
const NUMBER = /(?<![\d.])\d{1,3}(?:,\d{3})+(?:\.\d+)?(?![\d])|(?<![\d.,])\d+(?:\.\d+)?(?![\d]|\.\d)/g
const numbersCache = new Map()
function numbersOf (text) {
  if (!numbersCache.has(text)) numbersCache.set(text, [...new Set([...text.matchAll(NUMBER)].map(m => m[0].replace(/,/g, '')))])
  return numbersCache.get(text)
}

// Whether `figure` is taken from `text`: a number there written the same, or
// one that rounds to it at the figure's decimals (also ×1000 or ÷1000: s and ms).
function holds (text, figure) {
  const bare = figure.replace(/^[−-]/, '').replace(/,/g, '')
  const decimals = (bare.split('.')[1] || '').length
  const want = Number(bare)
  const same = v => Math.abs(v - want) < 1e-9
  const round = v => Math.round(v * 10 ** decimals) / 10 ** decimals
  return numbersOf(text).some(n => {
    if (n === bare) return true
    const v = Number(n)
    const places = (n.split('.')[1] || '').length
    // Rounding only ever drops digits: the report's number must have at least the figure's decimals.
    return [[v, places], [v * 1000, places - 3], [v / 1000, places + 3]].some(([x, p]) => p >= decimals && same(round(x)))
  })
}

// → [{ file, line, files, figure, context }] for every figure of a region none of its files holds. `text` is the
// guide `file` (relative to root: its regions name reports relative to its folder).
function checkReadme (text, { root = ROOT, file = 'README.md' } = {}) {
  const problems = []
  for (const region of regionsOf(text, file)) {
    const texts = region.files.map(f => {
      const report = path.join(root, path.dirname(file), f)
      if (!fs.existsSync(report)) throw new Error(`${file} line ${region.line}: the figures region names ${f}, which does not exist`)
      return fs.readFileSync(report, 'utf8')
    }).join('\n')
    for (const figure of figuresOf(region.text)) {
      if (!holds(texts, figure)) {
        const at = region.text.indexOf(figure)
        problems.push({ file, line: region.line, files: region.files, figure, context: region.text.slice(Math.max(0, at - 60), at + figure.length + 20).replace(/\s+/g, ' ') })
      }
    }
  }
  return problems
}

// Every guide's figures (guidesOf): → the problems of all of them, each naming its file and line.
function checkGuides (root = ROOT) {
  return guidesOf(root).flatMap(file => checkReadme(fs.readFileSync(path.join(root, file), 'utf8'), { root, file }))
}

module.exports = { guidesOf, regionsOf, figuresOf, holds, checkReadme, checkGuides }

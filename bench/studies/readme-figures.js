'use strict'

// The README's study figures against the reports they come from: every
// figure in a region the README marks
//   <!-- figures: docs/study-rest/report.md [more files] -->
//   … prose and tables …
//   <!-- /figures -->
// must be taken from one of the files it names (the committed reports, made
// from results.json): written there as it is here, or a number there that
// rounds to it (to as many decimals as the README gives; seconds there, ms
// here or the other way round). A figure is a number with a decimal point or
// one followed by a unit (× % s ms MB GB KB MiB): the kind a hand can mistype
// or a rerun can change (a range's first number too: 28–33 %); versions (153.7.0esr, TLS 1.3, HTTP/1.1) are not
// figures. Code spans and link targets are not prose: they are left out.
// Outside the regions the README gives what no committed study measured,
// said as such (parameters, what a command does, checks made by hand).
const fs = require('node:fs')
const path = require('node:path')

// Markers stand at the start of a line (one quoted in prose is not a marker).
const START = /^<!--\s*figures:\s*([^>]*?)\s*-->/gm
const END = '\n<!-- /figures -->'

// The marked regions: [{ files: ['docs/…/report.md'], text, line }]; throws on one left open.
function regionsOf (readme) {
  const out = []
  let m
  START.lastIndex = 0
  while ((m = START.exec(readme))) {
    const from = m.index + m[0].length
    const to = readme.indexOf(END, from)
    const line = readme.slice(0, m.index).split('\n').length
    if (to < 0) throw new Error(`README line ${line}: a figures region without its ${END.trim()}`)
    out.push({ files: m[1].split(/\s+/).filter(Boolean), text: readme.slice(from, to), line })
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

// → [{ line, files, figure, context }] for every figure of a region none of its files holds.
function checkReadme (readme, { root = path.join(__dirname, '..', '..') } = {}) {
  const problems = []
  for (const region of regionsOf(readme)) {
    const texts = region.files.map(f => {
      const file = path.join(root, f)
      if (!fs.existsSync(file)) throw new Error(`README line ${region.line}: the figures region names ${f}, which does not exist`)
      return fs.readFileSync(file, 'utf8')
    }).join('\n')
    for (const figure of figuresOf(region.text)) {
      if (!holds(texts, figure)) {
        const at = region.text.indexOf(figure)
        problems.push({ line: region.line, files: region.files, figure, context: region.text.slice(Math.max(0, at - 60), at + figure.length + 20).replace(/\s+/g, ' ') })
      }
    }
  }
  return problems
}

module.exports = { regionsOf, figuresOf, holds, checkReadme }

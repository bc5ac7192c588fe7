'use strict'

// A filmstrip row written as files, for a report ("a filmstrip row per
// protocol"): one JPEG per step of ./speed-index.js filmstrip(stepMs) (the
// frame on screen at 0, 100, 200 … ms after the navigation's start, as
// WebPageTest shows a load) into a folder, and two small fragments that show
// them in a row under their times and visual progress: filmstrip.md (a
// Markdown table: a row of times, a row of images) and filmstrip.html (a
// row of figures, each image 160 px wide). The fragments name the images
// relative to their own folder; filmstripTable joins several written rows
// (one per protocol) into one table, naming the images relative to wherever
// the report sits.
//
// writeFilmstrip(dir, steps, { label }) → { dir, files, markdownFile, htmlFile, row }
// filmstripTable(rows, { format: 'markdown'|'html', baseDir }) → the text
//   (rows: writeFilmstrip's `row`s, each { label, dir, steps: [{ ms, progress, file }] })
const fs = require('node:fs')
const path = require('node:path')

const IMAGE_WIDTH = 160

// 0 → '0.0 s', 1250 → '1.3 s' (WebPageTest's filmstrip labels)
const seconds = ms => `${(ms / 1000).toFixed(1)} s`
const percent = p => (typeof p === 'number' && Number.isFinite(p) ? `${Math.round(p)} %` : '')
const caption = s => [seconds(s.ms), percent(s.progress)].filter(Boolean).join(' · ')
const fileName = (i, ms) => `${String(i).padStart(3, '0')}_${Math.round(ms)}ms.jpg`

const escapeHtml = s => String(s).replace(/[&<>"']/g, c => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c])
const escapeMarkdown = s => String(s).replace(/[\\|*_`[\]<>]/g, c => `\\${c}`)
// a path in a link: forward slashes, spaces and parentheses escaped
const linkPath = p => p.split(path.sep).join('/').replace(/[ ()]/g, c => encodeURIComponent(c))

// → the Markdown table of `rows` (a label column, then one column per step)
function markdownTable (rows, baseDir) {
  const width = Math.max(0, ...rows.map(r => r.steps.length))
  const longest = rows.find(r => r.steps.length === width) || { steps: [] }
  const header = ['', ...longest.steps.map(s => seconds(s.ms))]
  const lines = [`| ${header.join(' | ')} |`, `|${header.map(() => ' --- ').join('|')}|`]
  for (const r of rows) {
    const cells = r.steps.map(s => `![${caption(s)}](${linkPath(path.relative(baseDir, path.join(r.dir, s.file)))})`)
    while (cells.length < width) cells.push('')
    lines.push(`| ${escapeMarkdown(r.label || '')} | ${cells.join(' | ')} |`)
  }
  return lines.join('\n') + '\n'
}

// → the HTML fragment of `rows`: one flex row of figures per row, its label first
function htmlTable (rows, baseDir) {
  const out = ['<div class="filmstrips">']
  for (const r of rows) {
    out.push(`  <div class="filmstrip" style="display:flex;gap:4px;align-items:flex-start;overflow-x:auto">`)
    out.push(`    <div style="min-width:8em;font-weight:bold">${escapeHtml(r.label || '')}</div>`)
    for (const s of r.steps) {
      const src = escapeHtml(linkPath(path.relative(baseDir, path.join(r.dir, s.file))))
      out.push(`    <figure style="margin:0;text-align:center"><img src="${src}" width="${IMAGE_WIDTH}" alt="${escapeHtml(caption(s))}"><figcaption>${escapeHtml(caption(s))}</figcaption></figure>`)
    }
    out.push('  </div>')
  }
  out.push('</div>')
  return out.join('\n') + '\n'
}

function filmstripTable (rows, { format = 'markdown', baseDir = process.cwd() } = {}) {
  if (format === 'markdown') return markdownTable(rows, baseDir)
  if (format === 'html') return htmlTable(rows, baseDir)
  throw new RangeError(`filmstrip format "${format}": markdown or html`)
}

// Writes `steps` (filmstrip(stepMs)'s: [{ ms, progress, jpeg }]) into `dir`
// (made if missing; files of an earlier row there are overwritten, not
// removed).
function writeFilmstrip (dir, steps, { label = '' } = {}) {
  if (!Array.isArray(steps)) throw new TypeError('writeFilmstrip takes the filmstrip\'s steps (visualMetrics(…).filmstrip(stepMs))')
  fs.mkdirSync(dir, { recursive: true })
  const row = { label, dir, steps: [] }
  const files = []
  steps.forEach((s, i) => {
    if (!Buffer.isBuffer(s.jpeg)) throw new TypeError(`filmstrip step ${i} (${s.ms} ms) has no JPEG`)
    const file = fileName(i, s.ms)
    fs.writeFileSync(path.join(dir, file), s.jpeg)
    files.push(path.join(dir, file))
    row.steps.push({ ms: s.ms, progress: s.progress, file })
  })
  const markdownFile = path.join(dir, 'filmstrip.md')
  const htmlFile = path.join(dir, 'filmstrip.html')
  fs.writeFileSync(markdownFile, markdownTable([row], dir))
  fs.writeFileSync(htmlFile, htmlTable([row], dir))
  return { dir, files, markdownFile, htmlFile, row }
}

module.exports = { writeFilmstrip, filmstripTable }

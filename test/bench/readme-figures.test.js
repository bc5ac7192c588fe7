'use strict'

// The guides' study figures (README.md and docs/*.md) are taken from the committed reports
// (bench/report/studies/readme-figures.js): on constructed files where the truth is known, and on the real guides.
const assert = require('node:assert/strict')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { checkReadme, checkGuides, figuresOf, guidesOf, regionsOf } = require('../../bench/report/studies/readme-figures')

const ROOT = path.join(__dirname, '..', '..')

describe('README figures against the reports they come from', () => {
  let root
  beforeEach(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'h2bench-readme-'))
    fs.mkdirSync(path.join(root, 'docs/s'), { recursive: true })
    fs.writeFileSync(path.join(root, 'docs/s/report.md'), '| h1 | 22.081 | 10.38× | 5448 ms | 1662 batches | 33.0 % |\n')
  })
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }))
  const readme = body => `intro 9.99 s, outside any region\n<!-- figures: docs/s/report.md -->\n${body}\n<!-- /figures -->\n`

  it('figures: numbers with a decimal point or a unit; not versions, code spans or link targets', () => {
    assert.deepEqual(figuresOf('ab 22.08 s, 10.4×, 28–33 %, 5 repeats, 1,662 batches, Firefox 153.7.0esr, TLS 1.3, HTTP/1.1, `-m 100` [r](docs/a1.5.md) −1.3 MiB'),
      ['22.08', '10.4', '28', '33', '−1.3'])
  })

  it('taken from the report: as written, or rounded from it (s or ms); a figure the report lacks is named with its line', () => {
    assert.deepEqual(checkReadme(readme('ab 22.08 s (10.4×), h3 5.45 s, 33 % lower'), { root }), [])
    const wrong = checkReadme(readme('ab 22.18 s, 10.4×'), { root })
    assert.equal(wrong.length, 1)
    assert.equal(wrong[0].figure, '22.18')
    assert.equal(wrong[0].line, 2)
    assert.match(wrong[0].context, /ab 22\.18 s/)
    // More decimals than the report gives cannot come from it.
    assert.equal(checkReadme(readme('10.380×'), { root }).length, 1)
  })

  it('a region left open, or naming a file that is not there, is an error', () => {
    assert.throws(() => regionsOf('<!-- figures: docs/s/report.md -->\n1.5 s'), /without its <!-- \/figures -->/)
    assert.deepEqual(regionsOf('a region is marked `<!-- figures: docs/x.md -->` … `<!-- /figures -->`'), []) // quoted, not a marker
    assert.throws(() => checkReadme('<!-- figures: docs/none.md -->\n1.5 s\n<!-- /figures -->', { root }), /names docs\/none\.md, which does not exist/)
  })

  it('a guide in docs/ names its reports relative to its own folder, and a failure names the guide and the line', () => {
    fs.writeFileSync(path.join(root, 'docs/guide.md'), '# g\n\n<!-- figures: s/report.md -->\nab 22.08 s, h3 9.99 s\n<!-- /figures -->\n')
    fs.writeFileSync(path.join(root, 'docs/s/notes.md'), '<!-- figures: nowhere.md -->\n1.5 s\n<!-- /figures -->\n')
    fs.writeFileSync(path.join(root, 'README.md'), readme('ab 22.08 s'))
    assert.deepEqual(guidesOf(root), ['README.md', 'docs/guide.md'], 'README.md and docs/*.md, not the study folders')
    const problems = checkGuides(root)
    assert.deepEqual(problems.map(p => [p.file, p.line, p.figure]), [['docs/guide.md', 3, '9.99']])
    assert.throws(() => checkReadme('x\n<!-- figures: docs/s/report.md -->\n1.5 s\n<!-- /figures -->', { root, file: 'docs/guide.md' }),
      /^Error: docs\/guide\.md line 2: the figures region names docs\/s\/report\.md, which does not exist/)
    assert.throws(() => regionsOf('\n<!-- figures: s/report.md -->\n1.5 s', 'docs/guide.md'), /^Error: docs\/guide\.md line 2: a figures region without/)
  })

  it("this checkout's guides (README.md, docs/*.md): every figure of a figures region is in the report it cites", () => {
    const guides = guidesOf(ROOT)
    assert.ok(guides.includes('README.md') && guides.length > 5, guides.join(', '))
    const regions = guides.flatMap(f => regionsOf(fs.readFileSync(path.join(ROOT, f), 'utf8'), f))
    assert.ok(regions.length >= 8, `${regions.length} figures regions in ${guides.join(', ')}`)
    const problems = checkGuides(ROOT)
    assert.deepEqual(problems.map(p => `${p.file} line ${p.line}: ${p.figure} not in ${p.files.join(' or ')} (…${p.context}…)`), [])
  })
})

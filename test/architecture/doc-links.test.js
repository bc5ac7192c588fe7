'use strict'

// Every relative link of the README and the guides (README.md, docs/**/*.md:
// the guides and the studies' own pages) resolves: to a file or folder of the
// checkout, and a #fragment to a heading of the Markdown file it names, as
// GitHub makes a heading's anchor. A moved guide or study folder fails here,
// naming the file, the line and the link.
const assert = require('node:assert/strict')
const fs = require('node:fs')
const path = require('node:path')

const ROOT = path.join(__dirname, '..', '..')

// README.md and every .md under docs/, relative to the checkout, with /.
function markdownFiles (root = ROOT) {
  const out = fs.existsSync(path.join(root, 'README.md')) ? ['README.md'] : []
  const walk = dir => {
    for (const entry of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
      const rel = `${dir}/${entry.name}`
      if (entry.isDirectory()) walk(rel)
      else if (entry.name.endsWith('.md')) out.push(rel)
    }
  }
  if (fs.existsSync(path.join(root, 'docs'))) walk('docs')
  return out.sort()
}

// A text without fenced code blocks (line breaks kept, so line numbers hold).
const withoutFences = text => text.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, block => block.replace(/[^\n]/g, ' '))

// A text without fenced code blocks and code spans.
const withoutCode = text => withoutFences(text).replace(/`[^`\n]*`/g, span => ' '.repeat(span.length))

// → [{ line, target }] for every inline link or image of a Markdown text: [text](target) and ![alt](target).
function linksOf (text) {
  const out = []
  const lines = withoutCode(text).split('\n')
  lines.forEach((line, i) => {
    for (const m of line.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) out.push({ line: i + 1, target: m[1] })
  })
  return out
}

// GitHub's anchor of a heading: lower case, punctuation dropped (letters, digits, _, - and spaces kept), spaces as -.
function slug (heading) {
  return heading.trim().toLowerCase().replace(/<[^>]*>/g, '').replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '').replace(/ /g, '-')
}

// The anchors of a Markdown text's headings, repeated ones numbered as GitHub numbers them (-1, -2, …).
function anchorsOf (text) {
  const seen = new Map()
  const out = new Set()
  for (const m of withoutFences(text).replace(/`([^`\n]*)`/g, '$1').matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const base = slug(m[1])
    const n = seen.get(base) || 0
    seen.set(base, n + 1)
    out.add(n ? `${base}-${n}` : base)
  }
  return out
}

// → ['file line n: target (why)'] for every relative link of `file` (relative to root) that does not resolve.
function brokenLinks (file, root = ROOT) {
  const text = fs.readFileSync(path.join(root, file), 'utf8')
  const broken = []
  for (const { line, target } of linksOf(text)) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue // https:, mailto:, data:: not a file of the checkout
    const [pathPart, fragment] = target.split('#')
    const decoded = decodeURIComponent(pathPart.split('?')[0])
    const resolved = decoded ? path.join(root, path.dirname(file), decoded) : path.join(root, file)
    const where = `${file} line ${line}: ${target}`
    if (decoded.startsWith('/')) {
      broken.push(`${where} (an absolute path: link relative to the file)`)
    } else if (!path.relative(root, resolved) || path.relative(root, resolved).startsWith('..')) {
      broken.push(`${where} (outside the checkout)`)
    } else if (!fs.existsSync(resolved)) {
      broken.push(`${where} (no such file: ${path.relative(root, resolved)})`)
    } else if (fragment && resolved.endsWith('.md') && !anchorsOf(fs.readFileSync(resolved, 'utf8')).has(fragment)) {
      broken.push(`${where} (no heading with the anchor #${fragment} in ${path.relative(root, resolved)})`)
    }
  }
  return broken
}

describe('every relative link of the README and the guides resolves (docs/**/*.md)', () => {
  it('reads links and anchors as GitHub does: code is not a link, headings give anchors', () => {
    const md = '# A guide: `npm run bench -- all`\n\n## Limits (seed 000)\n\n## Limits (seed 000)\n\nsee [x](a.md#b), ![i](p.png "t")\n' +
      '`[not](a link)` and\n```\n[nor](this)\n```\n[mail](mailto:x@y) [web](https://e.org/a)\n'
    assert.deepEqual(linksOf(md), [{ line: 7, target: 'a.md#b' }, { line: 7, target: 'p.png' }, { line: 12, target: 'mailto:x@y' }, { line: 12, target: 'https://e.org/a' }])
    assert.deepEqual([...anchorsOf(md)], ['a-guide-npm-run-bench----all', 'limits-seed-000', 'limits-seed-000-1'])
    assert.equal(slug("The QUIC interop runner's network cases: HTTP/3"), 'the-quic-interop-runners-network-cases-http3')
  })

  it('a broken link is named with its file and line: a missing file, a missing anchor, a path outside', () => {
    const root = fs.mkdtempSync(path.join(require('node:os').tmpdir(), 'h2bench-doc-links-'))
    try {
      fs.mkdirSync(path.join(root, 'docs/studies/x'), { recursive: true })
      fs.writeFileSync(path.join(root, 'docs/studies/x/report.md'), '# Report\n\n## Verdicts\n')
      fs.writeFileSync(path.join(root, 'README.md'), '[ok](docs/guide.md) [ok](docs/studies/x/report.md#verdicts) [dir](docs/studies/)\n')
      fs.writeFileSync(path.join(root, 'docs/guide.md'), '# G\n\n[gone](study/report.md)\n[anchor](studies/x/report.md#claims) [self](#g) [self](#h)\n[up](../../x.md)\n')
      assert.deepEqual(markdownFiles(root), ['README.md', 'docs/guide.md', 'docs/studies/x/report.md'])
      assert.deepEqual(brokenLinks('README.md', root), [])
      assert.deepEqual(brokenLinks('docs/guide.md', root), [
        'docs/guide.md line 3: study/report.md (no such file: docs/study/report.md)',
        'docs/guide.md line 4: studies/x/report.md#claims (no heading with the anchor #claims in docs/studies/x/report.md)',
        'docs/guide.md line 4: #h (no heading with the anchor #h in docs/guide.md)',
        'docs/guide.md line 5: ../../x.md (outside the checkout)'
      ])
    } finally {
      fs.rmSync(root, { recursive: true, force: true })
    }
  })

  it('README.md and every Markdown file under docs/: no broken relative link', () => {
    const files = markdownFiles()
    assert.ok(files.includes('README.md') && files.includes('docs/page.md'), files.join(', '))
    assert.deepEqual(files.flatMap(f => brokenLinks(f)), [])
  })
})

'use strict'

// The guides' verdicts regions (README.md and docs/*.md) are generated from the reports
// (bench/report/studies/readme-verdicts.js): regenerating them must give every guide as committed.
const assert = require('node:assert/strict')
const fs = require('node:fs')
const path = require('node:path')
const { verdictsOf, rewriteReadme, rewriteGuides } = require('../../bench/report/studies/readme-verdicts')

const ROOT = path.join(__dirname, '..', '..')

describe('README verdicts regions, generated from the reports', () => {
  it('reads a report\'s verdicts list: experiment, claim, status', () => {
    const md = '# r\n\n## Verdicts\n\nOne rule.\n\n- delay: **h1 grows, h2 flat**: partly reproduced.\n- site: **HTTP/2 loads faster**: does not hold.\n\n## delay: x\n\n- **h1 grows, h2 flat**: partly reproduced, figures.\n'
    assert.deepEqual(verdictsOf(md), [
      { experiment: 'delay', text: 'h1 grows, h2 flat', status: 'partly reproduced' },
      { experiment: 'site', text: 'HTTP/2 loads faster', status: 'does not hold' }
    ])
  })

  it('rewrites a region from its report, and only the region', () => {
    const dir = fs.mkdtempSync(path.join(require('node:os').tmpdir(), 'h2bench-verdicts-'))
    try {
      fs.mkdirSync(path.join(dir, 'docs'))
      fs.writeFileSync(path.join(dir, 'docs/report.md'), '# r\n\n## Verdicts\n\n- size: **h2 slower**: inconclusive.\n')
      const readme = 'before\n<!-- verdicts: docs/report.md -->\nstale text\n<!-- /verdicts -->\nafter\n'
      const out = rewriteReadme(readme, dir)
      assert.match(out, /^before\n<!-- verdicts: docs\/report\.md -->\nGenerated from .*\n\n\| experiment \| claim \| status \|\n\| --- \| --- \| --- \|\n\| size \| h2 slower \| inconclusive \|\n<!-- \/verdicts -->\nafter\n$/)
      assert.equal(rewriteReadme(out, dir), out)
    } finally {
      fs.rmSync(dir, { recursive: true, force: true })
    }
  })

  it('a guide in docs/ names its report relative to its own folder and links it so; a failure names the guide and the line', () => {
    const dir = fs.mkdtempSync(path.join(require('node:os').tmpdir(), 'h2bench-verdicts-'))
    try {
      fs.mkdirSync(path.join(dir, 'docs/studies/x'), { recursive: true })
      fs.writeFileSync(path.join(dir, 'docs/studies/x/report.md'), '# r\n\n## Verdicts\n\n- size: **h2 slower**: inconclusive.\n')
      fs.writeFileSync(path.join(dir, 'docs/guide.md'), '# g\n<!-- verdicts: studies/x/report.md -->\n<!-- /verdicts -->\n')
      fs.writeFileSync(path.join(dir, 'README.md'), 'no regions\n')
      const [readme, guide] = rewriteGuides(dir, { write: true })
      assert.equal(readme.now, readme.text)
      assert.equal(guide.file, 'docs/guide.md')
      assert.match(fs.readFileSync(path.join(dir, 'docs/guide.md'), 'utf8'), /^Generated from \[studies\/x\/report\.md\]\(studies\/x\/report\.md\) .*\n\n.*\n.*\n\| size \| h2 slower \| inconclusive \|\n<!-- \/verdicts -->\n$/m)
      assert.throws(() => rewriteReadme('a\n\n<!-- verdicts: studies/none/report.md -->\n<!-- /verdicts -->\n', dir, 'docs/guide.md'),
        /^Error: docs\/guide\.md line 3: docs\/studies\/none\/report\.md: no such report/)
      assert.throws(() => rewriteReadme('<!-- verdicts: studies/x/report.md -->\n', dir, 'docs/guide.md'), /^Error: docs\/guide\.md line 1: a verdicts region without/)
    } finally {
      fs.rmSync(dir, { recursive: true, force: true })
    }
  })

  it("this checkout's guides (README.md, docs/*.md): every verdicts region is what its report says (npm run studies -- --write rewrites them)", () => {
    const guides = rewriteGuides(ROOT)
    assert.ok(guides.some(g => /<!-- verdicts: /.test(g.text)), 'the guides have verdicts regions')
    for (const { file, text, now } of guides) {
      if (now === text) continue
      const [a, b] = [text.split('\n'), now.split('\n')]
      const line = a.findIndex((l, i) => l !== b[i]) + 1
      assert.fail(`${file} line ${line}: a verdicts region differs from its report (${JSON.stringify(a[line - 1])}, the report gives ${JSON.stringify(b[line - 1])}): run npm run studies -- --write`)
    }
  })
})

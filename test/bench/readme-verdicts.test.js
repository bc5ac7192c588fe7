'use strict'

// The README's verdicts regions are generated from the reports (bench/studies/readme-verdicts.js):
// regenerating them must give the README as committed.
const assert = require('node:assert/strict')
const fs = require('node:fs')
const path = require('node:path')
const { verdictsOf, rewriteReadme } = require('../../bench/studies/readme-verdicts')

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

  it('this README: every verdicts region is what its report says (npm run studies -- --write rewrites them)', () => {
    const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8')
    assert.ok(/<!-- verdicts: /.test(readme), 'the README has verdicts regions')
    assert.equal(rewriteReadme(readme, ROOT), readme, 'a verdicts region differs from its report: run npm run studies -- --write')
  })
})

'use strict'

// The gate on the committed studies (issue 21): every docs/**/results.json was
// measured with the code this checkout would measure with. A change on a
// study's measuring path (harness/provenance.js measuringPathFor) fails here
// until the study is rerun (npm run studies -- --commands prints how); a
// change to report-only code does not (npm run bench -- --from rebuilds).
// Needs the history: a shallow clone or an export cannot say which commits
// came after a study's, so the gate says so and skips.
const assert = require('node:assert/strict')
const path = require('node:path')
const { execFileSync } = require('node:child_process')
const { findStudies, studyState } = require('../../bench/studies/studies')

const ROOT = path.join(__dirname, '..', '..')

// Why the history cannot answer, or null when it can.
function noHistory () {
  try {
    const shallow = execFileSync('git', ['rev-parse', '--is-shallow-repository'], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim()
    return shallow === 'true' ? 'this clone is shallow' : null
  } catch {
    return 'this checkout is not a git repository'
  }
}

describe('the committed studies were measured with the code on main', function () {
  const why = noHistory()
  const studies = findStudies(ROOT)

  before(function () {
    if (why) {
      console.log(`      (skipped: ${why}; the gate needs the history to tell which commits came after each study's)`)
      this.skip()
    }
  })

  it('finds every study (at least the ten committed ones)', () => {
    assert.ok(studies.length >= 10, `found ${studies.length} studies under docs/: ${studies.join(', ')}`)
  })

  for (const file of studies) {
    const dir = path.dirname(file)
    it(`${dir} is fresh`, () => {
      const state = studyState(file, { root: ROOT })
      assert.ok(state.fresh, `${dir} is stale: ${state.why}. Rerun it, nothing else on the machine: ${state.command}; then update its README figures`)
    })
  }
})

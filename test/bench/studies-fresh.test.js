'use strict'

// The index of the committed studies (docs/STUDIES.md) is what
// `npm run studies -- --write` writes now: a change on a study's measuring
// path (harness/provenance.js measuringPathFor) comes with its row saying so,
// and a study whose path moved is told there, not a failed test (rerunning
// hours of studies before every fix to measuring code would block the fix;
// `npm run studies -- --check` is the release check). Needs the history: a
// shallow clone or an export cannot say what changed since a study's commit,
// so the test says so and skips.
const assert = require('node:assert/strict')
const fs = require('node:fs')
const path = require('node:path')
const { findStudies, historyMissing, studiesIndex, INDEX } = require('../../bench/report/studies/studies')

const ROOT = path.join(__dirname, '..', '..')

// The lines of one text missing from the other, marked - (committed) and + (written now).
function rowsThatDiffer (committed, now) {
  const [a, b] = [committed, now].map(text => text.split('\n'))
  return [...a.filter(l => !b.includes(l)).map(l => `- ${l}`), ...b.filter(l => !a.includes(l)).map(l => `+ ${l}`)]
}

describe('the index of the committed studies (docs/STUDIES.md) is up to date', function () {
  const why = historyMissing(ROOT)
  const studies = findStudies(ROOT)

  before(function () {
    if (why) {
      console.log(`      (skipped: ${why}; the index needs the history to tell what changed since each study's commit)`)
      this.skip()
    }
  })

  it('finds every study (at least the ten committed ones)', () => {
    assert.ok(studies.length >= 10, `found ${studies.length} studies under docs/: ${studies.join(', ')}`)
  })

  it('npm run studies finds them from its own folder (its default root is the checkout, whatever room it lives in)', () => {
    const { spawnSync } = require('node:child_process')
    const r = spawnSync(process.execPath, [path.join(ROOT, 'bin', 'h2bench-studies.js')], { cwd: ROOT, encoding: 'utf8' })
    assert.ok([0, 1].includes(r.status), r.stderr)
    for (const s of studies.map(f => path.dirname(f))) assert.ok(r.stdout.includes(s), `npm run studies does not name ${s}:\n${r.stdout.slice(0, 400)}`)
  })

  it(`${INDEX} is what npm run studies -- --write writes now`, () => {
    const file = path.join(ROOT, INDEX)
    assert.ok(fs.existsSync(file), `${INDEX} is missing: run npm run studies -- --write`)
    const now = studiesIndex(ROOT)
    const committed = fs.readFileSync(file, 'utf8')
    if (committed === now) return
    const rows = rowsThatDiffer(committed, now)
    assert.fail(`${INDEX} differs from what the code and the studies say now${rows.length ? `:\n${rows.join('\n')}\n` : ' (in blank lines or order); '}run npm run studies -- --write`)
  })
})

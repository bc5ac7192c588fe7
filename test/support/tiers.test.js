'use strict'

// The test tiers of test/support/tiers.js (test/run.js --tier): a file's folder
// says its tier, and a unit test requires none of the helpers that start a
// server or a program.
const assert = require('node:assert/strict')
const fs = require('node:fs')
const path = require('node:path')
const { TIERS, IN_PLACE, NEEDS, tierOf, testFiles, filesOf } = require('./tiers')

const ROOT = path.join(__dirname, '..', '..')

describe('test tiers (test/support/tiers.js)', () => {
  it('a file\'s folder says its tier: slow/, integration/, else unit', () => {
    assert.equal(tierOf('test/server/payload.test.js'), 'unit')
    assert.equal(tierOf('test/server/integration/lanes.test.js'), 'integration')
    assert.equal(tierOf('test/server/slow/torture.test.js'), 'slow')
    assert.equal(tierOf('test/bench/studies.test.js'), 'integration')
  })

  it('every test file is in one tier, and the tiers together are every file (npm test)', () => {
    const all = testFiles()
    assert.ok(all.length > 80, `${all.length} files`)
    const byTier = TIERS.map(t => filesOf([t]))
    assert.deepEqual(byTier.flat().sort(), all)
    for (const files of byTier) assert.ok(files.length > 0)
  })

  it('the integration tests left in place are still there (move a file, then take it off IN_PLACE)', () => {
    for (const file of IN_PLACE) assert.ok(fs.existsSync(path.join(ROOT, file)), `${file} is gone`)
  })

  it('no unit test requires a helper that needs a server or a program: those belong in integration/ or slow/', () => {
    const problems = []
    for (const file of filesOf(['unit'])) {
      const text = fs.readFileSync(path.join(ROOT, file), 'utf8')
      for (const m of text.matchAll(/require(?:\.resolve)?\(\s*'(\.{1,2}\/[^']*)'/g)) {
        const target = path.relative(ROOT, path.resolve(ROOT, path.dirname(file), m[1])).split(path.sep).join('/')
        const needs = NEEDS[target] || NEEDS[`${target}.js`]
        if (needs) problems.push(`${file} requires ${m[1]}, which needs ${needs}: move it to ${path.dirname(file)}/integration/`)
      }
    }
    assert.deepEqual(problems, [])
  })
})

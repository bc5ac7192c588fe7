'use strict'

// npm run bench -- … --shard i/n, then merge: the real command's two shards,
// merged, hold the cells one run of the whole plan holds (the same cells,
// lanes, repeats and order; the timings are new measurements, so they differ).
const assert = require('node:assert/strict')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { validateResults } = require('../../../bench/report/runner/results-schema')
const { runNode } = require('../../support/run-node')

const RUN = path.join(__dirname, '..', '..', '..', 'bin', 'h2bench-run.js')
const ARGS = ['delay', '--smoke', '--lanes', 'h1,h2n']

describe('npm run bench -- --shard i/n, and merge (the real command)', function () {
  this.timeout(300000)
  let dir = null
  before(() => { dir = fs.mkdtempSync(path.join(os.tmpdir(), 'h2bench-shard-')) })
  after(() => { if (dir) fs.rmSync(dir, { recursive: true, force: true }) })

  const read = name => JSON.parse(fs.readFileSync(path.join(dir, name, 'results.json'), 'utf8'))
  const cellsOf = json => json.results.map(r => `${r.experiment}#${r.cell} ${r.lane} ${r.network} ${r.browser} ${r.repeatsAsked} planned ${r.planned}`)

  it('two shards merged equal one run\'s cells; the report is written; a shard alone is refused', async () => {
    for (const [name, extra] of [['whole', []], ['s1', ['--shard', '1/2']], ['s2', ['--shard', '2/2']]]) {
      const r = await runNode(RUN, [...ARGS, ...extra, '--out', path.join(dir, name)])
      assert.equal(r.code, 0, r.stderr)
      if (name === 's1') assert.match(r.stderr, /^shard 1 of 2: \d+ of the plan's \d+ cells$/m)
    }
    const [whole, s1, s2] = ['whole', 's1', 's2'].map(read)
    assert.ok(s1.results.length > 0 && s2.results.length > 0, 'a shard measured nothing')
    assert.deepEqual(s1.environment.shard, { index: 1, count: 2, plannedCells: new Set(whole.results.map(r => r.planned)).size })
    const merged = await runNode(RUN, ['merge', path.join(dir, 's2'), path.join(dir, 's1'), '--out', path.join(dir, 'merged')])
    assert.equal(merged.code, 0, merged.stderr)
    const m = read('merged')
    assert.deepEqual(validateResults(m), [])
    assert.deepEqual(cellsOf(m), cellsOf(whole))
    assert.equal(m.environment.command, `npm run bench -- ${ARGS.join(' ')}`)
    assert.ok(fs.existsSync(path.join(dir, 'merged', 'report.md')))
    const alone = await runNode(RUN, ['merge', path.join(dir, 's1'), '--out', path.join(dir, 'bad')])
    assert.notEqual(alone.code, 0)
    assert.match(alone.stderr, /shard 2 of 2 missing/)
  })
})

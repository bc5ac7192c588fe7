'use strict'

// npm run bench -- merge: shards of one study joined into one run's results
// (bench/report/runner/merge.js), on fabricated rows; the real command's shards in
// test/bench/slow/runner-shard.test.js.
const assert = require('node:assert/strict')
const { mergeShards, commandOf } = require('../../bench/report/runner/merge')
const { validateResults } = require('../../bench/report/runner/results-schema')
const { parseRunArgs } = require('../../bench/runner/run-args')
const { fabricate, around } = require('../support/result-rows')

const ENV = {
  node: 'v22.0.0', chromium: 'Chromium 140', userAgent: null, playwrightCore: '1.65.1', h2bench: '0.1.0 abc1234', cpu: 'AMD EPYC',
  cpus: 2, memoryGiB: 8, os: 'Linux', date: '2026-11-25T10:00:00.000Z', durationSeconds: 60, lanes: ['h1', 'h2'], repeats: 5,
  budgetSeconds: 120, smoke: false, networks: ['devtools'], browsers: ['chromium'], machine: 'a'
}

// The delay experiment's cells, lanes h1 and h2, each cell's rows planned at its index; shard i of n holds cells k with k mod n = i - 1.
function study () {
  const rows = fabricate('delay', { h1: [around(500), around(700), around(900)], h2: [around(400), around(600), around(650)] })
  return rows.map(r => ({ ...r, planned: r.cell, machine: 'a' }))
}
function shard (rows, index, count, extra = {}) {
  return {
    file: `shard-${index}`,
    json: {
      environment: { ...ENV, command: `npm run bench -- delay --shard ${index}/${count} --out s${index}`, shard: { index, count, plannedCells: 3 }, machine: `m${index}`, ...extra },
      results: rows.filter(r => r.planned % count === index - 1)
    }
  }
}

describe('merging shards (npm run bench -- merge)', () => {
  it('two shards merged hold one run\'s rows, in the plan\'s order, with the baseline comparisons over all of them', () => {
    const all = study()
    const merged = mergeShards([shard(all, 2, 2), shard(all, 1, 2)])
    assert.deepEqual(validateResults(merged), [])
    const key = r => `${r.experiment}#${r.cell} ${r.lane} ${r.median} ${r.baseline} ${r.ratioToBaseline} ${r.comparison && r.comparison.verdict}`
    // A run writes a cell's rows together, cell after cell (the fabricated rows are lane after lane).
    assert.deepEqual(merged.results.map(key), all.slice().sort((a, b) => a.planned - b.planned).map(key))
    assert.equal(merged.environment.command, 'npm run bench -- delay')
    assert.equal(merged.environment.machine, 'm1, m2')
    assert.deepEqual(merged.environment.shards.map(s => [s.index, s.machine]), [[1, 'm1'], [2, 'm2']])
    assert.equal(merged.environment.shard, undefined)
  })

  it('refuses shards of other code or options, a shard twice, a missing one, a run that was not a shard', () => {
    const all = study()
    assert.throws(() => mergeShards([shard(all, 1, 2), shard(all, 2, 2, { h2bench: '0.1.0 def5678' })]), /shard-2 differs from shard-1 in h2bench \("0\.1\.0 def5678" against "0\.1\.0 abc1234"\)/)
    assert.throws(() => mergeShards([shard(all, 1, 2), shard(all, 2, 2, { repeats: 3 })]), /differs from shard-1 in repeats/)
    const other = shard(all, 2, 2)
    other.json.environment.command = 'npm run bench -- delay --cells 150 --shard 2/2'
    assert.throws(() => mergeShards([shard(all, 1, 2), other]), /shards must run the same command but for --shard/)
    assert.throws(() => mergeShards([shard(all, 1, 2), shard(all, 1, 2)]), /shard 1 of 2 twice/)
    assert.throws(() => mergeShards([shard(all, 1, 3), shard(all, 3, 3)]), /shard 2 of 3 missing/)
    assert.throws(() => mergeShards([shard(all, 1, 2), shard(all, 2, 3)]), /is a shard of 3, shard-1 of 2/)
  })

  it('the command line: --shard i/n, merge needs --out, the link needs --seed', () => {
    assert.deepEqual(parseRunArgs(['delay', '--shard', '2/4']).shard, { index: 2, count: 4 })
    assert.throws(() => parseRunArgs(['delay', '--shard', '5/4']), /--shard 5\/4: i must be 1…n/)
    assert.throws(() => parseRunArgs(['delay', '--shard', 'half']), /--shard must be i\/n/)
    assert.throws(() => parseRunArgs(['delay', '--network', 'link', '--shard', '1/2']), /--shard behind the link needs --seed/)
    assert.deepEqual(parseRunArgs(['delay', '--network', 'link', '--seed', '7', '--shard', '1/2']).shard, { index: 1, count: 2 })
    assert.deepEqual(parseRunArgs(['merge', 'a', 'b', '--out', 'm']), { help: false, merge: ['a', 'b'], out: 'm', json: false })
    assert.throws(() => parseRunArgs(['merge', 'a', 'b']), /merge: give --out/)
    assert.equal(commandOf({ command: 'npm run bench -- all --shard 3/8 --out /tmp/x --json --repeats 5' }), 'npm run bench -- all --repeats 5')
  })
})

'use strict'

const assert = require('node:assert/strict')
const path = require('node:path')
const { LANES } = require('../../../server/lanes')
const { runNode } = require('../../support/run-node')

const BENCH = path.join(__dirname, '..', '..', '..', 'bin', 'h2bench-server-bench.js')

// The real command with h2load against real lanes, short: it runs and says
// what it measured. The figures themselves are the benchmark's to report, not
// this test's to judge (a busy machine must not fail it).
describe('npm run bench:server -- --smoke (h2load against every lane)', function () {
  this.timeout(180000)
  let result = null
  let json = null

  before(async () => {
    result = await runNode(BENCH, ['--smoke', '--json'])
    json = result.code === 0 ? JSON.parse(result.stdout) : null
  })

  it('exits 0 and prints JSON', () => {
    assert.equal(result.code, 0, result.stderr)
    assert.ok(json)
  })

  it('measures 100 B and 1 MiB bodies on every lane, with no failed request and each lane\'s ratio to h1', () => {
    const names = LANES.map(l => l.name)
    assert.deepEqual(json.throughput.map(r => `${r.body} ${r.lane}`),
      ['100 B', '1 MiB'].flatMap(body => names.map(n => `${body} ${n}`)))
    for (const r of json.throughput) {
      assert.ok(r.succeeded > 0, `${r.body} ${r.lane}: nothing succeeded`)
      assert.equal(r.failed, 0, `${r.body} ${r.lane}`)
      assert.ok(r.reqPerSec > 0 && r.mbPerSec > 0)
      assert.ok(r.p50 > 0 && r.p50 <= r.p90 && r.p90 <= r.p99)
      assert.ok(r.peakRssMiB > 0)
      // The CPU the cell cost: the app's and h2load's always, Caddy's beside them (every lane is in this run, the edge lanes too).
      for (const who of ['app', 'edge', 'h2load', 'servers']) {
        assert.ok(r.cpu[who], `${r.body} ${r.lane}: no ${who} CPU`)
        assert.ok(r.cpu[who].ms >= 0 && r.cpu[who].cores >= 0 && r.cpu[who].msPerRequest >= 0, `${r.body} ${r.lane} ${who}`)
      }
      assert.ok(r.cpu.servers.ms >= r.cpu.app.ms)
      assert.ok(Math.abs(r.ratioToH1 - r.reqPerSec / json.throughput.find(b => b.body === r.body && b.lane === 'h1').reqPerSec) < 1e-9)
    }
  })

  it('reports spdy against node:http2 per body size', () => {
    assert.deepEqual(json.spdyToNodeHttp2.map(r => r.body), ['100 B', '1 MiB'])
    for (const r of json.spdyToNodeHttp2) assert.ok(r.reqPerSec > 0)
  })

  it('runs the memory test on every lane: every 16 MiB response whole, RSS before, waiting and sending', () => {
    assert.deepEqual(json.memory.map(m => m.lane), LANES.map(l => l.name))
    for (const m of json.memory) {
      assert.equal(m.succeeded, m.requests, m.lane)
      assert.equal(m.failed, 0, m.lane)
      assert.ok(m.beforeMiB > 0 && m.sendingPeakMiB >= m.beforeMiB, m.lane)
    }
  })
})

'use strict'

const assert = require('node:assert/strict')
const path = require('node:path')
const { runNode } = require('../../support/run-node')

const SCRIPT = path.join(__dirname, '..', '..', '..', 'bin', 'h2bench-qlog-cost.js')

// The real benchmark, one pair of small workloads: the h3 lane with its qlog
// on writes one (its size reported), with it off none, and both runs are timed.
describe('npm run bench:qlog-cost -- --smoke --json (the h3 lane, qlog on and off)', function () {
  this.timeout(120000)

  it('runs each workload with the qlog on and off and reports the time, Caddy\'s CPU and the qlog\'s size', async () => {
    const r = await runNode(SCRIPT, ['--smoke', '--json'])
    assert.equal(r.code, 0, r.stderr.slice(-2000))
    const result = JSON.parse(r.stdout)
    assert.equal(result.workloads.length, 2)
    for (const w of result.workloads) {
      assert.equal(w.pairs, 1)
      assert.ok(w.timeMs.off > 0 && w.timeMs.on > 0, JSON.stringify(w))
      assert.ok(w.serverCpuMs.off >= 0 && w.serverCpuMs.on > 0, JSON.stringify(w))
      // A JSON record a packet: 4 MiB down is some 3,000 packets, 200 responses some hundreds.
      assert.ok(w.qlogBytesPerRun > 50000, `${w.label}: ${w.qlogBytesPerRun} bytes of qlog`)
    }
    assert.match(r.stderr, /pair 1 of 1: off \d+ ms, on \d+ ms/)
  })
})

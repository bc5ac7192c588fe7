'use strict'

// npm run bench:link -- --effects, its smoke form: the C forwarder with
// effects on moves packets, and what it reports agrees with physics (a
// 400 Mbit/s rate delivers at most 400 Mbit/s however fast the flood).
const assert = require('node:assert/strict')
const path = require('node:path')
const { execFile } = require('node:child_process')
const { promisify } = require('node:util')

const run = promisify(execFile)
const BIN = path.join(__dirname, '..', '..', '..', 'bin', 'h2bench-link-bench.js')

const { skipWithoutLink } = require('../../support/link-tests')

describe('npm run bench:link -- --effects (smoke)', function () {
  this.timeout(120000)

  before(skipWithoutLink)

  it('measures each effect\'s flood and paced load; a rate-limited one delivers its rate, no more', async () => {
    const { stdout } = await run(process.execPath, [BIN, '--effects', 'none,codel,dropflow', '--smoke', '--json'], { maxBuffer: 64 << 20 })
    const record = JSON.parse(stdout)
    assert.deepEqual([...new Set(record.runs.map(r => r.effect))], ['none', 'dropflow', 'codel'])
    const flood = id => record.runs.find(r => r.load === `${id}:flood`)
    const paced = id => record.runs.find(r => r.load === `${id}:udp100`)
    console.log(`      · flood: none ${flood('none').deliveredMbps.toFixed(0)} Mbit/s, codel (400 Mbit/s) ${flood('codel').deliveredMbps.toFixed(1)}; ` +
      `paced 100 Mbit/s with codel: added p50 ${paced('codel').addedDelayMs.p50.toFixed(3)} ms`)
    assert.ok(flood('codel').deliveredMbps <= 400 * 1.01, 'a 400 Mbit/s link delivered more than its rate')
    assert.ok(flood('codel').deliveredMbps >= 400 * 0.9, 'the flood did not fill the 400 Mbit/s link')
    assert.ok(flood('none').deliveredMbps > 400, 'with nothing but a delay the forwarder moves more than 400 Mbit/s')
    for (const id of ['none', 'codel', 'dropflow']) {
      assert.ok(paced(id).deliveredMbps > 90 && paced(id).deliveredMbps < 110, `${id}: ${paced(id).deliveredMbps} Mbit/s delivered of 100`)
      assert.ok(paced(id).addedDelayMs.p50 >= 0, `${id}: a packet arrived before its configured delay`)
    }
  })
})

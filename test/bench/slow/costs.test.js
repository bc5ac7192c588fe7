'use strict'

// The measured dominant cost against physics, in a real Chromium on real
// lanes: a page slowed by CDP's CPU throttling comes out client-CPU-bound, a
// bulk transfer through a rate-limited link bandwidth-bound, small requests
// over a long round trip latency-bound, a lossy link loss-recovery-bound.
// And the meter's browser CPU against an independent observer (CDP's own
// main-thread task time).
const assert = require('node:assert/strict')
const { openNetwork } = require('../../../bench/runner/network')
const { runPageCell } = require('../../../bench/cells/page')
const { dominantCost } = require('../../../bench/runner/costs')
const { boundOf } = require('../../../bench/runner/bounds')
const { unavailableReason } = require('../../../link/namespace')

const entryOf = cell => ({ experiment: { id: 'costs' }, index: 0, cell: { delay: 0, preset: 'No throttling', ...cell } })

async function measure (network, cell, { lanes = ['h2n'], before = async () => {} } = {}) {
  const env = await openNetwork(network, { opts: { lanes }, needsBrowser: true, log: () => {}, firstSpec: cell.link || 'none' })
  try {
    await before(env)
    const [row] = await runPageCell({
      page: env.page, cdp: env.cdp, link: env.link, entry: entryOf(cell), lanes, laneInfo: env.running.lanes, repeats: 2, budgetMs: 120000, meter: env.meter
    })
    const cost = dominantCost(row.costs, boundOf(row, 'page'), 'Chromium')
    process.stdout.write(`      ${cost.dominant} (median ${(row.median / 1000).toFixed(3)} s)\n`)
    return { row, cost }
  } finally {
    await env.close()
  }
}

describe('the measured dominant cost of real cells', function () {
  this.timeout(240000)

  it('Chromium under CDP CPU throttling (20×): client CPU, the cell marked as shaped by the machine', async () => {
    const { row, cost } = await measure('devtools', { requests: 200, size: '1kb' }, {
      before: env => env.cdp.send('Emulation.setCPUThrottlingRate', { rate: 20 })
    })
    assert.equal(row.samples.length, 2, row.note)
    assert.match(cost.dominant, /^client CPU: Chromium/, JSON.stringify(row.costs))
    // Both observers see the page busy most of the time: its main thread's tasks (CDP) and its processes' CPU (/proc).
    assert.ok(row.costs.pageTaskMs >= 0.8 * row.costs.wallMs, JSON.stringify(row.costs))
    assert.equal(cost.cpuShaped, true)
  })

  it("the meter's browser CPU agrees with CDP's main-thread task time when nothing throttles (a page busy on the CPU)", async () => {
    const env = await openNetwork('devtools', { opts: { lanes: ['h2n'] }, needsBrowser: true, log: () => {} })
    try {
      await env.meter.start()
      await env.page.evaluate(() => { const t = Date.now(); while (Date.now() - t < 1500); })
      const r = await env.meter.stop()
      // The busy loop is on the renderer's main thread: both observers see about 1.5 s; /proc also counts the other processes' work.
      assert.ok(r.pageTaskMs >= 1400 && r.pageTaskMs <= 1700, JSON.stringify(r))
      assert.ok(r.browserCpuMs >= r.pageTaskMs * 0.8 && r.browserCpuMs <= r.pageTaskMs * 1.5 + 200, JSON.stringify(r))
    } finally {
      await env.close()
    }
  })

  describe('through the packet-level link', function () {
    before(function () {
      const why = unavailableReason()
      if (why) {
        process.stdout.write(`      (skipped: ${why})\n`)
        this.skip()
      }
    })

    it('a bulk transfer through 4 Mbit/s: bandwidth, the downlink busy most of the time', async () => {
      const { row, cost } = await measure('link', { requests: 2, size: '512kb', link: 'rtt=10ms,down=4mbit,queue=100' })
      assert.equal(row.samples.length, 2, row.note)
      assert.match(cost.dominant, /^bandwidth: the downlink busy (8\d|9\d|1\d\d) % of the time/, JSON.stringify(row.costs))
      // Physics: at least the body bytes crossed the downlink each run.
      assert.ok(row.costs.link.down.bytes >= 2 * 2 * 512 * 1024, JSON.stringify(row.costs.link))
    })

    it('six small requests over a 400 ms round trip: latency', async () => {
      const { row, cost } = await measure('link', { requests: 6, size: '1kb', link: 'rtt=400ms' })
      assert.equal(row.samples.length, 2, row.note)
      assert.match(cost.dominant, /^latency: 1 round trip of 400 ms a run/, JSON.stringify(row.costs))
    })

    it('a lossy link (10 % each way): loss recovery, with the drops and TCP retransmissions that made it', async () => {
      const { row, cost } = await measure('link', { requests: 30, size: '64kb', link: 'rtt=20ms,loss=10%' }, { lanes: ['h1'] })
      assert.match(cost.dominant, /^loss recovery: \d+ packets dropped, \d+ TCP retransmissions/, JSON.stringify(row.costs))
      assert.ok(cost.loss.drops > 0 && cost.loss.retransmitted > 0, JSON.stringify(cost.loss))
    })
  })
})

'use strict'

// The measured dominant cost against physics, in a real Chromium on real
// lanes: a page slowed by CDP's CPU throttling comes out client-CPU-bound, a
// bulk transfer through a rate-limited link bandwidth-bound, small requests
// over a long round trip latency-bound, a lossy link loss-recovery-bound.
// And the meter's browser CPU against an independent observer (CDP's own
// main-thread task time).
const assert = require('node:assert/strict')
const os = require('node:os')
const { openNetwork } = require('../../../bench/runner/network')
const { runPageCell } = require('../../../bench/cells/page')
const { dominantCost, timedMsOf } = require('../../../bench/report/runner/costs')
const { boundOf } = require('../../../bench/report/runner/bounds')
const { unavailableReason } = require('../../../link/namespace')
const { runLoadCell } = require('../../../bench/cells/load')
const { runSitePageCell } = require('../../../bench/cells/site-page')
const { firefoxUnavailableReason } = require('../../../harness/firefox')

const entryOf = cell => ({ experiment: { id: 'costs' }, index: 0, cell: { delay: 0, preset: 'No throttling', ...cell } })

async function measure (network, cell, { lanes = ['h2n'], before = async () => {}, browser = 'chromium' } = {}) {
  const env = await openNetwork(network, { opts: { lanes }, needsBrowser: true, browser, log: () => {}, firstSpec: cell.link || 'none' })
  try {
    await before(env)
    const [row] = await runPageCell({
      page: env.page, cdp: env.cdp, link: env.link, entry: entryOf(cell), lanes, laneInfo: env.running.lanes, repeats: 2, budgetMs: 120000, meter: env.meter
    })
    const cost = dominantCost(row.costs, boundOf(row, 'page'), browser === 'firefox' ? 'Firefox' : 'Chromium', timedMsOf(row))
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
      // At 85 % of its bandwidth bound or more a cell is bandwidth-bound, whatever its CPU did (bench/report/runner/costs.js).
      assert.match(cost.dominant, /^bandwidth-bound: the bound's [\d.]+ s a run at the network's rate is (8[5-9]|9\d|1\d\d) % of the time/, JSON.stringify(row.costs))
      // Physics: at least the body bytes crossed the downlink each run.
      assert.ok(row.costs.link.down.bytes >= 2 * 2 * 512 * 1024, JSON.stringify(row.costs.link))
    })

    it('six small requests over a 400 ms round trip: latency', async () => {
      const { row, cost } = await measure('link', { requests: 6, size: '1kb', link: 'rtt=400ms' })
      assert.equal(row.samples.length, 2, row.note)
      assert.match(cost.dominant, /^latency: 1 round trip of 400 ms a run/, JSON.stringify(row.costs))
    })

    it('Firefox: its processes\' CPU by its own process tree (no CDP: no main-thread time); a page busy on the CPU is seen busy', async function () {
      const why = firefoxUnavailableReason()
      if (why) {
        process.stdout.write(`      (skipped: ${why})\n`)
        return this.skip()
      }
      const { row, cost } = await measure('link', { requests: 6, size: '1kb', link: 'rtt=400ms' }, { browser: 'firefox' })
      assert.equal(row.samples.length, 2, row.note)
      assert.equal(row.costs.pageTaskMs, null)
      assert.ok(row.costs.browserCpuMs !== null, JSON.stringify(row.costs))
      assert.match(cost.dominant, /^latency: 1 round trip of 400 ms a run/, JSON.stringify(row.costs))
      const env = await openNetwork('link', { opts: { lanes: ['h2n'] }, needsBrowser: true, browser: 'firefox', log: () => {}, firstSpec: 'none' })
      try {
        // The same browser over the same 1.5 s, idle and then busy: the busy loop runs all along, so it takes every
        // bit of a core the machine gives it. How much that is depends on what else runs (a loaded 2-core CI gave
        // it less than 1.35 s once), so what is asserted is what the test guarantees: far more than idle (at least
        // a fifth of a core over the window), and never more than the machine's cores over the wall.
        await env.meter.start()
        await env.page.evaluate(() => new Promise(resolve => setTimeout(resolve, 1500)))
        const idle = await env.meter.stop()
        await env.meter.start()
        await env.page.evaluate(() => { const t = Date.now(); while (Date.now() - t < 1500); })
        const r = await env.meter.stop()
        process.stdout.write(`      Firefox: idle ${idle.browserCpuMs} ms, busy ${r.browserCpuMs} ms of CPU over ${Math.round(r.wallMs)} ms\n`)
        assert.ok(r.browserCpuMs - idle.browserCpuMs >= 300 && r.browserCpuMs <= r.wallMs * os.cpus().length + 200, JSON.stringify({ idle, r }))
      } finally {
        await env.close()
      }
    })

    it('a site page navigated in a tab of its own: the tab\'s meter (its own DevTools session) sees the load; round trips of 300 ms the largest share of a 15 KB page', async () => {
      const env = await openNetwork('link', { opts: { lanes: ['h2n'] }, needsBrowser: true, log: () => {}, firstSpec: 'rtt=300ms' })
      try {
        const entry = { experiment: { id: 'costs', kind: 'site-page' }, index: 0, cell: { size: '15kb', delay: 0, preset: 'rtt=300ms', link: 'rtt=300ms' } }
        const [row] = await runSitePageCell({
          context: env.browser.context, link: env.link, entry, laneInfo: env.running.lanes, repeats: 2, budgetMs: 120000, meter: env.meter
        })
        assert.equal(row.samples.length, 2, row.note)
        assert.ok(row.costs.pageTaskMs > 0 && row.costs.browserCpuMs > 0, JSON.stringify(row.costs))
        const cost = dominantCost(row.costs, boundOf(row, 'site-page'), 'Chromium', timedMsOf(row))
        process.stdout.write(`      ${cost.dominant} (median ${(row.median / 1000).toFixed(3)} s)\n`)
        // The bound's three round trips (TCP's SYN, the document, its subresources) are the largest share;
        // TLS's round trip, which early data could save and Chromium does not, is outside it.
        const [top, share] = Object.entries(cost.shares).sort((a, b) => b[1] - a[1])[0]
        assert.equal(top, 'latency', JSON.stringify(cost))
        assert.ok(share >= 0.6, JSON.stringify(cost))
      } finally {
        await env.close()
      }
    })

    it('load cells: h2load\'s own CPU measured (its threads), server CPU, the link; 20 requests over 400 ms latency-bound, 20,000 on a clean link CPU-bound', async () => {
      const tools = { 'http/1.1': 'h2load', h2: 'h2load', h3: 'oha' }
      const cellOf = (link, requests) => ({ link, preset: link, requests, size: '1024', delay: 0, timeoutS: 120, workload: { requests, connections: 2, muxConnections: 2, streams: 10, pipeline: 10, threads: 1, size: 1024, delay: 0 } })
      const run = async (link, requests) => {
        const [row] = await runLoadCell({ entry: { experiment: { id: 'costs', kind: 'load', tools }, index: 0, cell: cellOf(link, requests) }, lanes: ['h2n'], repeats: 2, budgetMs: 120000 })
        const cost = dominantCost(row.costs, boundOf(row, 'load'), row.load.tool, timedMsOf(row))
        process.stdout.write(`      ${cost.dominant} (median ${(row.median / 1000).toFixed(3)} s)\n`)
        return { row, cost }
      }
      const slow = await run('rtt=400ms', 20)
      assert.equal(slow.row.samples.length, 2, slow.row.note)
      assert.equal(slow.row.costs.runs, 2)
      assert.ok(slow.row.costs.toolCpuMs !== null && slow.row.costs.link.down.bytes >= 20 * 1024, JSON.stringify(slow.row.costs))
      assert.match(slow.cost.dominant, /^latency: 3 round trips of 400 ms a run/, JSON.stringify(slow.row.costs))
      const busy = await run('none', 20000)
      assert.equal(busy.row.samples.length, 2, busy.row.note)
      assert.ok(busy.row.costs.toolCpuMs > 0 && busy.row.costs.serverCpuMs > 0, JSON.stringify(busy.row.costs))
      // Nothing but CPU can take a clean link's time: CPU is its largest share. How large (80 % or more: "shaped")
      // depends on what else this machine runs (two CPU hogs beside it: server CPU 56 %), so it is printed, not asserted.
      const [top] = Object.entries(busy.cost.shares).sort((a, b) => b[1] - a[1])
      assert.ok(['clientCpu', 'serverCpu'].includes(top[0]), `${busy.cost.dominant}: ${JSON.stringify(busy.row.costs)}`)
    })

    it('a lossy link (10 % each way): loss recovery, with the drops and TCP retransmissions that made it', async () => {
      const { row, cost } = await measure('link', { requests: 30, size: '64kb', link: 'rtt=20ms,loss=10%' }, { lanes: ['h1'] })
      assert.match(cost.dominant, /^loss recovery: \d+ packets dropped, \d+ TCP retransmissions/, JSON.stringify(row.costs))
      assert.ok(cost.loss.drops > 0 && cost.loss.retransmitted > 0, JSON.stringify(cost.loss))
    })

    it('a lossy link over QUIC (oha on h3, a load cell): the server\'s qlog declares lost the packets the link dropped downstream', async () => {
      const workload = { requests: 20, connections: 1, muxConnections: 1, streams: 4, pipeline: 1, threads: 1, size: 65536, delay: 0 }
      const cell = { link: 'rtt=20ms,loss=3%', preset: 'rtt=20ms,loss=3%', requests: 20, size: '64kb', delay: 0, timeoutS: 120, workload }
      const [row] = await runLoadCell({ entry: { experiment: { id: 'costs', kind: 'load', tools: { h3: 'oha' } }, index: 0, cell }, lanes: ['h3'], repeats: 2, budgetMs: 120000 })
      const { quic, link } = row.costs
      const cost = dominantCost(row.costs, boundOf(row, 'load'), row.load.tool, timedMsOf(row), 'quic')
      process.stdout.write(`      ${cost.dominant}\n      qlog ${JSON.stringify(quic)}; link down ${JSON.stringify(link.down)}\n`)
      assert.equal(quic.runs, row.costs.runs, 'every sampled run\'s qlog read')
      assert.equal(quic.unclosed, 0, 'every connection logged to its end')
      // The link, an independent observer, dropped D of the server's packets; quic-go declares lost the ack-eliciting
      // ones (nearly all of a download's), not a dropped ACK-only packet nor one it never hears about (the last).
      const dropped = link.down.lost + link.down.queueDropped
      assert.ok(dropped >= 5, `the link dropped ${dropped} packets down: too few to judge`)
      assert.ok(quic.packetsLost - quic.spuriousLosses <= dropped, `declared lost ${quic.packetsLost} (${quic.spuriousLosses} spurious) > ${dropped} dropped`)
      assert.ok(quic.packetsLost >= 0.7 * dropped, `declared lost ${quic.packetsLost} of ${dropped} dropped`)
      // What the server sent is what the link carried down and dropped: qlog counts QUIC packets, the link datagrams,
      // and the handshake coalesces a few packets into one datagram (Initial, Handshake, the first 1-RTT: measured
      // 2,082 packets in 2,079 datagrams over 2 connections); the link's other traffic down is next to none.
      const carried = link.down.packets + dropped
      assert.ok(quic.packetsSent >= 0.99 * carried && quic.packetsSent <= carried + 3 * quic.connections, `qlog sent ${quic.packetsSent}, the link carried ${carried} datagrams`)
      assert.match(cost.dominant, new RegExp(`^loss recovery: \\d+ packets dropped, the server's QUIC declared ${quic.packetsLost} packets lost and ${quic.ptoExpired} probe timeouts fired`))
    })
  })
})

'use strict'

// The packet-level link measured from outside: real TUN devices, the real
// forwarder (link/forwarder/forwarder.c), a real client network namespace.
// Every emulated property is checked by an observer that does not trust the
// forwarder: probes of our own (test/support/link-probe.js: TCP connects, bulk
// transfers, numbered and timestamped UDP datagrams) and the kernel's counters
// (/proc/PID/net/snmp and /proc/PID/net/dev, PID being a process in the
// namespace to read). The forwarder's own stats are checked against them.
// Randomness uses a fixed seed, but the asserts are statistical bounds.

const assert = require('node:assert/strict')
const { spawn } = require('node:child_process')
const fs = require('node:fs')
const net = require('node:net')
const os = require('node:os')
const path = require('node:path')
const { openLink } = require('../../../link/namespace')
const { parseLinkSpec } = require('../../../link/spec')
const { forwarderCommands } = require('../../../link/forwarder-commands')
const probe = require('../../support/link-probe')

const { runInside, prioritizeForwarder, readSnmp, percentile, median, processGone, waitFor, stalledWithin } = probe

const { SEED, SIGMAS, withLink, note, listen, closeServer, assertBinomial, ipLinkNames, udpFlow, bulkThroughput, assertRate, skipWithoutLink } = require('../../support/link-tests')

describe('packet-level link emulation (real forwarder, TUN devices and namespace)', function () {
  this.timeout(30000)

  before(skipWithoutLink)

  describe('delay', () => {
    for (const { spec, rtt, up, down } of [
      { spec: 'rtt=10ms', rtt: 10 },
      { spec: 'rtt=60ms', rtt: 60 },
      { spec: 'delay.up=5ms,delay.down=45ms', rtt: 50, up: 5, down: 45 }
    ]) {
      it(`a TCP connect from the namespace takes one RTT (${spec})`, async () => {
        await withLink(spec, async link => {
          const server = net.createServer(socket => socket.destroy())
          const port = await listen(server, link.serverAddress)
          try {
            const { times } = await runInside(link, 'connect', { host: link.serverAddress, port, count: 9 })
            // No connect can beat the SYN's and SYN-ACK's delays: the fastest is
            // never below the RTT. Above it is the host's scheduling noise (the
            // probe's event loop, the forwarder's wake-ups): a disturbed full run
            // had all nine 1.2 ms or more over 10 ms, so the fastest is printed,
            // and only the median is bounded, by max(3 ms, 10 %).
            const best = Math.min(...times)
            const m = median(times)
            note(`connect ${best.toFixed(2)} ms, median ${m.toFixed(2)} (of ${times.map(t => t.toFixed(2)).join(', ')}) for RTT ${rtt} ms`)
            assert.ok(best >= rtt, `a connect took ${best.toFixed(2)} ms, under the RTT of ${rtt} ms`)
            assert.ok(m - rtt <= Math.max(3, 0.1 * rtt), `median connect ${m.toFixed(2)} ms; expected ${rtt} + at most ${Math.max(3, 0.1 * rtt)} ms`)
          } finally {
            await closeServer(server)
          }
          if (up === undefined) return
          // Asymmetric: each one-way delay on its own, with timestamped datagrams.
          for (const [dir, expected] of [['up', up], ['down', down]]) {
            const flow = await udpFlow(link, dir, { count: 20, intervalMs: 5, settleMs: 100 })
            assert.equal(flow.seqs.length, 20)
            const m = median(flow.delays)
            note(`one-way ${dir} ${m.toFixed(2)} ms (min ${Math.min(...flow.delays).toFixed(2)}) for delay.${dir}=${expected}ms`)
            assert.ok(Math.min(...flow.delays) >= expected, `a datagram went ${dir} in ${Math.min(...flow.delays)} ms, under the ${expected} ms delay`)
            // As the connect's: the floor is physics, above it the host's scheduling (a clean-clone run on a busy
            // 2-core machine: 46.09 ms for 45), so the median is bounded by max(3 ms, 10 %) as the connect's is.
            const slack = Math.max(3, 0.1 * expected)
            assert.ok(m <= expected + slack, `median one-way ${dir} delay ${m.toFixed(2)} ms; expected ${expected} ms (+${slack} ms)`)
          }
        })
      })
    }
  })

  describe('rate', () => {
    it('bulk TCP runs at 90…100.5 % of the rate at IP level, both ways (down=20mbit,up=8mbit,rtt=20ms)', async () => {
      await withLink('down=20mbit,up=8mbit,rtt=20ms', async link => {
        for (const [dir, rate] of [['down', 20e6], ['up', 8e6]]) {
          const { devBps, fwdBps, stats } = await bulkThroughput(link, dir)
          assertRate(devBps, rate, `${dir}: TUN rx (kernel)`)
          assertRate(fwdBps, rate, `${dir}: forwarder out_bytes`)
          note(`${dir}: queue delay p50 ${stats.queue_delay_ms.p50} ms, max ${stats.queue_delay_ms.max} ms, late p99 ${stats.late_ms.p99} ms`)
        }
      })
    })

    it('a mahimahi trace with one 1504-byte opportunity per ms carries 12.032 Mbit/s of bulk TCP (IP level)', async () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'h2bench-trace-'))
      try {
        const trace = path.join(dir, 'one-per-ms.trace')
        fs.writeFileSync(trace, '1\n')
        await withLink(`trace.down=${trace},rtt=20ms`, async link => {
          const { devBps, fwdBps } = await bulkThroughput(link, 'down')
          assertRate(devBps, 12.032e6, 'trace down: TUN rx (kernel)')
          assertRate(fwdBps, 12.032e6, 'trace down: forwarder out_bytes')
        })
      } finally {
        fs.rmSync(dir, { recursive: true, force: true })
      }
    })
  })

  describe('random impairments, counted by the forwarder and by an observer', () => {
    const COUNT = 2500
    // 200-byte datagrams, two every millisecond: no rate limit, so no queue,
    // and far below what the sink's 4 MiB receive buffer could drop.
    const FLOW = { count: COUNT, size: 200, burst: 2, intervalMs: 1 }

    it('loss in both directions (loss.down=5%, loss.up=2%)', async () => {
      await withLink('loss.down=5%,loss.up=2%', async link => {
        const [down, up] = await Promise.all([udpFlow(link, 'down', FLOW), udpFlow(link, 'up', FLOW)])
        const stats = await link.stats()
        for (const [dir, flow, p] of [['down', down, 0.05], ['up', up, 0.02]]) {
          const s = stats[dir]
          assert.equal(flow.drops, 0, `the ${dir} sink's socket dropped datagrams`)
          assert.equal(s.in_packets, COUNT, `${dir}: the forwarder saw ${s.in_packets} packets for ${COUNT} sent`)
          assert.equal(s.queue_dropped + s.duplicated + s.corrupted, 0)
          assert.equal(new Set(flow.seqs).size, flow.seqs.length, `${dir}: duplicates without dup`)
          const missing = flow.sent - flow.seqs.length
          note(`${dir}: sink missed ${missing}, forwarder lost ${s.lost}`)
          assert.equal(missing, s.lost, `${dir}: the sink missed ${missing} datagrams, the forwarder says it lost ${s.lost}`)
          assertBinomial(missing, COUNT, p, `loss ${dir}`)
        }
      })
    })

    it('the same seed, the same packets lost, whatever else the link does; a new seed, other packets', async () => {
      const FLOW2 = { count: 2000, size: 200, burst: 2, intervalMs: 1 }
      const lostOf = flow => {
        const got = new Set(flow.seqs)
        return Array.from({ length: flow.sent }, (_, i) => i).filter(i => !got.has(i))
      }
      // Loss alone; then loss with duplication, jitter and reordering, and a flow the other way at the same time.
      const plain = await withLink('loss.down=20%', async link => {
        await link.seed(42)
        const a = lostOf(await udpFlow(link, 'down', FLOW2))
        await link.seed(42) // indexes from 0 again: the same decisions
        const again = lostOf(await udpFlow(link, 'down', FLOW2))
        await link.seed(43)
        const other = lostOf(await udpFlow(link, 'down', FLOW2))
        return { a, again, other, stats: await link.stats() }
      })
      const busy = await withLink('loss.down=20%,dup.down=30%,delay.down=5ms,jitter.down=4ms,reorder.down=10%', async link => {
        await link.seed(42)
        const [down] = await Promise.all([udpFlow(link, 'down', FLOW2), udpFlow(link, 'up', FLOW2)])
        return { lost: lostOf(down), stats: await link.stats() }
      })
      note(`seed 42: ${plain.a.length} of 2000 lost; again ${plain.again.length}, the same ${plain.a.filter((x, i) => plain.again[i] === x).length}; ` +
        `with dup, jitter, reordering and traffic up: ${busy.lost.length}; seed 43: ${plain.other.length}, ${plain.other.filter(x => plain.a.includes(x)).length} of them also lost with 42`)
      assertBinomial(plain.a.length, 2000, 0.2, 'loss with seed 42')
      assert.deepEqual(plain.again, plain.a)
      assert.ok(busy.stats.down.duplicated > 0 && busy.stats.down.reordered > 0, JSON.stringify(busy.stats.down))
      assert.deepEqual(busy.lost, plain.a)
      assert.equal(plain.stats.seed, '43')
      // Another seed: independent draws, so about 20 % of its losses fall on packets seed 42 lost (4.5 σ).
      const both = plain.other.filter(x => plain.a.includes(x)).length
      assertBinomial(both, plain.other.length, 0.2, 'losses shared by seeds 42 and 43')
    })

    it('Gilbert-Elliott loss (gemodel.down=2%/25%): bursts of 1 ÷ r packets on average, p ÷ (p + r) of them lost, as netem\'s model', async () => {
      const N = 10000
      const flow = await withLink('gemodel.down=2%/25%', async link => {
        await link.seed(7)
        const f = await udpFlow(link, 'down', { count: N, size: 200, burst: 2, intervalMs: 1 })
        return { ...f, stats: await link.stats() }
      })
      const got = new Set(flow.seqs)
      const lost = Array.from({ length: N }, (_, i) => i).filter(i => !got.has(i))
      const bursts = []
      for (let i = 0; i < lost.length; i++) {
        if (i && lost[i] === lost[i - 1] + 1) bursts[bursts.length - 1]++
        else bursts.push(1)
      }
      const mean = bursts.reduce((a, b) => a + b, 0) / bursts.length
      // Bad spells are geometric with mean 1 ÷ r = 4 (sd √(1 − r) ÷ r); they start at a rate p from good packets.
      const r = 0.25
      const p = 0.02
      const se = Math.sqrt(1 - r) / r / Math.sqrt(bursts.length)
      note(`${lost.length} of ${N} lost (model ${(100 * p / (p + r)).toFixed(1)} %), ${bursts.length} bursts, mean ${mean.toFixed(2)} packets (model ${1 / r}, ± ${(SIGMAS * se).toFixed(2)}), longest ${Math.max(...bursts)}`)
      assert.equal(flow.drops, 0)
      assert.equal(flow.stats.down.lost, lost.length, 'the forwarder\'s count against the sink\'s')
      assert.ok(Math.abs(mean - 1 / r) <= SIGMAS * se, `mean burst ${mean} against ${1 / r} ± ${SIGMAS * se}`)
      const expectBursts = N * (r / (p + r)) * p
      assert.ok(Math.abs(bursts.length - expectBursts) <= SIGMAS * Math.sqrt(expectBursts), `${bursts.length} bursts against ${expectBursts.toFixed(0)}`)
      // Bernoulli loss of the same average would make bursts of 1 ÷ (1 − 0.074) ≈ 1.08 packets: these are bursts.
      assert.ok(mean > 2)
    })

    it('scheduled drops (drop.down=100-199): exactly those packets, by index since the seed, and counted', async () => {
      const flow = await withLink('drop.down=100-199', async link => {
        await link.seed(1)
        const f = await udpFlow(link, 'down', { count: 1000, size: 200, burst: 2, intervalMs: 1 })
        return { ...f, stats: await link.stats() }
      })
      const got = new Set(flow.seqs)
      const lost = Array.from({ length: 1000 }, (_, i) => i).filter(i => !got.has(i))
      assert.deepEqual(lost, Array.from({ length: 100 }, (_, i) => 100 + i))
      assert.equal(flow.stats.down.scheduled_dropped, 100)
    })

    // The outage's clock starts when the forwarder takes the spec, so the test
    // sets it once its flow runs (a flow that started 420 ms late on a loaded
    // CI met the dark period at once) and judges each datagram by when it was
    // sent: every one sent inside a dark period is lost and every one sent
    // outside is delivered, but for the LAG_MS either side that the send →
    // forwarder path and the configure's own round trip may take.
    const LAG_MS = 10
    async function outageFlow (spec, count) {
      return withLink('none', async link => {
        let set
        const f = await udpFlow(link, 'down', {
          count,
          size: 200,
          burst: 1,
          intervalMs: 1,
          onStart: async () => {
            const t0 = Number(process.hrtime.bigint() / 1000n) / 1000
            await link.configure(forwarderCommands(parseLinkSpec(spec)))
            set = { t0, t1: Number(process.hrtime.bigint() / 1000n) / 1000 }
          }
        })
        return { ...f, ...set, stats: await link.stats() }
      })
    }
    function darkRuns (flow, count) {
      const got = new Set(flow.seqs)
      const lost = Array.from({ length: count }, (_, i) => i).filter(i => !got.has(i))
      const runs = []
      for (let i = 0; i < lost.length; i++) {
        if (i && lost[i] === lost[i - 1] + 1) runs[runs.length - 1].n++
        else runs.push({ at: lost[i], n: 1 })
      }
      return { got, lost, runs }
    }
    // windows: [from, to] in ms after the spec was set.
    function assertDarkWindows (flow, got, windows) {
      const { t0, t1, sendTimes } = flow
      let unsure = 0
      sendTimes.forEach((s, i) => {
        const dark = windows.some(([from, to]) => s >= t1 + from && s <= t0 + to - LAG_MS)
        const light = windows.every(([from, to]) => s < t0 + from - LAG_MS || s > t1 + to)
        if (dark) assert.ok(!got.has(i), `datagram ${i}, sent ${(s - t0).toFixed(1)} ms after the outage was set, passed a dark period ${JSON.stringify(windows)}`)
        else if (light) assert.ok(got.has(i), `datagram ${i}, sent ${(s - t0).toFixed(1)} ms after the outage was set, was lost outside the dark periods ${JSON.stringify(windows)}`)
        else unsure++
      })
      note(`the spec took ${(t1 - t0).toFixed(2)} ms to set; ${unsure} datagrams within ${LAG_MS} ms of a period's edge not judged`)
    }

    it('outages (outage.down=1s/500ms): dark for 500 ms after every second up, every packet of a dark period dropped', async () => {
      const flow = await outageFlow('outage.down=1s/500ms', 2800)
      const { got, lost, runs } = darkRuns(flow, 2800)
      note(`dark runs (first datagram, length, at 1 datagram a ms): ${runs.map(r => `${r.at}+${r.n}`).join(', ')}; the forwarder counted ${flow.stats.down.blackholed}`)
      assert.ok(runs.length >= 1 && runs.length <= 2, JSON.stringify(runs))
      assertDarkWindows(flow, got, [[1000, 1500], [2500, 3000]])
      assert.equal(flow.stats.down.blackholed, lost.length)
    })

    it('outages with a count (outage.down=400ms/300ms/1): one dark period of 300 ms, then up for good', async () => {
      const flow = await outageFlow('outage.down=400ms/300ms/1', 2000)
      const { got, lost, runs } = darkRuns(flow, 2000)
      note(`dark runs: ${runs.map(r => `${r.at}+${r.n}`).join(', ')} (a repeating one would darken again 700 ms later); the forwarder counted ${flow.stats.down.blackholed}`)
      assert.equal(runs.length, 1, JSON.stringify(runs))
      // Up for good after it: the flow went on past where a second would be.
      assert.ok(flow.sendTimes[1999] > flow.t1 + 1400 + LAG_MS, `the flow ended ${(flow.sendTimes[1999] - flow.t1).toFixed(0)} ms after the outage was set, before a second dark period would begin`)
      assertDarkWindows(flow, got, [[400, 700]])
      assert.equal(flow.stats.down.blackholed, lost.length)
    })

    it('duplication in both directions (dup.up=5%, dup.down=2%)', async () => {
      await withLink('dup.up=5%,dup.down=2%', async link => {
        const [up, down] = await Promise.all([udpFlow(link, 'up', FLOW), udpFlow(link, 'down', FLOW)])
        const stats = await link.stats()
        for (const [dir, flow, p] of [['up', up, 0.05], ['down', down, 0.02]]) {
          const s = stats[dir]
          assert.equal(flow.drops, 0, `the ${dir} sink's socket dropped datagrams`)
          assert.equal(s.in_packets, COUNT)
          const unique = new Set(flow.seqs).size
          const extra = flow.seqs.length - unique
          assert.equal(unique, COUNT, `${dir}: ${COUNT - unique} datagrams never arrived`)
          note(`${dir}: sink saw ${extra} duplicates, forwarder duplicated ${s.duplicated}`)
          assert.equal(extra, s.duplicated)
          assert.equal(s.out_packets, COUNT + s.duplicated)
          assertBinomial(extra, COUNT, p, `dup ${dir}`)
        }
      })
    })

    it('corruption: every corrupted datagram fails the receiver\'s UDP checksum (corrupt.down=5%, corrupt.up=3%)', async () => {
      await withLink('corrupt.down=5%,corrupt.up=3%', async link => {
        const before = readSnmp(link.pid).Udp
        const [down, up] = await Promise.all([udpFlow(link, 'down', FLOW), udpFlow(link, 'up', FLOW)])
        const after = readSnmp(link.pid).Udp
        const stats = await link.stats()
        const delta = key => after[key] - before[key]
        // The client namespace is ours alone: its counters count only our flow.
        // A flipped bit in the UDP length field can make it longer than the
        // packet, which the kernel drops as a short packet (InErrors, not
        // InCsumErrors); InErrors counts both, and buffer drops, which must be 0.
        note(`down: forwarder corrupted ${stats.down.corrupted}; kernel (client namespace) InCsumErrors +${delta('InCsumErrors')}, InErrors +${delta('InErrors')}, RcvbufErrors +${delta('RcvbufErrors')}, InDatagrams +${delta('InDatagrams')}`)
        assert.equal(delta('RcvbufErrors'), 0)
        assert.equal(delta('InErrors'), stats.down.corrupted, 'every corrupted datagram is one the kernel threw away')
        assert.ok(delta('InCsumErrors') >= stats.down.corrupted - 3, 'corrupted datagrams fail the checksum')
        assert.equal(delta('InDatagrams'), COUNT - stats.down.corrupted)
        for (const [dir, flow, p] of [['down', down, 0.05], ['up', up, 0.03]]) {
          const s = stats[dir]
          assert.equal(s.in_packets, COUNT)
          assert.equal(s.out_packets, COUNT, `${dir}: corrupted packets are still delivered`)
          // The sink socket's own drop count is its checksum failures, less the
          // few whose flipped bit was in the destination port or the length
          // (dropped before the socket is looked up).
          note(`${dir}: the sink socket's kernel drop count ${flow.drops}`)
          assert.ok(flow.drops <= s.corrupted && flow.drops >= s.corrupted - 5, `${dir}: the sink's socket dropped ${flow.drops}, ${s.corrupted} were corrupted`)
          assert.equal(new Set(flow.seqs).size, flow.seqs.length)
          note(`${dir}: sink got ${flow.seqs.length} of ${COUNT}, forwarder corrupted ${s.corrupted}`)
          assert.equal(COUNT - flow.seqs.length, s.corrupted, `${dir}: ${COUNT - flow.seqs.length} datagrams did not reach the sink, ${s.corrupted} were corrupted`)
          assertBinomial(s.corrupted, COUNT, p, `corrupt ${dir}`)
        }
      })
    })

    it('reordering: a reordered datagram skips the delay and overtakes those in flight (delay=20ms, reorder.down=5%)', async () => {
      await withLink('delay=20ms,reorder.down=5%', async link => {
        const flow = await udpFlow(link, 'down', FLOW)
        const s = (await link.stats()).down
        assert.equal(flow.drops, 0)
        assert.equal(flow.seqs.length, COUNT)
        assert.equal(s.in_packets, COUNT)
        // Overtakers: datagrams that arrive before some datagram sent earlier.
        const position = new Array(COUNT)
        flow.seqs.forEach((seq, i) => { position[seq] = i })
        let overtakers = 0
        let latest = -1
        for (let seq = 0; seq < COUNT; seq++) {
          if (position[seq] < latest) overtakers++
          latest = Math.max(latest, position[seq])
        }
        // Under the 20 ms delay can only be a datagram that skipped it, so
        // never more than were reordered. One that skipped it may still take
        // ms when a CPU is busy elsewhere (a loaded run saw one at 16.5 ms, the
        // probe or the forwarder running late), hence the threshold at the
        // delay itself and a margin of two below.
        const fast = flow.delays.filter(d => d < 20).length
        const slow = flow.delays.filter(d => d >= 20)
        note(`forwarder reordered ${s.reordered}; observer: ${overtakers} overtakers, ${fast} datagrams under the 20 ms delay (median ${median(flow.delays.filter(d => d < 20)).toFixed(2)} ms), the others ${percentile(slow, 0).toFixed(2)}…${percentile(slow, 1).toFixed(2)} ms`)
        // The first datagram has nothing to overtake, hence the margin of one.
        assert.ok(overtakers <= s.reordered && overtakers >= s.reordered - 1, `${overtakers} overtakers for ${s.reordered} reordered`)
        assert.ok(fast <= s.reordered && fast >= s.reordered - 2, `${fast} datagrams skipped the delay, ${s.reordered} were reordered`)
        assertBinomial(s.reordered, COUNT, 0.05, 'reorder down')
      })
    })
  })

  describe('droptail queue', () => {
    // 1000-byte UDP payloads are 1028-byte IP packets: 8.2 ms each at 1 Mbit/s,
    // so a burst is all in the queue long before the first packet has left.
    const burst = n => ({ count: n, size: 1000, burst: n, intervalMs: 1000, settleMs: 300 + n * 9 })

    it('drops only once 20 packets are queued (up=1mbit,queue=20)', async () => {
      await withLink('up=1mbit,queue=20', async link => {
        const small = await udpFlow(link, 'up', burst(19))
        let s = (await link.stats({ reset: true })).up
        note(`burst of 19: ${small.seqs.length} arrived, forwarder queue_dropped ${s.queue_dropped}, queue delay max ${s.queue_delay_ms.max} ms`)
        assert.equal(s.queue_dropped, 0)
        assert.equal(small.seqs.length, 19)
        const big = await udpFlow(link, 'up', burst(60))
        s = (await link.stats()).up
        note(`burst of 60: ${big.seqs.length} arrived, forwarder queue_dropped ${s.queue_dropped}`)
        assert.equal(s.in_packets, 60)
        assert.ok(s.queue_dropped <= 40 && s.queue_dropped >= 38, `${s.queue_dropped} dropped; expected 40 (60 − a queue of 20), 38 if two left meanwhile`)
        assert.equal(big.seqs.length, 60 - s.queue_dropped)
        assert.equal(big.drops, 0)
      })
    })

    it('a byte-limited queue holds what fits in its bytes (down=1mbit,queue.down=20000B: 19 packets of 1028 bytes)', async () => {
      await withLink('down=1mbit,queue.down=20000B', async link => {
        const small = await udpFlow(link, 'down', burst(19))
        let s = (await link.stats({ reset: true })).down
        note(`burst of 19 (19,532 bytes): ${small.seqs.length} arrived, forwarder queue_dropped ${s.queue_dropped}`)
        assert.equal(s.queue_dropped, 0)
        assert.equal(small.seqs.length, 19)
        const big = await udpFlow(link, 'down', burst(60))
        s = (await link.stats()).down
        note(`burst of 60: ${big.seqs.length} arrived, forwarder queue_dropped ${s.queue_dropped}`)
        assert.equal(s.in_packets, 60)
        assert.ok(s.queue_dropped <= 41 && s.queue_dropped >= 39, `${s.queue_dropped} dropped; expected 41 (60 − the 19 that fit in 20000 bytes), 39 if two left meanwhile`)
        assert.equal(big.seqs.length, 60 - s.queue_dropped)
        assert.equal(big.drops, 0)
      })
    })
  })

  it('jitter stays within delay ± jitter, spreads, and keeps the order (delay.down=30ms,jitter.down=10ms)', async () => {
    await withLink('delay.down=30ms,jitter.down=10ms', async link => {
      // 10 ms apart: closer than the 20 ms spread, so keeping the order matters.
      const flow = await udpFlow(link, 'down', { count: 200, intervalMs: 10, settleMs: 100 })
      const late = (await link.stats()).down.late_ms
      assert.equal(flow.seqs.length, 200)
      const d = flow.delays
      const [min, p10, p50, p90, p95, max] = [0, 0.1, 0.5, 0.9, 0.95, 1].map(q => percentile(d, q))
      // Over 40 ms only by scheduling: 1.5 ms for the probes, plus what was
      // measured of the machine during that datagram's flight: the forwarder's
      // writes after their release time (its wake-up delayed by a CPU busy
      // elsewhere; with other benchmarks running it was up to 4 ms), and the time
      // either probe was kept from running (stallMeter: a clean-clone CI had a
      // datagram at 45.88 ms with the forwarder 1.68 ms late at most, and
      // nothing measured of the probes). A release scheduled too late is not
      // excused by that, and 95 % of the datagrams must be within the 1.5 ms.
      const stalls = [...flow.senderStalls, ...flow.stalls]
      const over = d.map((delay, i) => {
        const stalled = stalledWithin(stalls, flow.arrivals[i] - delay, flow.arrivals[i])
        return { seq: flow.seqs[i], delay, stalled, excess: delay - (41.5 + late.max + stalled) }
      }).sort((a, b) => b.excess - a.excess)[0]
      note(`one-way delay min ${min.toFixed(2)}, p10 ${p10.toFixed(2)}, p50 ${p50.toFixed(2)}, p90 ${p90.toFixed(2)}, p95 ${p95.toFixed(2)}, max ${max.toFixed(2)} ms; ` +
        `the forwarder's own lateness p99 ${late.p99} ms, max ${late.max} ms; the probes stalled ${stalls.length} times, at most ${Math.max(0, ...stalls.map(([a, b]) => b - a)).toFixed(2)} ms`)
      assert.ok(min >= 20, `a datagram arrived after ${min} ms, under 30 − 10 ms`)
      assert.ok(p95 <= 41.5, `p95 ${p95} ms is over 30 + 10 ms (+1.5 ms)`)
      assert.ok(over.excess <= 0, `datagram ${over.seq} took ${over.delay.toFixed(2)} ms, over 30 + 10 ms (+1.5 ms, + the forwarder's lateness ${late.max} ms, + ${over.stalled.toFixed(2)} ms the probes were stalled in its flight)`)
      assert.ok(p10 < 25, `p10 ${p10} ms: not spread down`)
      assert.ok(p90 > 35, `p90 ${p90} ms: not spread up`)
      assert.deepEqual(flow.seqs, flow.seqs.slice().sort((a, b) => a - b), 'datagrams arrived out of order')
    })
  })

  it('nothing leaves the client namespace but traffic to the server address', async () => {
    const outside = net.createServer(socket => socket.destroy()) // in the root namespace
    const outsidePort = await listen(outside, '127.0.0.1')
    try {
      await withLink('rtt=2ms', async link => {
        const server = net.createServer(socket => socket.destroy())
        const port = await listen(server, link.serverAddress)
        try {
          const stranger = link.serverAddress === '198.18.0.9' ? '198.18.0.13' : '198.18.0.9'
          await link.stats({ reset: true })
          const { results } = await runInside(link, 'try-targets', {
            targets: [
              { proto: 'tcp', host: '1.1.1.1', port: 443 },
              { proto: 'tcp', host: '8.8.8.8', port: 53 },
              { proto: 'udp', host: '8.8.8.8', port: 53 },
              { proto: 'tcp', host: stranger, port },
              { proto: 'udp', host: stranger, port: 9 },
              { proto: 'tcp', host: '127.0.0.1', port: outsidePort }
            ]
          })
          note(results.map(r => `${r.proto} ${r.host}:${r.port} → ${r.code || r.outcome}`).join('; '))
          for (const r of results) {
            const expected = r.host === '127.0.0.1' ? 'ECONNREFUSED' : 'ENETUNREACH'
            assert.equal(r.code, expected, `${r.proto} to ${r.host}:${r.port}: ${r.outcome} ${r.code || ''}`)
          }
          const quiet = await link.stats()
          assert.equal(quiet.up.in_packets, 0, 'packets for other addresses reached the forwarder')
          assert.equal(quiet.down.in_packets, 0)
          const { results: [ours] } = await runInside(link, 'try-targets', { targets: [{ proto: 'tcp', host: link.serverAddress, port }] })
          assert.equal(ours.outcome, 'connected', JSON.stringify(ours))
          const busy = await link.stats()
          note(`to the server address: ${ours.outcome}, forwarder in_packets up ${busy.up.in_packets}, down ${busy.down.in_packets}`)
          assert.ok(busy.up.in_packets >= 2 && busy.down.in_packets >= 1)
        } finally {
          await closeServer(server)
        }
      })
    } finally {
      await closeServer(outside)
    }
  })

  describe('cleanup and concurrency', () => {
    it('two links at once have their own addresses, carry traffic and leave nothing after close()', async () => {
      const specs = ['rtt=10ms', 'rtt=30ms']
      const links = await Promise.all(specs.map(spec => openLink(forwarderCommands(parseLinkSpec(spec)), { seed: SEED })))
      // (Both start from the default index, process.pid-based: the second finds it taken.)
      links.forEach(prioritizeForwarder)
      const servers = []
      const pids = links.flatMap(l => [l.pid, l.forwarder.child.pid])
      try {
        const [a, b] = links
        note(`links ${a.clientTun} (${a.serverAddress} ↔ ${a.clientAddress}) and ${b.clientTun} (${b.serverAddress} ↔ ${b.clientAddress})`)
        assert.notEqual(a.index, b.index)
        assert.notEqual(a.serverAddress, b.serverAddress)
        assert.notEqual(a.clientAddress, b.clientAddress)
        assert.notEqual(a.pid, b.pid)
        const times = await Promise.all(links.map(async link => {
          const server = net.createServer(socket => socket.destroy())
          servers.push(server)
          const port = await listen(server, link.serverAddress)
          const { times } = await runInside(link, 'connect', { host: link.serverAddress, port, count: 3 })
          // and not the other link's server
          const other = links.find(l => l !== link)
          const { results: [cross] } = await runInside(link, 'try-targets', { targets: [{ proto: 'tcp', host: other.serverAddress, port }] })
          assert.equal(cross.code, 'ENETUNREACH', `from ${link.clientTun} to the other link: ${JSON.stringify(cross)}`)
          return median(times)
        }))
        note(`connect ${times[0].toFixed(2)} ms and ${times[1].toFixed(2)} ms at once`)
        // Each link its own RTT (10 vs 30 ms), never the other's: at least its own, nearer its own than the other's.
        // How near is the host's (two links and their probes share two cores: a disturbed full run measured 14 and 35).
        assert.ok(times[0] >= 10 && times[0] < 20 && times[1] >= 30, `connect times ${times}`)
      } finally {
        for (const server of servers) server.close()
        await Promise.all(links.map(l => l.close()))
      }
      const names = ipLinkNames()
      for (const link of links) {
        assert.ok(!names.includes(link.clientTun) && !names.includes(link.serverTun), `${link.clientTun}/${link.serverTun} still there: ${names.join(' ')}`)
      }
      assert.ok(await waitFor(() => pids.every(processGone), 2000), `namespace holders or forwarders still running: ${pids.filter(p => !processGone(p))}`)
    })

    it('a process killed with SIGKILL leaves no device, namespace holder, forwarder or probe behind', async () => {
      const code = `
        const { openLink } = require(${JSON.stringify(path.join(__dirname, '../../../link/namespace'))})
        const { parseLinkSpec } = require(${JSON.stringify(path.join(__dirname, '../../../link/spec'))})
        const { forwarderCommands } = require(${JSON.stringify(path.join(__dirname, '../../../link/forwarder-commands'))})
        openLink(forwarderCommands(parseLinkSpec('rtt=10ms')), { seed: 1 }).then(link => {
          const inside = link.spawnInside('sleep', ['60'], { stdio: 'ignore' })
          setTimeout(() => console.log(JSON.stringify({ pid: link.pid, clientTun: link.clientTun, serverTun: link.serverTun, forwarderPid: link.forwarder.child.pid, insidePid: inside.pid })), 300)
          setInterval(() => {}, 1000)
        })`
      const child = spawn(process.execPath, ['-e', code], { stdio: ['ignore', 'pipe', 'inherit'] })
      let info = null
      try {
        info = await new Promise((resolve, reject) => {
          let out = ''
          child.stdout.on('data', d => {
            out += d
            if (out.includes('\n')) resolve(JSON.parse(out))
          })
          child.once('exit', c => reject(new Error(`the link opener exited early (${c})`)))
        })
        const pids = [info.pid, info.forwarderPid, info.insidePid]
        assert.ok(ipLinkNames().includes(info.serverTun), 'the link was not up')
        assert.ok(pids.every(p => !processGone(p)), 'the link\'s processes were not running')
        const t0 = Date.now()
        child.kill('SIGKILL')
        const clean = await waitFor(() => {
          const names = ipLinkNames()
          return !names.includes(info.serverTun) && !names.includes(info.clientTun) && pids.every(processGone)
        }, 2500)
        note(`gone ${Date.now() - t0} ms after SIGKILL (holder ${info.pid}, forwarder ${info.forwarderPid}, probe ${info.insidePid}, ${info.clientTun}/${info.serverTun})`)
        assert.ok(clean, `after SIGKILL: devices ${ipLinkNames().filter(n => n === info.serverTun || n === info.clientTun)}, running ${pids.filter(p => !processGone(p))}`)
      } finally {
        if (child.exitCode === null && !child.signalCode) child.kill('SIGKILL')
      }
    })
  })
})

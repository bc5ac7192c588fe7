'use strict'

// The link's cross traffic (harness/cross-traffic/index.js: cross[.up|.down]=FLOW…)
// measured against physics and observers of our own: the forwarder's count of
// the IP bytes it delivered, the senders' kernel (`ss -ti`: the congestion
// control each socket really uses), a bulk TCP workload of the tests' own
// probes (test/support/link-probe.js) beside the flows, and /proc for the
// processes that must be gone. The flows' own counts are their receivers'
// (iperf3's JSON, h3get's, the web client's).
//
// Rates are compared at IP level: the forwarder counts IP packets, iperf3
// payload; a full TCP segment is 1500 bytes of IP for 1448 of payload (20 IP
// + 20 TCP + 12 of timestamp option), so payload × 1500 / 1448 is what the
// link carried for it.

const assert = require('node:assert/strict')
const fs = require('node:fs')
const net = require('node:net')
const os = require('node:os')
const path = require('node:path')
const { execFileSync, spawn } = require('node:child_process')
const { unavailableReason } = require('../../../link/namespace')
const { parseLinkSpec } = require('../../../link/spec')
const { startCrossTraffic, followCrossTraffic, crossTrafficUnavailable } = require('../../../harness/cross-traffic')
const { linkControl } = require('../../../harness/link-session')
const { jainIndex, workloadShare, flowIpBytes } = require('../../../link/cross-report')
const { edgeUnavailableReason } = require('../../../server/edge/caddy')
const { startInside, bulkWriter, processGone, waitFor, sleep } = require('../../support/link-probe')
const { open, note, listen } = require('../../support/link-tests')

const IP_PER_PAYLOAD = 1500 / 1448
const mbit = bps => `${(bps / 1e6).toFixed(3)} Mbit/s`

// The counters of one direction over a window: b minus a.
const delta = (a, b, dir) => ({
  out_bytes: b[dir].out_bytes - a[dir].out_bytes,
  out_packets: b[dir].out_packets - a[dir].out_packets,
  queue_dropped: b[dir].queue_dropped - a[dir].queue_dropped
})

// Runs the flows of `spec` on an opened link for `ms`, then stops them, reading the
// forwarder's counters in the same tick. `during()`, once they run, may resolve
// { beforeStop, atStop }: functions called just before the stop and in its tick.
// → { report, before, after (the counters), extra (what atStop resolved), pids (the flows' processes) }.
async function runFlows (link, spec, ms, during = null) {
  const parsed = typeof spec === 'string' ? parseLinkSpec(spec) : spec
  const before = await link.stats()
  const cross = await startCrossTraffic(link, parsed)
  const hooks = (during && await during()) || {}
  await sleep(ms)
  const pids = cross.pids()
  if (hooks.beforeStop) hooks.beforeStop()
  let counters = null
  let extra = null
  const report = await cross.stop({
    atStop: () => {
      counters = link.stats()
      if (hooks.atStop) extra = hooks.atStop()
    }
  })
  return { report, before, after: await counters, extra: await extra, pids }
}

// The TCP senders on this (the lanes') side: `ss -ti`, each established socket with its congestion control and bytes acked.
function sendersHere () {
  const out = execFileSync('ss', ['-tinH', 'state', 'established'], { encoding: 'utf8' })
  return out.split('\n').filter(l => /^\s/.test(l)).map(l => ({ cc: l.trim().split(/\s+/)[0], acked: Number((/bytes_acked:(\d+)/.exec(l) || [0, 0])[1]) }))
}

// The payload a TCP socket in the client namespace has received so far, by its kernel (`ss -ti` there: bytes_received).
function receivedInside (link, peerPort) {
  const out = execFileSync(link.nsenterPrefix[0], [...link.nsenterPrefix.slice(1), 'ss', '-tinH', 'state', 'established', `( dport = :${peerPort} )`], { encoding: 'utf8' })
  const m = /bytes_received:(\d+)/.exec(out)
  assert.ok(m, `no socket to port ${peerPort} in the client namespace: ${out}`)
  return Number(m[1])
}

function describeFlows (report) {
  for (const f of report.flows) note(`${f.kind} ${f.direction}: ${(f.bytes / 1e6).toFixed(2)} MB in ${f.seconds.toFixed(2)} s = ${mbit(f.bps)}${f.bitrate ? ` (held to ${mbit(f.bitrate)})` : ''}${f.error ? `, error: ${f.error}` : ''}`)
}

describe('cross traffic through the link (real iperf3, Caddy, h3get, forwarder)', function () {
  this.timeout(60000)

  before(function () {
    const why = unavailableReason() || crossTrafficUnavailable(parseLinkSpec('cross.down=cubic'))
    if (why) {
      console.log(`      skipped: ${why}`)
      this.skip()
    }
  })

  // 10 Mbit/s, 40 ms RTT; a queue of 100 packets (120 ms, 3 × the path's BDP). With the default 1000
  // (1.2 s) CUBIC fills it, its RTT outgrows its retransmission timer, and the spurious timeouts resend
  // what was in flight: in 20 s runs 4 % of the link's bytes were such duplicates, which the receivers
  // rightly do not count, so their counts would not be the link's within the header overhead.
  it('two CUBIC flows down share a 10 Mbit/s bottleneck: the rate at IP level, the forwarder\'s bytes, Jain\'s index of the measured split, each flow a tenth at least (down=10mbit,rtt=40ms,queue=100, 20 s)', async () => {
    const RATE = 10e6
    const link = await open('down=10mbit,rtt=40ms,queue=100')
    let run, senders
    try {
      run = await runFlows(link, 'down=10mbit,rtt=40ms,queue=100,cross.down=cubic+cubic', 20000, () => ({ beforeStop: () => { senders = sendersHere() } }))
    } finally {
      await link.close()
    }
    const { report } = run
    describeFlows(report)
    const flows = report.flows
    assert.equal(flows.length, 2)
    for (const f of flows) assert.equal(f.error, null, f.error)
    // The senders' kernel: two sockets carrying the data, both CUBIC (this machine's default is BBR).
    const bulk = senders.filter(s => s.acked > 1e6)
    note(`senders here (ss): ${bulk.map(s => `${s.cc} ${(s.acked / 1e6).toFixed(1)} MB acked`).join(', ')}`)
    assert.equal(bulk.length, 2, JSON.stringify(senders))
    for (const s of bulk) assert.equal(s.cc, 'cubic')

    // The receivers' payload at IP level against the rate, over each flow's own seconds.
    const ipRate = flows.reduce((a, f) => a + f.bps, 0) * IP_PER_PAYLOAD
    note(`sum: ${mbit(ipRate / IP_PER_PAYLOAD)} of payload = ${mbit(ipRate)} at IP level, ${(100 * ipRate / RATE).toFixed(1)} % of the rate`)
    assert.ok(ipRate >= 0.9 * RATE && ipRate <= 1.005 * RATE, `the flows' sum at IP level is ${mbit(ipRate)}; expected 90 … 100.5 % of ${mbit(RATE)}`)
    // The forwarder's own bytes over the run.
    const down = delta(run.before, run.after, 'down')
    const fwdRate = down.out_bytes * 8 / report.seconds
    note(`forwarder: ${down.out_bytes} bytes out in ${report.seconds.toFixed(2)} s = ${mbit(fwdRate)}, ${down.queue_dropped} dropped by the queue`)
    assert.ok(fwdRate >= 0.9 * RATE && fwdRate <= 1.005 * RATE, `the forwarder delivered ${mbit(fwdRate)}; expected 90 … 100.5 % of ${mbit(RATE)}`)
    // The receivers' count against the forwarder's: the same bytes, but for the headers (and the
    // handshakes and iperf3's control connections: a few KB).
    const received = flows.reduce((a, f) => a + f.bytes, 0)
    const agreement = received * IP_PER_PAYLOAD / down.out_bytes
    const kernel = flows.reduce((a, f) => a + f.linkBytes.data, 0) / down.out_bytes
    note(`receivers ${received} bytes × 1500/1448 = ${(100 * agreement).toFixed(2)} % of the forwarder's out_bytes; their kernel's count (tcp_info) ${(100 * kernel).toFixed(2)} %`)
    assert.ok(agreement >= 0.97 && agreement <= 1.01, `receivers' bytes at IP level are ${(100 * agreement).toFixed(2)} % of what the forwarder delivered`)
    assert.ok(kernel >= 0.98 && kernel <= 1.02, `the receivers' kernel counted ${(100 * kernel).toFixed(2)} % of the forwarder's bytes`)
    // Fairness over the 20 s, from the measured split.
    const jain = report.directions.down.jain
    note(`Jain's index ${jain.toFixed(4)} (split ${flows.map(f => mbit(f.bps)).join(' / ')})`)
    assert.ok(Math.abs(jain - jainIndex(flows.map(f => f.bps))) < 1e-12)
    // How fair CUBIC is in 20 s is the kernel's, not the instrument's (the next test proves the index on a split
    // it sets): it was 0.87 once on a busy machine, where one iperf3 started late. What the link guarantees is that
    // both flows went through its one queue: each carried a tenth of the rate at least.
    for (const f of flows) assert.ok(f.bps * IP_PER_PAYLOAD >= 0.1 * RATE, `a flow got ${mbit(f.bps)}: under a tenth of ${mbit(RATE)}`)
    // Nothing but the flows went down: the workload's share is nil.
    const share = workloadShare(report, { up: delta(run.before, run.after, 'up'), down })
    note(`the workload's share (none ran): down ${(100 * share.down).toFixed(2)} %, up ${(100 * share.up).toFixed(2)} %`)
    assert.ok(share.down <= 0.01, `workload share down ${share.down} with no workload`)
  })

  it('a known split: a flow held to 1 Mbit/s beside a bulk one and a workload of our own; Jain\'s index where that split puts it, the workload\'s share its bytes (12 s)', async () => {
    const spec = 'down=10mbit,rtt=40ms,queue=100'
    const link = await open(spec)
    let run
    try {
      const parsed = parseLinkSpec(spec)
      parsed.down.cross = [{ kind: 'cubic' }, { kind: 'cubic', bitrate: 1e6 }]
      // The workload: a bulk TCP flow of the tests' probes (a writer here, a reader in the client namespace).
      // What it got is its reader's kernel's count when the flows stop: what the writer still had in its
      // socket's buffer arrives after that, and the forwarder's counters are read then.
      let writer = null
      let socketHere = null
      const server = net.createServer(socket => { socketHere = socket; writer = bulkWriter(socket) })
      const port = await listen(server, link.serverAddress)
      const reader = startInside(link, 'tcp-receive', { host: link.serverAddress, port })
      try {
        run = await runFlows(link, parsed, 12000, async () => {
          assert.ok((await reader.message()).connected)
          return {
            atStop: () => {
              const bytes = receivedInside(link, port)
              writer.stop()
              return bytes
            }
          }
        })
      } finally {
        reader.kill()
        if (socketHere) socketHere.destroy()
        server.close()
      }
    } finally {
      await link.close()
    }
    const { report } = run
    describeFlows(report)
    const [bulk, held] = report.flows
    for (const f of report.flows) assert.equal(f.error, null, f.error)
    assert.equal(held.bitrate, 1e6)
    // iperf3 -b paces payload: the held flow gets its 1 Mbit/s (it is far below a fair share).
    assert.ok(Math.abs(held.bps - 1e6) <= 0.1e6, `the held flow got ${mbit(held.bps)}, not 1 Mbit/s ± 10 %`)
    // The rest, 10 Mbit/s × 1448/1500 − 1 = 8.65 Mbit/s of payload, goes to the bulk flow and the workload:
    // each at most all of it, at least a third of it (a 2 : 1 split between two CUBIC flows at worst).
    const rest = 10e6 / IP_PER_PAYLOAD - held.bps
    assert.ok(bulk.bps >= rest / 3 && bulk.bps <= rest * 1.005, `the bulk flow got ${mbit(bulk.bps)} of the ${mbit(rest)} left`)
    // Jain's index of the report is the formula on the measured split, and lies where that split says:
    // two flows at ratio r = small ÷ large have J = (1 + r)² ÷ (2 (1 + r²)), rising with r.
    const jain = report.directions.down.jain
    const r = held.bps / bulk.bps
    const twoFlow = x => (1 + x) ** 2 / (2 * (1 + x * x))
    const [lo, hi] = [twoFlow(held.bps / (rest * 1.005)), twoFlow(held.bps / (rest / 3))]
    note(`Jain's index ${jain.toFixed(4)} for ${mbit(bulk.bps)} / ${mbit(held.bps)} (r = ${r.toFixed(3)}: formula ${twoFlow(r).toFixed(4)}); the split allows ${lo.toFixed(3)} … ${hi.toFixed(3)}`)
    assert.ok(Math.abs(jain - jainIndex([bulk.bps, held.bps])) < 1e-12)
    assert.ok(Math.abs(jain - twoFlow(r)) < 1e-9)
    assert.ok(jain >= lo && jain <= hi && jain < 0.9, `Jain's index ${jain} outside ${lo} … ${hi}`)
    // The workload's share of the bytes down: its own receiver's count at IP level over the forwarder's.
    const down = delta(run.before, run.after, 'down')
    const share = workloadShare(report, { up: delta(run.before, run.after, 'up'), down })
    const workload = run.extra * IP_PER_PAYLOAD / down.out_bytes
    note(`workload: ${(run.extra / 1e6).toFixed(2)} MB received = ${(100 * workload).toFixed(1)} % of the ${down.out_bytes} bytes down; the report says ${(100 * share.down).toFixed(1)} %`)
    assert.ok(Math.abs(share.down - workload) <= 0.03, `the report gives the workload ${share.down}, its receiver ${workload}`)
  })

  it('quic and web flows (and web and BBR up) run, deliver bytes, and leave no process behind (rtt=20ms,down=20mbit,up=10mbit, 6 s)', async function () {
    const why = edgeUnavailableReason()
    if (why) {
      console.log(`      skipped: ${why}`)
      return this.skip()
    }
    const spec = 'rtt=20ms,down=20mbit,up=10mbit,cross.down=quic+web,cross.up=web+bbr'
    const link = await open(spec)
    let run
    try {
      run = await runFlows(link, spec, 6000)
    } finally {
      await link.close()
    }
    const { report, pids } = run
    describeFlows(report)
    const byKind = Object.fromEntries(report.flows.map(f => [`${f.kind} ${f.direction}`, f]))
    for (const f of report.flows) {
      assert.equal(f.error, null, `${f.kind} ${f.direction}: ${f.error}`)
      assert.ok(f.bytes > 0, `${f.kind} ${f.direction} delivered nothing`)
    }
    const quic = byKind['quic down']
    note(`quic: ${quic.requests} request(s) on ${quic.connections} connection(s); web down ${byKind['web down'].objects} objects, up ${byKind['web up'].objects}`)
    assert.ok(quic.bytes >= 1e6 && quic.bps <= 20e6, `quic: ${quic.bytes} bytes at ${mbit(quic.bps)}`)
    assert.ok(byKind['web down'].objects >= 1 && byKind['web up'].objects >= 1)
    assert.equal(byKind['bbr up'].congestion, 'bbr')
    // What the flows carried down (QUIC by its model, web by its receiver's kernel) against what the
    // forwarder delivered down, where nothing else ran.
    const down = delta(run.before, run.after, 'down')
    const estimated = ['quic down', 'web down'].reduce((a, k) => a + flowIpBytes(byKind[k]).data, 0) + flowIpBytes(byKind['web up']).reverse + flowIpBytes(byKind['bbr up']).reverse
    note(`down: the flows' estimate ${estimated} bytes, the forwarder ${down.out_bytes} (${(100 * estimated / down.out_bytes).toFixed(1)} %)`)
    assert.ok(Math.abs(estimated / down.out_bytes - 1) <= 0.05, `estimated ${estimated} of ${down.out_bytes} bytes down`)
    // Nothing left: every process the flows started is gone, and no folder of the QUIC flow's.
    note(`${pids.length} processes (iperf3, Caddy, h3get, the web client)`)
    assert.ok(pids.length >= 5, JSON.stringify(pids))
    assert.ok(await waitFor(() => pids.every(processGone), 2000), `still running: ${pids.filter(p => !processGone(p))}`)
    assert.deepEqual(fs.readdirSync(os.tmpdir()).filter(n => n.startsWith(`h2bench-cross-${process.pid}-`)), [])
  })

  it('the flows follow the spec when the page changes the link (control.change), and only when they change', async () => {
    const first = 'rtt=10ms,down=20mbit,cross.down=cubic'
    const link = await open(first)
    const cross = followCrossTraffic(link)
    let reports
    try {
      await cross.apply(parseLinkSpec(first))
      const control = linkControl(link, parseLinkSpec(first), cross)
      const a = cross.running()
      await sleep(1500)
      // Another rate, the same flows: they keep running.
      await control.change('rtt=10ms,down=10mbit,cross.down=cubic')
      assert.equal(cross.running(), a, 'the same flows were restarted')
      await sleep(500)
      // Other flows: the old stop (their report kept), the new start.
      await control.change('rtt=10ms,down=10mbit,cross.down=reno+web,cross.up=cubic')
      const b = cross.running()
      assert.notEqual(b, a)
      assert.deepEqual(b.flows.map(f => `${f.kind} ${f.direction}`), ['cubic up', 'reno down', 'web down'])
      assert.equal(control.current().text, 'rtt=10ms,down=10mbit,cross.down=reno+web,cross.up=cubic')
      // A spec whose flows cannot run is refused before anything changes.
      await assert.rejects(control.change('rtt=10ms,cross.up=quic'), /quic cross flow runs down only/)
      assert.equal(cross.running(), b)
      await sleep(1500)
      // No cross traffic in the spec: none runs.
      await control.change('rtt=10ms,down=10mbit')
      assert.equal(cross.running(), null)
      reports = await cross.stop()
    } finally {
      await cross.stop()
      await link.close()
    }
    for (const r of reports) describeFlows(r)
    assert.equal(reports.length, 2)
    assert.deepEqual(reports.map(r => r.flows.map(f => f.kind)), [['cubic'], ['cubic', 'reno', 'web']])
    for (const f of reports.flatMap(r => r.flows)) assert.ok(f.bytes > 0 && !f.error, `${f.kind} ${f.direction}: ${f.bytes} bytes, ${f.error}`)
    // The first flow ran through both rates: about 2 s, at most 20 Mbit/s.
    assert.ok(reports[0].seconds >= 1.9 && reports[0].flows[0].bps <= 20e6)
  })

  it('a process killed with SIGKILL leaves no iperf3, Caddy, h3get or web client behind', async function () {
    const flows = edgeUnavailableReason() ? 'cubic+web' : 'cubic+quic+web'
    const root = path.join(__dirname, '../../..')
    const code = `
      const { openLink } = require(${JSON.stringify(path.join(root, 'link/namespace'))})
      const { parseLinkSpec } = require(${JSON.stringify(path.join(root, 'link/spec'))})
      const { forwarderCommands } = require(${JSON.stringify(path.join(root, 'link/forwarder-commands'))})
      const { startCrossTraffic } = require(${JSON.stringify(path.join(root, 'harness/cross-traffic'))})
      const link = parseLinkSpec('rtt=10ms,down=20mbit,up=20mbit,cross.down=${flows},cross.up=reno')
      openLink(forwarderCommands(link), { seed: 1 }).then(async opened => {
        const cross = await startCrossTraffic(opened, link)
        setTimeout(() => console.log(JSON.stringify({ pids: cross.pids(), link: [opened.pid, opened.forwarder.child.pid] })), 500)
        setInterval(() => {}, 1000)
      })`
    const child = spawn(process.execPath, ['-e', code], { stdio: ['ignore', 'pipe', 'inherit'] })
    try {
      const info = await new Promise((resolve, reject) => {
        let out = ''
        child.stdout.on('data', d => {
          out += d
          if (out.includes('\n')) resolve(JSON.parse(out))
        })
        child.once('exit', c => reject(new Error(`the cross-traffic process exited early (${c})`)))
      })
      const pids = [...info.pids, ...info.link]
      assert.ok(pids.every(p => !processGone(p)), 'the flows were not running')
      child.kill('SIGKILL')
      const gone = await waitFor(() => pids.every(processGone), 3000)
      note(`${info.pids.length} flow processes (${flows} down, reno up) and the link's 2: ${gone ? 'all gone' : `running: ${pids.filter(p => !processGone(p))}`}`)
      assert.ok(gone, `after SIGKILL, still running: ${pids.filter(p => !processGone(p))}`)
    } finally {
      if (child.exitCode === null && !child.signalCode) child.kill('SIGKILL')
      // Its QUIC flow's sparse file could not be removed by it; the next flow would (harness/cross-traffic/quic.js).
      for (const n of fs.readdirSync(os.tmpdir()).filter(n => n.startsWith(`h2bench-cross-${child.pid}-`))) fs.rmSync(path.join(os.tmpdir(), n), { recursive: true, force: true })
    }
  })
})

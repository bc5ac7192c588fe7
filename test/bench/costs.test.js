'use strict'

// The dominant cost of a cell, from what its runs measured (bench/report/runner/costs.js),
// on constructed records whose truth is known.
const assert = require('node:assert/strict')
const { dominantCost } = require('../../bench/report/runner/costs')
const { sumCosts } = require('../../harness/cell-costs')

const record = (extra = {}) => ({
  wallMs: 1000,
  browserCpuMs: 100,
  pageTaskMs: 50,
  serverCpuMs: 50,
  link: null,
  tcp: { server: { segmentsOut: 100, retransmitted: 0, timeouts: 0 }, client: null },
  ...extra
})
const linkDir = (bytes, lost = 0, queueDropped = 0) => ({ bytes, packets: Math.ceil(bytes / 1500), lost, queueDropped, queueDelayP50Ms: 1, queueDelayP99Ms: 5 })
const bound = (extra = {}) => ({ rounds: 1, rttMs: 20, latencyMs: 20, downBitsPerSecond: 10e6, ...extra })

describe('the measured dominant cost of a cell', () => {
  it('sums the runs of a row', () => {
    const c = sumCosts([record(), record({ browserCpuMs: 300 }), null])
    assert.equal(c.runs, 2)
    assert.equal(c.wallMs, 2000)
    assert.equal(c.browserCpuMs, 400)
    assert.equal(c.pageTaskMs, 100)
    assert.deepEqual(c.tcp, { server: { retransmitted: 0, timeouts: 0 }, client: null })
  })

  it('client CPU: the browser on the CPU most of the time, and the cell marked as shaped by the machine', () => {
    const d = dominantCost(sumCosts([record({ wallMs: 1500, browserCpuMs: 1310 })]), bound(), 'Chromium')
    assert.equal(d.dominant, 'client CPU: Chromium 1.31 s of CPU in 1.50 s over 1 run')
    assert.equal(d.cpuShaped, true)
  })

  it('client CPU under CDP throttling: the page busy, though little of it on the CPU', () => {
    const d = dominantCost(sumCosts([record({ wallMs: 2000, browserCpuMs: 150, pageTaskMs: 1900 })]), bound(), 'Chromium')
    assert.equal(d.dominant, "client CPU: Chromium's page busy 1.90 s of 2.00 s over 1 run (main-thread tasks; 0.15 s of CPU)")
    assert.equal(d.cpuShaped, true)
  })

  it('client CPU of a load tool: its threads can keep more than one core busy', () => {
    const tool = record({ wallMs: 1000, browserCpuMs: null, pageTaskMs: null, toolCpuMs: 1800 })
    const c = sumCosts([tool, { ...tool, toolCpuMs: 1200 }])
    assert.equal(c.toolCpuMs, 3000)
    const d = dominantCost(c, bound(), 'h2load')
    assert.equal(d.dominant, 'client CPU: h2load 3.00 s of CPU in 2.00 s over 2 runs')
    assert.equal(d.cpuShaped, true)
  })

  it('server CPU', () => {
    const d = dominantCost(sumCosts([record({ serverCpuMs: 900 })]), bound())
    assert.equal(d.dominant, 'server CPU: 0.90 s of CPU in 1.00 s over 1 run')
    assert.equal(d.cpuShaped, true)
  })

  it('bandwidth: the downlink busy most of the time (its bytes at its rate)', () => {
    // 1.2 MB at 10 Mbit/s = 0.96 s of 1 s.
    const d = dominantCost(sumCosts([record({ link: { up: linkDir(40000), down: linkDir(1.2e6) } })]), bound())
    assert.equal(d.dominant, 'bandwidth: the downlink busy 96 % of the time (1.20 MB at 10 Mbit/s)')
    assert.equal(d.cpuShaped, false)
  })

  it('bandwidth-bound: a cell at 85 % of its bandwidth bound or more, whatever the CPU did (the CPU waited on the link)', () => {
    // 1.1 MB a run at 10 Mbit/s: 0.88 s of the bound's bandwidth in each 1 s run, the browser on the CPU 95 % of it.
    const busy = record({ browserCpuMs: 950, link: { up: linkDir(40000), down: linkDir(1.1e6) } })
    const d = dominantCost(sumCosts([busy, busy]), bound({ bandwidthMs: 880 }), 'Chromium')
    assert.equal(d.dominant, "bandwidth-bound: the bound's 0.88 s a run at the network's rate is 88 % of the time (85 % or more)")
    assert.equal(d.cpuShaped, false)
    // At 80 % of it the CPU's 95 % names the cost, and shapes the cell.
    const d80 = dominantCost(sumCosts([busy]), bound({ bandwidthMs: 800 }), 'Chromium')
    assert.match(d80.dominant, /^client CPU: Chromium 0\.95 s of CPU/)
    assert.equal(d80.cpuShaped, true)
  })

  it('loss recovery: a corrupting link\'s packets count as lost for TCP (its receiver drops them on the checksum), as for QUIC', () => {
    const down = { ...linkDir(200000, 0), corrupted: 14 }
    const d = dominantCost(sumCosts([record({
      wallMs: 3000,
      link: { up: linkDir(5000, 0), down },
      tcp: { server: { segmentsOut: 200, retransmitted: 14, timeouts: 1 }, client: null }
    })]), bound())
    assert.match(d.dominant, /^loss recovery: 14 packets dropped \(14 corrupted\), 14 TCP retransmissions, 1 timeouts/)
    assert.deepEqual(d.loss, { drops: 14, timeouts: 1, retransmitted: 14 })
  })

  it('latency: small requests over a long round trip', () => {
    const d = dominantCost(
      sumCosts([record({ wallMs: 460, link: { up: linkDir(2000), down: linkDir(8000) } })]),
      bound({ rounds: 2, rttMs: 200, latencyMs: 400 })
    )
    assert.equal(d.dominant, 'latency: 2 round trips of 200 ms a run, 87 % of the time')
  })

  it('loss recovery: drops by the link\'s other effects count too (an outage, the AQM, an old NAT binding)', () => {
    const down = { ...linkDir(200000, 0), otherDropped: 9 }
    const d = dominantCost(sumCosts([record({
      wallMs: 3000,
      link: { up: linkDir(5000, 0), down },
      tcp: { server: { segmentsOut: 200, retransmitted: 9, timeouts: 2 }, client: null }
    })]), bound())
    assert.match(d.dominant, /^loss recovery: 9 packets dropped, 9 TCP retransmissions, 2 timeouts/)
  })

  it('loss recovery: drops on the link and TCP timeouts name it before anything else', () => {
    const d = dominantCost(sumCosts([record({
      wallMs: 3000,
      link: { up: linkDir(5000, 1), down: linkDir(200000, 12) },
      tcp: { server: { segmentsOut: 200, retransmitted: 15, timeouts: 3 }, client: { segmentsOut: 100, retransmitted: 1, timeouts: 0 } }
    })]), bound())
    assert.match(d.dominant, /^loss recovery: 13 packets dropped, 16 TCP retransmissions, 3 timeouts \(over 1 run\); next, /)
    assert.deepEqual(d.loss, { drops: 13, timeouts: 3, retransmitted: 16 })
  })

  it('loss recovery over QUIC: the drops named, no TCP counter (they see only other traffic) put to them', () => {
    const costs = sumCosts([record({
      wallMs: 3000,
      link: { up: linkDir(5000, 2), down: linkDir(200000, 12) },
      tcp: { server: { segmentsOut: 20, retransmitted: 5, timeouts: 1 }, client: null }
    })])
    const d = dominantCost(costs, bound(), 'Chromium', null, 'quic')
    assert.match(d.dominant, /^loss recovery: 14 packets dropped, recovered by QUIC \(its retransmissions are not counted here\) \(over 1 run\); next, /)
    assert.doesNotMatch(d.dominant, /TCP|timeouts/)
    assert.deepEqual(d.loss, { drops: 14, transport: 'quic' })
    // The same costs over TCP name TCP's counters.
    assert.match(dominantCost(costs, bound()).dominant, /14 packets dropped, 5 TCP retransmissions, 1 timeouts/)
  })

  it('loss recovery over QUIC with the server\'s qlog: its declared losses and probe timeouts named, summed over the runs', () => {
    const quic = (packetsLost, ptoExpired, extra = {}) => ({
      connections: 1, closed: 1, truncated: 0, packetsSent: 150, packetsLost, ptoExpired, spuriousLosses: 0, ...extra
    })
    const runs = [
      record({ wallMs: 1500, link: { up: linkDir(5000, 1), down: linkDir(100000, 6) }, quic: quic(6, 1) }),
      record({ wallMs: 1500, link: { up: linkDir(5000, 0), down: linkDir(100000, 7) }, quic: quic(7, 0, { connections: 2, closed: 1 }) })
    ]
    const costs = sumCosts(runs)
    assert.deepEqual(costs.quic, { runs: 2, unread: 0, connections: 3, unclosed: 1, packetsSent: 300, packetsLost: 13, ptoExpired: 1, spuriousLosses: 0 })
    const d = dominantCost(costs, bound(), 'oha', null, 'quic')
    assert.match(d.dominant, /^loss recovery: 14 packets dropped, the server's QUIC declared 13 packets lost and 1 probe timeouts fired \(its qlog; the client's own recovery is not logged\) \(over 2 runs\); next, /)
    assert.deepEqual(d.loss, { drops: 14, transport: 'quic', declaredLost: 13, timeouts: 1 })
    // A run whose qlog could not be read leaves the row's QUIC figures out, not half-counted.
    const partial = sumCosts([...runs, record({ wallMs: 1500, link: { up: linkDir(5000), down: linkDir(100000, 2) }, quic: { error: 'qlog: no .sqlog' } })])
    assert.equal(partial.quic.unread, 1)
    assert.match(dominantCost(partial, bound(), 'oha', null, 'quic').dominant, /recovered by QUIC \(its retransmissions are not counted here\)/)
    // A corrupted packet is no drop of the link's, but QUIC lost it: the qlog names the recovery alone.
    const corrupt = dominantCost(sumCosts([record({ wallMs: 1500, link: { up: linkDir(5000), down: linkDir(100000) }, quic: quic(4, 0) })]), bound(), 'oha', null, 'quic')
    assert.match(corrupt.dominant, /^loss recovery: the server's QUIC declared 4 packets lost and 0 probe timeouts fired/)
    // Over TCP a qlog is never read.
    assert.doesNotMatch(dominantCost(costs, bound()).dominant, /QUIC/)
  })

  it('none dominates: every share named, largest first', () => {
    const d = dominantCost(sumCosts([record({ browserCpuMs: 400, serverCpuMs: 300 })]), bound({ latencyMs: 200, rttMs: 200 }))
    assert.equal(d.dominant, 'none dominates: client CPU 40 %, server CPU 30 %, latency 20 % of the time')
    assert.equal(d.cpuShaped, false)
  })

  it('nothing measured: null', () => {
    assert.equal(dominantCost(null, bound()), null)
    assert.equal(sumCosts([]), null)
  })
})

describe('the report lists the cells the machine\'s CPU shaped, above the verdicts', () => {
  it('names each with its measured cost; a cell the link shaped is not listed', () => {
    const { toMarkdown } = require('../../bench/report/runner/report-markdown')
    const experiment = { id: 'constructed', title: 'constructed cells', kind: 'page', sweep: { param: 'requests', label: 'requests' }, cells: [{ requests: 10 }], source: null, conclusions: [] }
    const base = { experiment: 'constructed', cell: 0, params: { requests: 10, assets: null, sizeBytes: 1000, sizeMB: 0, delayMs: 0 }, preset: 'x', mode: null, protocol: 'h2', network: 'link', linkSpec: 'rtt=10ms,down=10mbit', samples: [500, 510, 520], median: 510, q1: 500, q3: 520, failures: 0, repeatsAsked: 3, repeatsGot: 3, note: null, baseline: null, ratioToBaseline: null, browser: 'chromium' }
    const rows = [
      { ...base, lane: 'h2', costs: sumCosts([record({ wallMs: 1530, browserCpuMs: 1400 })]) },
      { ...base, lane: 'h2n', costs: sumCosts([record({ wallMs: 1530, link: { up: linkDir(1000), down: linkDir(1.9e6) } })]) }
    ]
    const md = toMarkdown({ environment: require('../../docs/studies/rest/results.json').environment, experiments: [experiment], results: rows })
    const lines = md.split('\n')
    const at = lines.findIndex(l => l.startsWith("## Cells shaped by this machine's CPU"))
    assert.ok(at > 0 && at < lines.indexOf('## Verdicts'), md)
    assert.equal(lines[at + 2], '- constructed, requests 10, h2: client CPU: Chromium 1.40 s of CPU in 1.53 s over 1 run')
    assert.equal(lines[at + 3], '')
  })
})

describe('which load cells log QUIC\'s recovery (bench/cells/load.js linkCanDrop)', () => {
  const { linkCanDrop } = require('../../bench/cells/load')
  it('those whose link may drop a packet: loss, corruption, scheduled drops, outages, a bottleneck\'s queue; not a clean or delay-only link', () => {
    for (const spec of ['quic-loss', 'rtt=20ms,loss=2%', 'quic-corrupt', 'down=10mbit,delay=15ms,queue=27', 'rtt=20ms,gemodel=2%/98%',
      'rtt=20ms,outage=5s/2s/1', 'rtt=20ms,drop.down=0-2', 'down=10mbit,up=10mbit,delay=15ms,queue=27,cross.down=cubic']) {
      assert.equal(linkCanDrop(spec), true, spec)
    }
    for (const spec of [null, 'none', 'rtt=100ms', 'quic-delay', 'quic-dup']) assert.equal(linkCanDrop(spec), false, String(spec))
  })
})

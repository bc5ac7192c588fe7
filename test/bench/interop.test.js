'use strict'

const assert = require('node:assert/strict')
const { experimentById, expand } = require('../../bench/experiments')
const { CASES, specOf, smokeOf, gemodelFor, criterionOf, MiB, KiB } = require('../../bench/experiments/interop-cases')
const { tablesOf } = require('../../bench/report/tables')
const { judge, judgement, interopFigure, ourFigure, resultText, handshakesOf, h3Against, boundMs, caseOfRow, runnerCriterion } = require('../../bench/report/interop-criteria')
const { verdicts } = require('../../bench/report/runner/report-verdicts')
const { claimsOf } = require('../../bench/report/claims')
const { turnSeed, mergeInTurn } = require('../../bench/cells/load-in-turn')
const { loadWorkload } = require('../../bench/report/runner/compare-rows')
const { turnsOf } = require('../../bench/cells/load-in-turn')
const { boundOf, WIRE } = require('../../bench/report/runner/bounds')
const { validateResults } = require('../../bench/report/runner/results-schema')
const { parseLinkSpec } = require('../../link/spec')
const { gemodelMeans } = require('../../link/spec-values')
const { generator } = require('../../shared/verdict')
const oha = require('../../load/tools/oha')

const e = experimentById('interop')
const caseOf = name => CASES.find(c => c.name === name)
const cellOf = (name, smoke = false) => expand(['interop'], { smoke }).map(x => x.cell).find(c => c.preset === name)

// A result row as bench/cells/load.js makes it, reduced to what the criteria read. One time in `ms`
// stands for five runs around it (the verdict engine needs 5 good runs a side).
function row ({ preset, lane, ms = [], failures = 0, connections = 1, inTurn, size, linkSpec, note = null, failedRequests = 0, costs = null, load = {} }) {
  if (ms.length === 1) ms = [1, 0.98, 1.02, 0.99, 1.01].map(f => ms[0] * f) // no trend: the engine flags drift
  const sorted = [...ms].sort((a, b) => a - b)
  const q = p => sorted.length ? sorted[Math.round(p * (sorted.length - 1))] : null
  const c = caseOf(preset)
  const protocol = lane === 'h1' ? 'http/1.1' : lane === 'h3' ? 'h3' : 'h2'
  const tool = lane === 'h3' ? 'oha' : 'h2load'
  return {
    experiment: 'interop',
    cell: CASES.indexOf(c),
    params: { requests: inTurn || 1, assets: null, sizeBytes: size ?? c.size, sizeMB: null, delayMs: 0 },
    preset,
    lane,
    mode: null,
    protocol,
    network: 'link',
    linkSpec: linkSpec || specOf(c),
    samples: ms,
    median: q(0.5),
    q1: q(0.25),
    q3: q(0.75),
    failures,
    runsLeftOut: failures,
    note,
    costs,
    load: {
      tool,
      command: `${inTurn ? `${inTurn} runs in turn of: ` : ''}${tool === 'oha' ? 'oha --no-tui --output-format csv --insecure --http-version 3 -n 1 -c 1 -t 60s -p 1 https://x/' : `h2load -t 1 -c 1 -n 1 -m 1${lane === 'h1' ? ' --h1' : ''} https://x/`}`,
      connections,
      runs: ms.length + failures,
      failedRequests,
      ...load
    }
  }
}

describe('interop: the QUIC interop runner\'s cases on the link', () => {
  it('are its six network cases, each cell the case\'s file, timeout and link; handshakeloss 50 handshakes in turn within 300 s', () => {
    assert.deepEqual(e.cells.map(c => c.preset), ['goodput', 'crosstraffic', 'longrtt', 'handshakeloss', 'transferloss', 'blackhole'])
    assert.equal(e.kind, 'load')
    assert.deepEqual(e.networks, ['link'])
    assert.deepEqual(e.lanes, ['h1', 'h2', 'h2e', 'h3'])
    const got = Object.fromEntries(e.cells.map(c => [c.preset, [Number(c.size), c.timeoutS, c.requests]]))
    assert.deepEqual(got, {
      goodput: [10 * MiB, 60, 1],
      crosstraffic: [25 * MiB, 180, 1], // MeasurementCrossTraffic.FILESIZE, not the goodput's
      longrtt: [KiB, 60, 1],
      handshakeloss: [KiB, 300, 50],
      transferloss: [2 * MiB, 60, 1],
      blackhole: [10 * MiB, 60, 1]
    })
    for (const c of e.cells) {
      assert.equal(c.linkPerLane, true, c.preset)
      assert.deepEqual([c.workload.requests, c.workload.connections, c.workload.muxConnections, c.workload.streams], [1, 1, 1, 1], c.preset)
      assert.equal(c.workload.connectTimeoutS, c.timeoutS, `${c.preset}: oha may take the case's whole time for a handshake`)
    }
    assert.deepEqual(cellOf('handshakeloss').inTurn, { runs: 50, deadlineS: 300 })
    assert.equal(cellOf('goodput').inTurn, undefined)
  })

  it('maps each scenario onto the link\'s keys: 10 Mbit/s both ways, its one-way delay, its 25-packet queue disc as 27 of ours', () => {
    for (const c of e.cells) {
      const link = parseLinkSpec(c.link, { traces: false })
      for (const d of ['up', 'down']) {
        assert.equal(link[d].rateBps, 10e6, c.preset)
        assert.equal(link[d].delayUs, (c.preset === 'longrtt' ? 750 : 15) * 1000, c.preset)
        // ns-3: a 25-packet PfifoFast disc, a 1-packet device queue, 1 packet on the wire; ours counts all three.
        assert.deepEqual(link[d].queue, { packets: 27 }, c.preset)
      }
    }
    const link = name => parseLinkSpec(cellOf(name).link, { traces: false })
    assert.deepEqual(link('blackhole').down.outage, { onUs: 5e6, offUs: 2e6, count: 1 }, 'once, as blackhole.cc\'s --repeat 1')
    assert.deepEqual(link('blackhole').up.outage, { onUs: 5e6, offUs: 2e6, count: 1 }, 'both directions, as blackhole.cc by default')
    assert.deepEqual(link('crosstraffic').down.cross, ['cubic'])
    assert.equal(link('crosstraffic').up.cross, undefined, 'the iperf flow runs server → client only')
    assert.equal(link('goodput').down.gemodel, undefined)
  })

  it('drop-rate (q, at most 3 in a row) as netem\'s Gilbert model: the same mean loss, mean burst and mean gap', () => {
    for (const [drop, loss, burst] of [[{ ratePct: 30, burst: 3 }, 0.29428, 1.39], [{ ratePct: 2, burst: 3 }, 0.0199998, 1.0204]]) {
      const g = gemodelFor(drop)
      assert.ok(Math.abs(g.loss - loss) < 1e-5, `${g.loss}`)
      assert.ok(Math.abs(g.meanBurst - burst) < 1e-9)
      // The link's own reading of the item it is given (link/spec-values.js gemodelMeans) says the same.
      const means = gemodelMeans(parseLinkSpec(g.item, { traces: false }).down.gemodel)
      assert.ok(Math.abs(means.loss - g.loss) < 1e-7, `${means.loss} vs ${g.loss}`)
      assert.ok(Math.abs(means.meanBadPackets - g.meanBurst) < 1e-6)
    }
    // The simulator's DropRateErrorModel::DoCorrupt itself, run over 200,000 packets (seeded): its loss and bursts.
    const random = generator(42)
    let inRow = 0
    let dropped = 0
    const bursts = []
    for (let i = 0; i < 200000; i++) {
      let drop = false
      if (inRow >= 3) inRow = 0
      else if (Math.floor(random() * 100) < 30) { inRow++; drop = true } else inRow = 0
      if (drop) { dropped++; if (inRow === 1) bursts.push(1); else bursts[bursts.length - 1]++ }
    }
    const g = gemodelFor({ ratePct: 30, burst: 3 })
    assert.ok(Math.abs(dropped / 200000 - g.loss) < 0.004, `${dropped / 200000}`)
    assert.ok(Math.abs(bursts.reduce((a, b) => a + b, 0) / bursts.length - g.meanBurst) < 0.02)
    assert.ok(Math.max(...bursts) === 3, 'the simulator never drops more than 3 in a row')
    assert.equal(cellOf('handshakeloss').link.split(',').find(i => i.startsWith('gemodel')), 'gemodel=30%/71.942446%')
    assert.throws(() => gemodelFor({ ratePct: 100, burst: 3 }), /drop rate must be above 0 and below 100 %; got 100/)
    assert.throws(() => gemodelFor({ ratePct: 2, burst: 0 }), /burst must be a whole number of packets, at least 1; got 0/)
  })

  it('--smoke: smaller files, 2 handshakes, a 200 ms long RTT and a 1 s/500 ms outage; the same scenarios', () => {
    const smoke = expand(['interop'], { smoke: true }).map(x => x.cell)
    assert.deepEqual(smoke.map(c => c.preset), e.cells.map(c => c.preset))
    assert.deepEqual(smoke.map(c => Number(c.size)), [MiB, MiB, KiB, KiB, 512 * KiB, 2 * MiB])
    assert.deepEqual(cellOf('handshakeloss', true).inTurn, { runs: 2, deadlineS: 300 })
    assert.match(cellOf('longrtt', true).link, /delay=200ms/)
    assert.match(cellOf('blackhole', true).link, /outage=1s\/500ms/)
    assert.equal(criterionOf(smokeOf(caseOf('goodput'))), 'each of its 5 repetitions: one handshake and the 1 MiB file intact within 60 s; it reports goodput mean (± sd) kbps')
    assert.equal(criterionOf(caseOf('blackhole')), 'one handshake and the 10 MiB file intact within 60 s, the link dark from 5 s to 7 s')
    assert.equal(criterionOf(caseOf('handshakeloss')), '50 handshakes, each a new connection fetching a 1 KiB file, all complete within 300 s together')
  })

  it('oha is given a longer handshake only when the workload asks (its default 5 s elsewhere)', () => {
    const args = w => oha.command({ url: 'https://x/', protocol: 'h3', requests: 1, connections: 1, streams: 1, timeoutS: 60, ...w }).args
    assert.ok(!args({}).includes('--connect-timeout'))
    const a = args({ connectTimeoutS: 300 })
    assert.equal(a[a.indexOf('--connect-timeout') + 1], '300s')
  })
})

describe('interop: the interop runner\'s pass criteria on our rows', () => {
  it('a lane passes when every run completed within the case\'s timeout on its number of connections', () => {
    const c = caseOf('transferloss')
    assert.equal(judge(row({ preset: 'transferloss', lane: 'h1', ms: [3000] }), c).status, 'pass')
    const failed = judge(row({ preset: 'transferloss', lane: 'h3', ms: [3000, 3100], failures: 3, note: '3 of 5 runs had failed requests' }), c)
    assert.deepEqual([failed.status, failed.runs, failed.passed], ['mixed', 5, 2])
    assert.match(failed.why[0], /^3 of 5 runs did not complete \(3 of 5 runs had failed requests\)$/)
    assert.equal(judge(row({ preset: 'transferloss', lane: 'h3', ms: [], failures: 5 }), c).status, 'fail')
    // A run over the case's 60 s does not pass (the tool is killed there, so only a clock that disagrees gets here).
    const late = judge(row({ preset: 'transferloss', lane: 'h2', ms: [1000, 61000] }), c)
    assert.deepEqual([late.status, late.passed], ['mixed', 1])
    // The server's ledger: two connections where the case wants one handshake.
    const twice = judge(row({ preset: 'transferloss', lane: 'h2', ms: [1000], connections: 2 }), c)
    assert.equal(twice.status, 'fail')
    assert.match(twice.why.join(), /the server saw 2 connections \(median over the runs\), the case wants 1/)
    assert.equal(judge(null, c).status, 'not run')
  })

  it('handshakeloss: a run is its 50 handshakes; the row counts how many completed', () => {
    const c = { ...caseOf('handshakeloss') }
    const ok = row({ preset: 'handshakeloss', lane: 'h3', ms: [40000], connections: 50, inTurn: 50 })
    assert.equal(judge(ok, c).status, 'pass')
    assert.deepEqual(handshakesOf(ok), { asked: 250, completed: 250, per: 50 })
    const some = row({ preset: 'handshakeloss', lane: 'h1', ms: [90000, 95000, 99000, 97000], failures: 1, connections: 50, inTurn: 50, failedRequests: 2, load: { p50: 800, p90: 2100, p99: 7300 } })
    assert.deepEqual(handshakesOf(some), { asked: 250, completed: 248, per: 50 })
    assert.equal(judge(some, c).status, 'mixed')
    assert.match(resultText(some, c), /248 of 250 handshakes completed \(50 a run\); a handshake and its file p50 0\.800 s, p90 2\.100 s, p99 7\.300 s/)
    assert.match(judgement(some, c).text, /^MIXED \(4 of 5 runs by its criterion: 1 of 5 runs did not complete\)$/)
  })

  it('goodput: the interop runner\'s mean (± sample sd) kbps beside our median and the engine\'s bootstrap interval', () => {
    // statistics.stdev of 9000…9400 in steps of 100: 158.11.
    assert.deepEqual(interopFigure([9000, 9100, 9200, 9300, 9400]), { mean: 9200, sd: Math.sqrt(25000), text: '9200 (± 158) kbps' })
    assert.equal(interopFigure([9000]).text, '9000 kbps', 'no ± below two values (statistics.stdev raises there)')
    const ours = ourFigure([9000, 9100, 9200, 9300, 9400])
    assert.equal(ours.median, 9200)
    assert.ok(ours.low <= 9200 && ours.high >= 9200 && ours.low >= 9000 && ours.high <= 9400)
    assert.match(ourFigure([9000, 9100]).text, /^9050 kbps \(no interval: 2 runs, the engine needs 5\)$/)
    // 10 MiB in 9.5 s: 8 × 10,485,760 ÷ 9,500 ms.
    const g = row({ preset: 'goodput', lane: 'h1', ms: [9500] })
    assert.match(resultText(g, caseOf('goodput')), /goodput 8830 kbps \(95 % interval \d+–\d+\); as the interop runner reports it: 8832 \(± 140\) kbps/)
    assert.match(judgement(g, caseOf('goodput')).text, /^pass \(5 of 5 runs by its criterion\)$/)
    assert.match(judgement(row({ preset: 'goodput', lane: 'h1', ms: [9500, 9600] }), caseOf('goodput')).text, /the interop runner makes 5 and needs all/)
    // A measurement fails on one failed repetition (interop.py _run_measurement); a test that passed in some runs is mixed.
    assert.equal(judge(row({ preset: 'goodput', lane: 'h1', ms: [9500, 9600, 9700, 9800], failures: 1 }), caseOf('goodput')).status, 'fail')
  })

  it('blackhole: one outage, as the interop runner\'s, and the packets dropped in the dark', () => {
    const r = row({ preset: 'blackhole', lane: 'h1', ms: [11000, 11500, 12500], costs: { runs: 3, link: { down: { otherDropped: 300 }, up: { otherDropped: 20 } } } })
    assert.match(resultText(r, caseOf('blackhole')), /one outage of 2 s after 5 s up, as the interop runner's; 320 packets dropped in the dark/)
  })

  it('its lower bound: the file through 10 Mbit/s after the handshake\'s round trips; 50 handshakes in turn add up', () => {
    const tcp = row({ preset: 'goodput', lane: 'h2e', ms: [9000] })
    const bytesMs = (10 * MiB + 10) * WIRE * 8 / 10e6 * 1000
    assert.ok(Math.abs(boundMs(tcp) - (3 * 30 + bytesMs)) < 1e-6, `${boundMs(tcp)}`) // TCP + TLS 1.3 + the request: 3 round trips
    const quic = row({ preset: 'goodput', lane: 'h3', ms: [9000] })
    assert.ok(Math.abs(boundMs(quic) - (2 * 30 + (10 * MiB + 5) * WIRE * 8 / 10e6 * 1000)) < 1e-6)
    const hs = row({ preset: 'handshakeloss', lane: 'h1', ms: [40000], connections: 50, inTurn: 50 })
    const b = boundOf(hs, 'load')
    assert.equal(b.rounds, 150)
    assert.ok(Math.abs(b.ms - (150 * 30 + 50 * (KiB + 250) * WIRE * 8 / 10e6 * 1000)) < 1e-6)
    assert.deepEqual(loadWorkload(hs), { tool: 'h2load', connections: 50, streams: 1, pipelining: 1, requests: 50, bytes: 50 * KiB, state: 'cold' })
  })
})

describe('interop: claims and the report', () => {
  const lanes = (preset, ms, extra = {}) => ['h1', 'h2', 'h2e', 'h3'].map(lane => row({ preset, lane, ms: [ms[lane]], ...(extra[lane] || {}) }))
  // The claim whose text starts with `text`, judged as the report judges it (bench/report/claims/interop.js).
  const check = (text, rows) => verdicts(e, rows).find(c => c.text.startsWith(text))

  it('the interop runner\'s criterion as a claim\'s meets criterion: met, not met (failed or mixed), not measured (not run); the case as the row ran it', () => {
    const c = runnerCriterion(caseOf('transferloss'))
    assert.match(c.name, /^the QUIC interop runner's criterion for transferloss \(testcases_quic\.py TestCaseTransferLoss/)
    assert.deepEqual(c.test(row({ preset: 'transferloss', lane: 'h1', ms: [3000] })), { met: true, why: 'pass (5 of 5 runs by its criterion)' })
    assert.equal(c.test(row({ preset: 'transferloss', lane: 'h3', ms: [3000, 3100], failures: 3 })).met, false)
    assert.equal(c.test(row({ preset: 'transferloss', lane: 'h3', ms: [], failures: 0 })).met, null)
    // A smoke row: its own file size and its link's outage.
    const smoke = row({ preset: 'blackhole', lane: 'h1', ms: [3000], size: 2 * MiB, linkSpec: cellOf('blackhole', true).link })
    assert.deepEqual([caseOfRow(smoke).size, caseOfRow(smoke).blackhole], [2 * MiB, { onS: 1, offS: 0.5 }])
  })

  it('per case: holds when every lane passes its criterion, partly when most do, does not hold when none do, not measured without rows', () => {
    const all = lanes('blackhole', { h1: 12000, h2: 12100, h2e: 11900, h3: 10000 })
    assert.equal(check('blackhole (B): every lane passes', all).status, 'holds')
    const some = lanes('blackhole', { h1: 12000, h2: 12100, h2e: 11900, h3: 10000 }, { h2: { ms: [], failures: 5, note: '5 of 5 runs had failed requests' } })
    const v = check('blackhole (B): every lane passes', some)
    assert.equal(v.status, 'partly holds')
    assert.match(v.detail, /blackhole, h2: not met \(FAIL \(0 of 5 runs by its criterion: 5 of 5 runs did not complete/)
    assert.match(v.detail, /scenario "blackhole --delay=15ms --bandwidth=10Mbps --queue=25 --on=5s --off=2s"/)
    assert.equal(check('blackhole (B): every lane passes', lanes('blackhole', {}, { h1: { ms: [], failures: 5 }, h2: { ms: [], failures: 5 }, h2e: { ms: [], failures: 5 }, h3: { ms: [], failures: 5 } })).status, 'does not hold')
    assert.equal(check('goodput (G): every lane passes', all).status, 'not measured')
  })

  it('HTTP/3 against the TCP lanes by the verdict engine (a table of the report, no claim): faster, slower, or not measured below 5 runs', () => {
    assert.deepEqual(claimsOf('interop').map(c => c.form), CASES.map(() => 'meets'))
    const rows = lanes('transferloss', { h1: 2000, h2: 2100, h2e: 2200, h3: 4000 })
    const vs = h3Against(rows)
    assert.deepEqual(vs.map(x => [x.lane, x.verdict]), [['h2e', 'slower'], ['h1', 'slower'], ['h2', 'slower']])
    assert.match(vs[0].sentence, /^h3 is 1\.82× slower than h2e \(95 % interval [\d.]+–[\d.]+×, 5 and 5 runs\)/)
    assert.equal(h3Against(lanes('longrtt', { h1: 4500, h2: 4500, h2e: 4500, h3: 3000 }))[0].verdict, 'faster')
    const few = h3Against(['h2e', 'h3'].map(lane => row({ preset: 'goodput', lane, ms: [9000, 9100] })))
    assert.equal(few[0].verdict, 'not measured')
    assert.deepEqual(h3Against([]), [])
  })

  it('the report: the cases and their mapping, each lane beside its criterion with its bound, goodput as both report it, h3 against TCP', () => {
    const rows = [...lanes('goodput', { h1: 9200, h2: 9300, h2e: 9250, h3: 9400 }), ...lanes('transferloss', { h1: 2000, h2: 2100, h2e: 2200, h3: 4000 })]
    const [mapping, results, goodput, vs] = tablesOf('interop')(rows)
    assert.deepEqual(mapping.body.map(b => b[0]), ['goodput', 'transferloss'])
    assert.match(mapping.body[1][1], /^L2: testcases_quic\.py TestCaseTransferLoss/)
    assert.equal(mapping.body[1][3], 'down=10mbit,up=10mbit,delay=15ms,queue=27,gemodel=2%/98.000784%')
    assert.equal(results.body.length, 8)
    const h3 = results.body.find(b => b[0] === 'transferloss' && b[2] === 'h3')
    assert.equal(h3[3], 'oha')
    assert.equal(h3[6], 'pass (5 of 5 runs by its criterion)')
    assert.equal(h3[5], '1.800', '2 MiB through 10 Mbit/s (1.740 s) and 2 round trips of 30 ms')
    assert.deepEqual(goodput.body.map(b => b[1]), ['h1', 'h2', 'h2e', 'h3'])
    assert.match(goodput.body[0][3], /^9120 \(± 144\) kbps$/) // 10 MiB in 9.2 s: 9118 kbps at the median, the mean of the five above it
    assert.deepEqual(vs.body.map(b => [b[0], b[1], b[6]]).slice(-3), [['transferloss', 'h2e', 'slower'], ['transferloss', 'h1', 'slower'], ['transferloss', 'h2', 'slower']])
  })
})

describe('runs in turn (bench/cells/load-in-turn.js)', () => {
  // Rows as load/load.js's measure makes them, for one handshake each.
  const run = (ms, extra = {}) => ({
    lane: 'h1', protocol: 'http/1.1', tool: 'h2load', command: 'h2load -t 1 -c 1 -n 1 -m 1 --h1 https://x/', requests: 1, sizeBytes: 1024,
    totalMs: ms, succeeded: ms === null ? 0 : 1, failed: ms === null ? 1 : 0, connections: ms === null ? 0 : 1,
    requestsPerConnection: ms === null ? null : { min: 1, median: 1, max: 1 },
    serverRequests: ms === null ? 0 : 1, wire: { up: { packets: 10, bytes: 1000, lost: 3 }, down: { packets: 12, bytes: 3000, lost: 4 } },
    toolCpuMs: 5, error: ms === null ? 'timed out after 300 s (--timeout)' : null, notes: [], linkSeed: 'x', ...extra
  })

  it('each run on a seed of its own, the same for every lane: the run\'s seed × 1000 + i', () => {
    assert.equal(turnSeed(7000, 0), '7000000')
    assert.equal(turnSeed(7001, 49), '7001049')
    assert.equal(turnSeed(2 ** 48, 999), String(BigInt(2 ** 48) * 1000n + 999n), 'above 2^53, as text')
    assert.equal(turnSeed(null, 3), null)
    assert.throws(() => turnSeed(1, 1000), /at most 1000 runs in turn/)
  })

  it('merges the runs: times, requests, connections and link counters added; complete only when every one finished in time', () => {
    const m = mergeInTurn([run(400), run(600), run(1000)], { runs: 3, deadlineS: 300, seed: 7000 })
    assert.deepEqual([m.totalMs, m.requests, m.succeeded, m.failed, m.connections, m.serverRequests, m.attempted, m.linkSeed, m.error],
      [2000, 3, 3, 0, 3, 3, 3, 7000, null])
    assert.equal(m.command, '3 runs in turn of: h2load -t 1 -c 1 -n 1 -m 1 --h1 https://x/')
    assert.equal(turnsOf({ load: { command: m.command } }), 3)
    assert.equal(turnsOf({ load: { command: 'h2load -t 1 -c 1 -n 1 https://x/' } }), 1)
    assert.deepEqual(m.wire.down, { packets: 36, bytes: 9000, lost: 12 })
    assert.equal(m.latencyMs.p50, 600)
    const failed = mergeInTurn([
      run(400),
      run(null, { costs: { wallMs: 300000, toolCpuMs: 10, serverCpuMs: 0, link: null, tcp: { server: null, client: null } } }),
      run(500)
    ], { runs: 3, deadlineS: 300 })
    assert.deepEqual([failed.succeeded, failed.failed, failed.totalMs], [1, 2, 400])
    assert.match(failed.error, /^2 of 3 runs in turn did not complete; the 300 s deadline passed after 1 of them; first error: timed out/)
    const short = mergeInTurn([run(400)], { runs: 50, deadlineS: 300 })
    assert.deepEqual([short.failed, short.error], [49, '49 of 50 runs in turn did not complete; 49 not run'])
  })

  it('a row of runs in turn is a results.json row like any (its command says how many)', () => {
    const r = row({ preset: 'handshakeloss', lane: 'h1', ms: [40000], connections: 50, inTurn: 50 })
    const full = {
      ...r,
      repeatsAsked: 5,
      repeatsGot: 5,
      mean: r.median,
      min: Math.min(...r.samples),
      max: Math.max(...r.samples),
      baseline: null,
      ratioToBaseline: null,
      params: { ...r.params, sizeMB: 0.001 }
    }
    full.load = { ...full.load, toolVersion: '1.52.0', reqPerSec: null, mbPerSec: null, p50: null, p90: null, p99: null, requestsPerConnection: 1, lostDown: null, duplicatedDown: null, corruptedDown: null }
    delete full.costs
    const problems = validateResults({ environment: {}, results: [full] }).filter(p => !p.startsWith('results.json.environment'))
    assert.deepEqual(problems, [])
  })
})

'use strict'

const assert = require('node:assert/strict')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { validateResults } = require('../../../bench/report/runner/results-schema')
const { unavailableReason } = require('../../../link/namespace')
const { edgeUnavailableReason } = require('../../../server/edge/caddy')
const { ensureOha } = require('../../../tools/oha/build')
const { runNode } = require('../../support/run-node')

const RUN = path.join(__dirname, '..', '..', '..', 'bin', 'h2bench-run.js')

// The command-line studies of seeds 002 and 004 through the packet-level
// link, in their smoke forms: ab vs nghttp (and oha on h3) at 50 ms RTT, and
// h2load/oha on a clean link, under 70 % duplication, and oha against
// h2load on the HTTP/2 lanes. What must hold whatever the figures: every
// lane answered every request, ab opened a connection per request and the
// multiplexing tools one per connection asked (the server's ledger), the
// link really had 50 ms RTT (no h1 run of 20 requests over 5 connections
// beats 4 rounds of TCP + TLS + request), and the report carries the
// sources' figures and verdicts.
describe('npm run bench -- ab-vs-nghttp h2load-netem --network link --smoke (the real command)', function () {
  this.timeout(240000)
  let dir = null
  let result = null
  let json = null
  let report = null

  before(async function () {
    const why = unavailableReason() || edgeUnavailableReason()
    if (why) {
      process.stdout.write(`      (skipped: ${why})\n`)
      this.skip()
    }
    this.timeout(40 * 60 * 1000) // oha's first build (cargo) takes minutes
    await ensureOha()
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'h2bench-runner-load-'))
    result = await runNode(RUN, ['ab-vs-nghttp', 'h2load-netem', '--smoke', '--network', 'link', '--repeats', '2', '--seed', '7000', '--out', dir])
    json = JSON.parse(fs.readFileSync(path.join(dir, 'results.json'), 'utf8'))
    report = fs.readFileSync(path.join(dir, 'report.md'), 'utf8')
  })
  after(() => { if (dir) fs.rmSync(dir, { recursive: true, force: true }) })

  const rows = id => json.results.filter(r => r.experiment === id)

  it('exits 0 with a results.json that matches its schema, every row through the link without failures', () => {
    assert.equal(result.code, 0, result.stderr)
    assert.deepEqual(validateResults(json), [])
    for (const r of json.results) {
      assert.equal(r.network, 'link')
      assert.equal(r.failures, 0, `${r.experiment} ${r.lane} ${r.mode}: ${r.note}`)
      assert.equal(r.load.failedRequests, 0)
      assert.equal(r.repeatsGot, 2)
    }
    assert.match(json.environment.caddyVersion, /^v2\.\d+\.\d+/, 'the edge lanes\' Caddy is recorded')
  })

  it('paired: every lane and variant of repeat r met the link seed 7000 + r (recorded per sample), so the same drops', () => {
    assert.equal(json.environment.linkSeed, 7000)
    assert.equal(json.environment.pairedSeeds, true)
    for (const r of json.results) assert.deepEqual([...r.linkSeeds].sort(), [7000, 7001], `${r.experiment} ${r.lane} ${r.mode}`)
  })

  it("the forwarder's priority is recorded, and with every row's costs its own lateness against its schedule", () => {
    assert.match(json.environment.forwarderPriority, /^(real-time \(SCHED_FIFO 10\)|normal \(chrt refused: .+\))$/)
    for (const r of json.results) {
      const d = r.costs.link.down
      assert.ok(d.lateP99Ms >= 0 && d.lateMaxMs >= d.lateP99Ms, `${r.experiment} ${r.lane} ${r.mode}: ${JSON.stringify(d)}`)
    }
  })

  it('ab-vs-nghttp: each lane its source tool; ab a connection per request, the others one connection for all', () => {
    const got = Object.fromEntries(rows('ab-vs-nghttp').map(r => [r.lane, r]))
    assert.deepEqual(Object.keys(got).sort(), ['h1', 'h2', 'h2e', 'h2n', 'h3'])
    assert.equal(got.h1.load.tool, 'ab')
    for (const l of ['h2', 'h2n', 'h2e']) assert.equal(got[l].load.tool, 'nghttp')
    assert.equal(got.h3.load.tool, 'oha')
    const n = got.h1.params.requests
    assert.equal(n, 20)
    assert.equal(got.h1.load.connections, n, 'ab: one connection per request, as the server saw it')
    assert.equal(got.h1.load.requestsPerConnection, 1)
    for (const l of ['h2', 'h2n', 'h2e', 'h3']) {
      assert.equal(got[l].load.connections, 1, `${l}: one connection`)
      assert.equal(got[l].load.requestsPerConnection, n, `${l}: every request on it`)
    }
  })

  it('ab-vs-nghttp: the times are those of a 50 ms link (physics: round trips per connection)', () => {
    const got = Object.fromEntries(rows('ab-vs-nghttp').map(r => [r.lane, r]))
    assert.equal(got.h1.linkSpec, 'rtt=50ms')
    // ab -n 20 -c 5: 4 rounds, each a new TCP connection (1 RTT), TLS 1.3 (1) and the request (1).
    assert.ok(got.h1.min >= 4 * 3 * 50, `ab took ${got.h1.min} ms, less than 4 × 3 round trips of 50 ms`)
    // One connection: TCP, TLS and one round of 20 requests at least; nghttp's process also starts.
    for (const l of ['h2', 'h2n', 'h2e']) assert.ok(got[l].min >= 3 * 50, `${l}: ${got[l].min} ms < 3 round trips`)
    // QUIC: its handshake (1 RTT) and the requests (1 RTT).
    assert.ok(got.h3.min >= 2 * 50, `h3: ${got.h3.min} ms < 2 round trips`)
    assert.ok(got.h1.median > got.h2n.median, 'ab with a handshake per request is slower than one multiplexed connection')
  })

  it('h2load-netem: h2load on h1 and the HTTP/2 lanes, oha on h3 (and, as a variant, on h1 and HTTP/2); the dup cell really duplicated', () => {
    const all = rows('h2load-netem')
    for (const r of all.filter(x => !x.mode)) {
      assert.equal(r.load.tool, r.lane === 'h3' ? 'oha' : 'h2load', r.lane)
      // h2load gives each of its -c 10 connections its share; oha shares one queue, so a
      // connection whose handshake came last may get no request (median over the runs).
      if (r.lane === 'h3') assert.ok(r.load.connections >= 8 && r.load.connections <= 10, `${r.lane} ${r.preset}: ${r.load.connections} of -c 10`)
      else assert.equal(r.load.connections, 10, `${r.lane} ${r.preset}: -c 10`)
    }
    const dup = all.filter(r => r.preset === 'dup 70 %')
    assert.equal(dup.length, 5)
    for (const r of dup) assert.ok(r.load.duplicatedDown > 0, `${r.lane}: the link duplicated nothing`)
    const clean = all.filter(r => r.preset === 'clean')
    for (const r of clean) assert.equal(r.load.duplicatedDown, 0)
    // The same-tool variant: oha on h1 and the HTTP/2 lanes of the clean cell, c connections like h2load's.
    const cal = all.filter(r => r.mode === 'oha')
    assert.deepEqual(cal.map(r => r.lane).sort(), ['h1', 'h2e', 'h2n'])
    for (const r of cal) {
      assert.equal(r.preset, 'clean')
      assert.equal(r.load.tool, 'oha')
      assert.ok(r.load.connections >= 8 && r.load.connections <= 10, `${r.lane}: oha used ${r.load.connections} of its -c 10 connections`)
    }
  })

  it('the report has both tables beside the sources\' figures, and a verdict for each of the source\'s conclusions', () => {
    assert.match(report, /## ab-vs-nghttp/)
    assert.match(report, /## h2load-netem/)
    assert.match(report, /source \(s\)/)
    assert.match(report, /406\.49 ms, 24601 req\/s/, 'the source\'s clean h1 row')
    assert.match(report, /443\.55 ms, 23065 req\/s/, 'the source\'s dup 70 % h1 row')
    assert.match(report, /h2load ÷ oha/, 'oha against h2load on the same lanes')
    // Two repeats are below the verdict engine's 5 good runs a side: the smoke's claims are not measured, each cell saying why.
    assert.match(report, /HTTP\/2 on one connection finishes the 100 requests far sooner[^\n]*\*\*: not measured, [^\n]*not measured \(2 and 2 runs, at least 5 needed; medians only: [\d.]+×\)/)
    // The server's ledger decides the connections claim, whatever the runs' count.
    assert.match(report, /nghttp sends the 100 HTTP\/2 requests as 100 streams of one connection[^\n]*\*\*: reproduced, /)
    // The smoke's workload is not the source's (10 connections, 100 requests, pipelined 10 deep): its cells are not measured, saying why.
    assert.match(report, /On a clean link HTTP\/1\.1 beats HTTP\/3[^\n]*\*\*: not measured, [^\n]*h1's workload differs from the source's where it must not: [^\n]*pipelining: 10 here, 100 in the source/)
    assert.match(report, /Duplication alone gives HTTP\/3 only a slight advantage[^\n]*\*\*: not measured,/)
    assert.match(report, /The HTTP\/3 load client \(oha\) is not what limits[^\n]*\*\*: not measured, /)
    const html = fs.readFileSync(path.join(dir, 'report.html'), 'utf8')
    assert.match(html, /<svg/)
  })
})

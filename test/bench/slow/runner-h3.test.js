'use strict'

const assert = require('node:assert/strict')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { validateResults } = require('../../../bench/report/runner/results-schema')
const { unavailableReason } = require('../../../link/namespace')
const { edgeUnavailableReason, findCaddy } = require('../../../server/edge/caddy')
const { runNode } = require('../../support/run-node')

const RUN = path.join(__dirname, '..', '..', '..', 'bin', 'h2bench-run.js')

// The HTTP/3 study of seed 003 through the packet-level link, in its smoke
// form: time to first byte cold and on a repeat visit (h2e vs h3, 50 ms RTT),
// and head-of-line blocking under 2 % loss. What must hold whatever the
// figures: the h3 lane spoke h3 and the h2e lane h2; each sample was a new
// connection (cold and repeat alike), proven by Resource Timing and by
// Chromium's net-log; cold ones were full handshakes, repeat ones resumed;
// and the times are those of a 50 ms link.
describe('npm run bench -- h3-ttfb h3-hol --network link --smoke (the real command)', function () {
  this.timeout(150000)
  let dir = null
  let result = null
  let json = null
  const RTT = 50

  before(async function () {
    const why = unavailableReason() || edgeUnavailableReason()
    if (why) {
      process.stdout.write(`      (skipped: ${why})\n`)
      this.skip()
    }
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'h2bench-runner-h3-'))
    result = await runNode(RUN, ['h3-ttfb', 'h3-hol', '--smoke', '--network', 'link', '--repeats', '2', '--lanes', 'h2e,h3', '--out', dir])
    json = JSON.parse(fs.readFileSync(path.join(dir, 'results.json'), 'utf8'))
  })
  after(() => { if (dir) fs.rmSync(dir, { recursive: true, force: true }) })

  const ttfbRows = () => json.results.filter(r => r.experiment === 'h3-ttfb')
  const at = (lane, mode) => ttfbRows().find(r => r.lane === lane && r.mode === mode)

  it('exits 0 with a results.json that matches its schema, every row through the link', () => {
    assert.equal(result.code, 0, result.stderr)
    assert.deepEqual(validateResults(json), [])
    for (const r of json.results) {
      assert.equal(r.network, 'link')
      assert.equal(r.failures, 0, `${r.experiment} ${r.lane} ${r.mode}: ${r.note}`)
      assert.equal(r.repeatsGot, 2)
    }
    // The edge server that measured, as startAll ran it.
    assert.equal(json.environment.caddyPath, findCaddy())
    assert.match(json.environment.caddyVersion, /^v2\.\d+\.\d+/)
  })

  it('h3-ttfb: one row per lane and mode, each lane speaking its protocol', () => {
    assert.deepEqual(ttfbRows().map(r => `${r.lane} ${r.mode}`).sort(), ['h2e cold', 'h2e repeat', 'h3 cold', 'h3 repeat'])
    for (const mode of ['cold', 'repeat']) {
      assert.equal(at('h3', mode).protocol, 'h3', 'the h3 lane did not speak HTTP/3')
      assert.equal(at('h2e', mode).protocol, 'h2')
    }
    for (const r of ttfbRows()) {
      assert.equal(r.linkSpec, `rtt=${RTT}ms`)
      assert.equal(r.ttfb.rttMs, RTT)
    }
  })

  it('h3-ttfb: every sample was a new connection, cold ones full handshakes, repeat ones resumed (Resource Timing and net-log)', () => {
    for (const r of ttfbRows()) {
      const what = `${r.lane} ${r.mode}`
      assert.equal(r.ttfb.newConnections, r.samples.length, `${what}: a sample reused a connection`)
      assert.equal(r.ttfb.handshakes, r.samples.length, `${what}: the net-log does not show one handshake per sample`)
      assert.equal(r.ttfb.warmReused, r.samples.length, `${what}: the warm request did not reuse the connection`)
      assert.equal(r.ttfb.resumed, r.mode === 'repeat' ? r.samples.length : 0, `${what}: resumed ${r.ttfb.resumed} of ${r.samples.length}`)
      // The server's time is at least none, less the clocks' grain; how long a busy machine makes it is not asserted.
      assert.ok(r.ttfb.serverMs !== null && r.ttfb.serverMs > -5 && r.ttfb.serverFloorMs <= r.ttfb.serverMs, `${what}: non-network time ${r.ttfb.serverMs} ms`)
    }
    // QUIC: no 0-RTT without a ticket; with one, the browser tries it.
    assert.equal(at('h3', 'cold').ttfb.zeroRttAttempted, 0)
    assert.equal(at('h3', 'repeat').ttfb.zeroRttAttempted, 2)
    assert.equal(at('h2e', 'repeat').ttfb.zeroRtt, 0)
  })

  it('h3-ttfb: times of a 50 ms link: TCP + TLS 1.3 about 3 round trips, QUIC fewer', () => {
    // Never under the round trips the protocol cannot avoid (TCP+TLS: 3; QUIC: 2 cold, 1 with 0-RTT).
    for (const r of ttfbRows()) {
      const floor = r.lane === 'h2e' ? 3 : r.mode === 'cold' ? 2 : 1
      assert.ok(r.min >= floor * RTT - 2, `${r.lane} ${r.mode}: ${r.min} ms under ${floor} RTTs`)
      assert.ok(r.median < 8 * RTT, `${r.lane} ${r.mode}: ${r.median} ms`)
    }
    // Physics gives the floors: TCP + TLS 1.3 pays 3 round trips, resumed or not; QUIC at least 2 cold and 1 with
    // 0-RTT. How far over them a sample lands is the machine's (a busy one added 1.4 round trips to h3's cold best):
    // printed, not asserted; the handshakes themselves are checked above against the net-log.
    const best = (lane, mode) => Math.min(...at(lane, mode).ttfb.roundTripSamples)
    for (const mode of ['cold', 'repeat']) assert.ok(best('h2e', mode) >= 2.8, `h2e ${mode}: ${best('h2e', mode)} round trips`)
    assert.ok(best('h3', 'cold') >= 1.8, `h3 cold: ${best('h3', 'cold')} round trips`)
    assert.ok(best('h3', 'repeat') >= 0.8, `h3 repeat: ${best('h3', 'repeat')} round trips`)
    const clean = at('h3', 'cold').ttfb.roundTripsClean
    process.stdout.write(`      · best round trips: h2e cold ${best('h2e', 'cold')}, repeat ${best('h2e', 'repeat')}; h3 cold ${best('h3', 'cold')} ` +
      `(${clean === null ? 'every one retransmitted an Initial' : `${clean} without a retransmitted Initial`}), repeat ${best('h3', 'repeat')}\n`)
  })

  it('h3-hol: one batch per repeat on each lane, with completion times in order', () => {
    const rows = json.results.filter(r => r.experiment === 'h3-hol')
    assert.deepEqual(rows.map(r => r.lane).sort(), ['h2e', 'h3'])
    for (const r of rows) {
      assert.equal(r.protocol, r.lane === 'h3' ? 'h3' : 'h2')
      assert.equal(r.hol.lossPct, 2)
      assert.equal(r.hol.batches, 2)
      assert.ok(r.hol.firstMs <= r.hol.p10 && r.hol.p10 <= r.hol.p50 && r.hol.p50 <= r.hol.p90 && r.hol.p90 <= r.max + 1, JSON.stringify(r.hol))
      assert.ok(r.hol.firstMs >= RTT - 2, `${r.lane}: first request done after ${r.hol.firstMs} ms on a ${RTT} ms link`)
      // Each batch's p10 (the engine's samples for the streams' independence), and each batch's costs, metered outside its time.
      assert.equal(r.hol.p10Samples.length, 2)
      assert.ok(r.costs && r.costs.runs === 2 && r.costs.pageTaskMs > 0 && r.costs.link.down.bytes >= r.params.requests * r.params.sizeBytes,
        JSON.stringify(r.costs))
      // The TCP lane's congestion control, read off the server's socket (ss -ti): the batch's one connection.
      if (r.lane === 'h2e') assert.match(r.ccSeen, /^[a-z0-9_]+ ×1$/, r.ccSeen)
      else assert.equal(r.ccSeen, 'QUIC: quic-go (Caddy), CUBIC')
    }
  })

  it('reports both beside the source, with the round trips, the handshakes and the spread', () => {
    const md = fs.readFileSync(path.join(dir, 'report.md'), 'utf8')
    assert.ok(md.includes(`Edge lanes' server: Caddy ${json.environment.caddyVersion} (\`${json.environment.caddyPath}\`)`), 'report.md does not name the Caddy')
    assert.match(md, /## h3-ttfb: /)
    assert.match(md, /\| source \(Cloudflare 2020, real Internet, RTT not given\) \| 201 ms \(h2\) \| 176 ms \| 12\.4 % \|/)
    assert.match(md, /\| rtt=50ms \| h3 repeat \| 2\/2 \| 2 \| 2\/2 \| 2\/2 \|/)
    // A smoke run's 2 repeats are below the verdict engine's 5 good runs a side: its verdicts say so.
    assert.match(md, /HTTP\/3's time to first byte is lower than HTTP\/2's[^\n]*\*\*: not measured, [^\n]*by the verdict engine, per link: rtt=50ms, cold: not measured \([^\n]*→ missing; rtt=50ms, repeat: not measured \(/)
    assert.match(md, /## h3-hol: /)
    assert.match(md, /\| 2 % \| h3 \| h3 \| [\d.]+ s \|/)
    const html = fs.readFileSync(path.join(dir, 'report.html'), 'utf8')
    assert.match(html, /<section id="h3-ttfb">.*<svg/s)
    assert.match(html, /<section id="h3-hol">.*<svg/s)
  })
})

// Stopping a run behind the link: the runner measures in a namespace of its
// own (a second process); a SIGTERM to the command stops both at once, exits
// 143 saying so, and writes no report of cells it cut short (it used to let
// Playwright close the browser, then timed dead pages and exited 0).
describe('npm run bench -- … --network link, stopped with SIGTERM', function () {
  this.timeout(120000)

  it('stops within seconds with exit code 143 and one line, writes no report, leaves no process behind', async function () {
    const why = unavailableReason() || edgeUnavailableReason()
    if (why) this.skip()
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'h2bench-runner-stop-'))
    const { spawn, spawnSync } = require('node:child_process')
    try {
      const child = spawn(process.execPath, [RUN, 'h3-pages', '--smoke', '--network', 'link', '--out', dir], { stdio: ['ignore', 'ignore', 'pipe'] })
      let stderr = ''
      child.stderr.on('data', d => { stderr += d })
      const exited = new Promise(resolve => child.once('exit', (code, signal) => resolve({ code, signal })))
      await new Promise((resolve, reject) => {
        const check = setInterval(() => { if (/^cell 1 of/m.test(stderr)) { clearInterval(check); resolve() } }, 100)
        exited.then(() => { clearInterval(check); reject(new Error(`the runner ended before its first cell: ${stderr}`)) })
      })
      await new Promise(resolve => setTimeout(resolve, 1500)) // inside the cell
      const t0 = Date.now()
      child.kill('SIGTERM')
      const { code } = await exited
      const seconds = (Date.now() - t0) / 1000
      assert.equal(code, 143, stderr)
      assert.ok(seconds < 30, `took ${seconds} s to stop`) // at once in fact (0.2 s here); generous for a busy machine
      assert.match(stderr, /^h2bench-run: SIGTERM: stopped; an interrupted run writes no report$/m)
      assert.equal(fs.existsSync(path.join(dir, 'results.json')), false)
      await new Promise(resolve => setTimeout(resolve, 500))
      const left = spawnSync('pgrep', ['-f', `--out ${dir}`], { encoding: 'utf8' }).stdout.trim()
      assert.equal(left, '', `still running: ${left}`)
    } finally {
      fs.rmSync(dir, { recursive: true, force: true })
    }
  })
})

'use strict'

const assert = require('node:assert/strict')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { validateResults } = require('../../../bench/report/runner/results-schema')
const { unavailableReason } = require('../../../link/namespace')
const { runNode } = require('../../support/run-node')

const RUN = path.join(__dirname, '..', '..', '..', 'bin', 'h2bench-run.js')

// The runner on both networks: the source's network table under DevTools
// throttling and through the packet-level link (Chromium inside it), and the
// push table at the protocol level through the link (Node's client inside it).
describe('npm run bench -- network push-link --network both --smoke (the real command)', function () {
  this.timeout(180000)
  let dir = null
  let result = null
  let json = null

  before(async function () {
    const why = unavailableReason()
    if (why) {
      process.stdout.write(`      (skipped: ${why})\n`)
      this.skip()
    }
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'h2bench-runner-link-'))
    result = await runNode(RUN, ['network', 'push-link', '--smoke', '--network', 'both', '--out', dir])
    json = JSON.parse(fs.readFileSync(path.join(dir, 'results.json'), 'utf8'))
  })
  after(() => { if (dir) fs.rmSync(dir, { recursive: true, force: true }) })

  it('exits 0 with a results.json that matches its schema and records the networks', () => {
    assert.equal(result.code, 0, result.stderr)
    assert.deepEqual(validateResults(json), [])
    assert.deepEqual(json.environment.networks, ['devtools', 'link'])
  })

  it('runs every network cell on both networks, each row saying which, with the link\'s numbers', () => {
    const rows = json.results.filter(r => r.experiment === 'network')
    const devtools = rows.filter(r => r.network === 'devtools')
    const link = rows.filter(r => r.network === 'link')
    assert.equal(devtools.length, link.length)
    assert.ok(link.length >= 3)
    for (const r of devtools) assert.equal(r.link, null)
    for (const r of link) {
      assert.equal(r.failures, 0, r.note)
      assert.equal(r.linkSpec, r.preset)
      assert.match(r.link, new RegExp(`^${r.preset}: .* RTT`))
    }
    // A real link: every batch pays at least one round trip of the preset's RTT.
    const rtt = { 'Regular 2G': 300, 'Good 2G': 150, 'Regular 3G': 100, 'Good 3G': 40, 'Regular 4G': 20, WiFi: 2 }
    for (const r of link) assert.ok(r.median >= rtt[r.preset], `${r.lane} ${r.preset}: ${r.median} ms < RTT ${rtt[r.preset]} ms`)
    // Ratios compare rows of the same network only.
    for (const r of link.filter(x => x.lane !== 'h1')) assert.equal(r.baseline, 'h1')
  })

  it('push through the link: Node\'s client in the namespace gets every push, and saves about a round trip', () => {
    const rows = json.results.filter(r => r.experiment === 'push-link')
    assert.ok(rows.length >= 4)
    for (const r of rows) assert.equal(r.network, 'link')
    for (const r of rows.filter(x => x.mode === 'push')) assert.equal(r.pushed, 1)
    const at = (preset, lane, mode) => rows.find(r => r.preset === preset && r.lane === lane && r.mode === mode)
    for (const lane of ['h2', 'h2n']) {
      const saved = at('Regular 4G', lane, 'request').median - at('Regular 4G', lane, 'push').median
      assert.ok(saved > 10 && saved < 60, `${lane}: push saved ${saved} ms on a 20 ms RTT`)
    }
  })

  it('puts both networks side by side in the report, with the physical bound of every cell', () => {
    const md = fs.readFileSync(path.join(dir, 'report.md'), 'utf8')
    assert.match(md, /\| h1 · devtools \(s\) \|.*\| h1 · link \(s\) \|/)
    assert.match(md, /Against the physical lower bound/)
    // The bound's larger part, then the cost its runs measured (CPU, link counters).
    assert.match(md, /\| Regular 3G \| h2n · link \| [\d.]+ \| [\d.]+ \| \d+ % \| latency: 1 round trip of 100 ms \+ 10 ms server delay \| (latency|bandwidth|client CPU|server CPU|none dominates|loss recovery)[^|]* \|/)
    assert.match(md, /HTTP\/2 is faster than HTTP\/1\.1 \(packet-level link\)\*\*/)
    assert.match(md, /Network \(packet-level link, every IP packet\): Regular 2G: 256 kbit\/s down/)
  })
})

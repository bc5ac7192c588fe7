'use strict'

const assert = require('node:assert/strict')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { runNode } = require('../../support/run-node')

const SCRIPT = path.join(__dirname, '..', '..', '..', 'bin', 'h2bench-qlog-cost.js')

// The real benchmark, one pair of small workloads: the h3 lane with its qlog
// on writes one (its size reported), with it off none, and both runs are timed;
// --out writes the study (results.json, the result it prints, naming the
// command and the code; report.md), which --from writes again as it was.
describe('npm run bench:qlog-cost -- --smoke --json --out (the h3 lane, qlog on and off)', function () {
  this.timeout(120000)
  let tmp
  beforeEach(() => { tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'h2bench-qlog-cost-smoke-')) })
  afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }))

  it('runs each workload with the qlog on and off and reports the time, Caddy\'s CPU and the qlog\'s size', async () => {
    const out = path.join(tmp, 'study')
    const argv = ['--smoke', '--json', '--out', out]
    const r = await runNode(SCRIPT, argv)
    assert.equal(r.code, 0, r.stderr.slice(-2000))
    const result = JSON.parse(r.stdout)
    assert.deepEqual(JSON.parse(fs.readFileSync(path.join(out, 'results.json'), 'utf8')), result, 'results.json is the result it printed')
    assert.equal(result.environment.command, `npm run bench:qlog-cost -- ${argv.join(' ')}`)
    assert.match(result.environment.h2bench, /^\d+\.\d+\.\d+ [0-9a-f]{7,}/)
    assert.equal(result.runs.length, 2)
    const report = fs.readFileSync(path.join(out, 'report.md'), 'utf8')
    assert.ok(report.includes(`- Measured: ${result.environment.date}, \`${result.environment.command}\``), report)
    assert.match(report, /^\| 4 × 1 MiB, 4 streams \| 1 \| off \| /m)
    fs.rmSync(path.join(out, 'report.md'))
    assert.equal((await runNode(SCRIPT, ['--from', path.join(out, 'results.json')])).code, 0)
    assert.equal(fs.readFileSync(path.join(out, 'report.md'), 'utf8'), report, '--from writes the same report again')
    assert.equal(result.workloads.length, 2)
    for (const w of result.workloads) {
      assert.equal(w.pairs, 1)
      assert.ok(w.timeMs.off > 0 && w.timeMs.on > 0, JSON.stringify(w))
      assert.ok(w.serverCpuMs.off >= 0 && w.serverCpuMs.on > 0, JSON.stringify(w))
      // A JSON record a packet: 4 MiB down is some 3,000 packets, 200 responses some hundreds.
      assert.ok(w.qlogBytesPerRun > 50000, `${w.label}: ${w.qlogBytesPerRun} bytes of qlog`)
    }
    assert.match(r.stderr, /pair 1 of 1: off \d+ ms, on \d+ ms/)
  })
})

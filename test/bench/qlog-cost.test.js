'use strict'

// npm run bench:qlog-cost (bench/qlog-cost/qlog-cost.js): its figures from
// the pairs it ran, and its study (--out: results.json naming the command, the
// code and the date; report.md, which --from writes again without measuring).
const assert = require('node:assert/strict')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { runNode } = require('../support/run-node')
const { parseQlogCostArgs } = require('../../bench/qlog-cost/qlog-cost')
const { summarise, resultOf, writeStudy, reportMarkdown } = require('../../bench/report/qlog-cost/report')
const { measuringPathFor } = require('../../harness/provenance')
const { version } = require('../../package.json')

const BIN = path.join(__dirname, '..', '..', 'bin', 'h2bench-qlog-cost.js')

describe('npm run bench:qlog-cost: what the edge\'s qlog costs the h3 lane', () => {
  it('reports medians per side and on ÷ off per pair (median and range), not a ratio of medians', () => {
    const run = (totalMs, serverCpuMs, qlogBytes = 0) => ({ totalMs, serverCpuMs, qlogBytes })
    const s = summarise({
      label: 'w',
      pairs: [
        { off: run(100, 50), on: run(110, 60, 1e6) },
        { off: run(200, 100), on: run(220, 130, 2e6) },
        { off: run(300, 150), on: run(300, 150, 3e6) }
      ]
    })
    assert.deepEqual(s, {
      label: 'w',
      pairs: 3,
      timeMs: { off: 200, on: 220 },
      time: { median: 1.1, min: 1, max: 1.1 },
      serverCpuMs: { off: 100, on: 130 },
      serverCpu: { median: 1.2, min: 1, max: 1.3 },
      qlogBytesPerRun: 2e6
    })
  })

  it('takes --repeats 1…50, --smoke alone', () => {
    assert.equal(parseQlogCostArgs([]).repeats, 7)
    assert.equal(parseQlogCostArgs(['--repeats', '3']).repeats, 3)
    assert.deepEqual(parseQlogCostArgs(['--smoke']), { help: false, repeats: 1, smoke: true, json: false })
    assert.throws(() => parseQlogCostArgs(['--repeats', '51']), /--repeats must be a whole number from 1 to 50; got "51"/)
    assert.throws(() => parseQlogCostArgs(['--smoke', '--repeats', '2']), /--smoke runs 1 pair/)
    assert.equal(parseQlogCostArgs(['--smoke', '--out', 'd']).out, 'd')
  })

  it('--from measures nothing: measuring options are refused; the study goes beside its results.json unless --out says', () => {
    assert.deepEqual(parseQlogCostArgs(['--from', 'd/results.json']), { help: false, from: 'd/results.json', out: 'd', json: false })
    assert.equal(parseQlogCostArgs(['--from', 'd/results.json', '--out', 'e']).out, 'e')
    assert.throws(() => parseQlogCostArgs(['--from', 'd/results.json', '--repeats', '3']), /--from measures nothing: leave out --repeats/)
    assert.throws(() => parseQlogCostArgs(['--from', 'd/results.json', '--smoke']), /leave out --smoke/)
  })
})

describe('npm run bench:qlog-cost as a study (--out, --from)', () => {
  let tmp
  beforeEach(() => { tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'h2bench-qlog-cost-')) })
  afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }))
  const run = (totalMs, serverCpuMs, qlogBytes = 0) => ({ totalMs, serverCpuMs, qlogBytes })
  const runs = [
    { label: '20 × 1 MiB, 4 streams', pairs: [{ off: run(129, 170), on: run(200, 270, 7.3e6) }, { off: run(140, 180), on: run(130, 160, 7.2e6) }] },
    { label: '2,000 × 1 KiB, 20 streams', pairs: [{ off: run(750, 1200), on: run(680, 1090, 6e6) }, { off: run(700, 1100), on: run(800, 1300, 6.1e6) }] }
  ]
  // The commit as git would say it (the slow smoke test asks git: a unit test runs no program).
  const result = () => resultOf({ argv: ['--repeats', '2', '--out', 'docs/qlog-cost'], opts: { repeats: 2, smoke: false }, runs, started: new Date('2026-11-27T10:00:00Z'), commit: 'abc1234' })

  it('results.json names the command as run, the code (h2bench: version and commit), the machine and the date', () => {
    const r = result()
    assert.equal(r.tool, 'h2bench qlog cost')
    assert.equal(r.environment.command, 'npm run bench:qlog-cost -- --repeats 2 --out docs/qlog-cost')
    assert.equal(r.environment.date, '2026-11-27T10:00:00.000Z')
    assert.equal(r.environment.h2bench, `${version} abc1234`)
    assert.deepEqual(r.workloads.map(w => w.time.median), [1.239, 1.025])
    assert.deepEqual(r.runs, runs, 'every pair\'s runs, for the report')
    assert.equal(resultOf({ argv: [], opts: { repeats: 7, smoke: false }, runs, started: new Date(), commit: null }).environment.command, 'npm run bench:qlog-cost')
  })

  it('report.md says what, on what, when and with which code, the figures as printed and every pair', () => {
    const r = result()
    const report = reportMarkdown(r)
    for (const line of [
      '- Measured: 2026-11-27T10:00:00.000Z, `npm run bench:qlog-cost -- --repeats 2 --out docs/qlog-cost`',
      `- Code: h2bench ${r.environment.h2bench}`,
      '20 × 1 MiB, 4 streams: time 0.135 s off, 0.165 s on: on ÷ off 1.24× (pairs 0.93–1.55×)',
      '| 20 × 1 MiB, 4 streams | 2 | on | 0.140 | 0.130 | 0.93 | 0.18 | 0.16 | 0.89 | 7.2 |'
    ]) assert.ok(report.includes(line), `${line}\n--- not in ---\n${report}`)
  })

  it('--from rebuilds report.md (and results.json) byte for byte from its results.json, measuring nothing', async () => {
    const [json, md] = writeStudy(path.join(tmp, 'a'), result())
    const r = await runNode(BIN, ['--from', json, '--out', path.join(tmp, 'b')])
    assert.equal(r.code, 0, r.stderr)
    assert.match(r.stdout, /^h2bench qlog cost: the h3 lane \(Caddy\) with its qlog on and off, in turn, 2 pairs per workload/)
    assert.equal(fs.readFileSync(path.join(tmp, 'b', 'report.md'), 'utf8'), fs.readFileSync(md, 'utf8'))
    assert.equal(fs.readFileSync(path.join(tmp, 'b', 'results.json'), 'utf8'), fs.readFileSync(json, 'utf8'))
    // Beside it by default; not a results.json of this tool: refused, exit 2.
    fs.rmSync(md)
    assert.equal((await runNode(BIN, ['--from', json])).code, 0)
    assert.equal(fs.readFileSync(md, 'utf8'), fs.readFileSync(path.join(tmp, 'b', 'report.md'), 'utf8'))
    fs.writeFileSync(path.join(tmp, 'other.json'), JSON.stringify({ tool: 'h2bench soak', environment: {} }))
    const bad = await runNode(BIN, ['--from', path.join(tmp, 'other.json')])
    assert.equal(bad.code, 2)
    assert.match(bad.stderr, /is not a results\.json of bench:qlog-cost \(tool "h2bench soak"; missing repeats, workloads\)/)
  })

  it('its measuring path: the shared rooms, its entry point, bench/qlog-cost and load/, not its report writer', () => {
    const spec = measuringPathFor('npm run bench:qlog-cost -- --out docs/qlog-cost')
    for (const room of ['bin/h2bench-qlog-cost.js', 'bench/qlog-cost', 'load', 'server', 'tools']) assert.ok(spec.includes(room), room)
    for (const room of ['bench/link-bench', 'bench/runner', 'bin/h2bench-run.js']) assert.ok(!spec.includes(room), room)
    assert.ok(spec.includes('bench/commands/qlog-cost.js'))
    assert.ok(spec.includes(':(exclude,glob)bench/report/**')) // its report writer: bench/report/qlog-cost/report.js
  })
})

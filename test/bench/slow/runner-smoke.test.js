'use strict'

const assert = require('node:assert/strict')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { validateResults } = require('../../../bench/report/runner/results-schema')
const { EXPERIMENTS, inAll } = require('../../../bench/experiments')
const { runNode } = require('../../support/run-node')
const { LANES } = require('../../../server/lanes')

const RUN = path.join(__dirname, '..', '..', '..', 'bin', 'h2bench-run.js')

// The real command, every experiment, tiny workloads: Chromium, CDP
// throttling, window.h2bench.run, push refused by the browser, push
// accepted by Node's client, and the four outputs.
describe('npm run bench -- all --smoke (the real command)', function () {
  this.timeout(180000)
  let dir = null
  let result = null
  let json = null

  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'h2bench-runner-'))
    const started = Date.now()
    result = await runNode(RUN, ['all', '--smoke', '--out', dir, '--json'])
    result.seconds = (Date.now() - started) / 1000
    json = JSON.parse(fs.readFileSync(path.join(dir, 'results.json'), 'utf8'))
  })
  after(() => { if (dir) fs.rmSync(dir, { recursive: true, force: true }) })

  // How long it took is printed, not asserted: a busy machine must not fail
  // the test (mocha's timeout above bounds it).
  it('exits 0 and prints results.json to stdout with --json', () => {
    process.stdout.write(`      (the smoke run took ${result.seconds.toFixed(1)} s)\n`)
    assert.equal(result.code, 0, result.stderr)
    assert.deepEqual(JSON.parse(result.stdout), json)
  })

  it('reports progress on stderr: cell k of n, elapsed, estimated remaining', () => {
    const n = json.results.length && new Set(json.results.map(r => `${r.experiment}#${r.cell}`)).size
    assert.match(result.stderr, new RegExp(`^cell 1 of ${n}: delay \\(requests \\d+, size \\w+, delay 0, preset No throttling\\) on devtools · \\d+ s elapsed, about .+ left$`, 'm'))
    assert.match(result.stderr, new RegExp(`^cell ${n} of ${n}: push-protocol`, 'm'))
  })

  it('writes a results.json that matches its schema', () => {
    assert.deepEqual(validateResults(json), [])
    assert.equal(json.environment.smoke, true)
    assert.match(json.environment.chromium, /Chrom/)
    assert.equal(json.environment.cpus, os.cpus().length)
  })

  it('has rows for every experiment, cell and lane, with samples and no failures', () => {
    for (const e of EXPERIMENTS.filter(x => inAll(x) && (!x.networks || x.networks.includes('devtools')))) {
      const rows = json.results.filter(r => r.experiment === e.id)
      const lanes = e.lanes || LANES.map(l => l.name)
      const perCell = lanes.length * (e.kind === 'page' ? 1 : 2)
      assert.ok(rows.length > 0 && rows.length % perCell === 0, `${e.id}: ${rows.length} rows`)
      assert.deepEqual([...new Set(rows.map(r => r.lane))], lanes, e.id)
      for (const r of rows) {
        assert.equal(r.failures, 0, `${e.id} ${r.lane}: ${r.note || r.pushOutcome}`)
        assert.equal(r.repeatsGot, 1, `${e.id} ${r.lane}`)
        assert.ok(r.median > 0, `${e.id} ${r.lane}`)
      }
    }
  })

  it('saw the protocols each lane speaks, through the page', () => {
    const page = json.results.filter(r => r.experiment === 'delay')
    for (const r of page) assert.equal(r.protocol, LANES.find(l => l.name === r.lane).protocol, r.lane)
    assert.ok(page.some(r => r.lane === 'h3' && r.protocol === 'h3'), 'the h3 lane spoke h3 in the runner')
  })

  it('push in Chromium: refused by the browser, said so rather than timed as a push', () => {
    const push = json.results.filter(r => r.experiment === 'push' && r.mode === 'push')
    assert.ok(push.length >= 2)
    for (const r of push) assert.equal(r.pushOutcome, 'refused by the browser')
  })

  it('push at the protocol level: every script pushed, and push faster than request with a server delay', () => {
    const rows = json.results.filter(r => r.experiment === 'push-protocol')
    for (const r of rows.filter(r => r.mode === 'push')) assert.equal(r.pushed, r.params.assets, r.lane)
    for (const r of rows.filter(r => r.mode === 'push' && r.params.delayMs >= 30)) assert.ok(r.ratioToBaseline < 0.8, `${r.lane} ${r.params.delayMs}: ${r.ratioToBaseline}`)
  })

  it('writes results.csv, report.md and a self-contained report.html naming every experiment', () => {
    const csv = fs.readFileSync(path.join(dir, 'results.csv'), 'utf8').trim().split('\n')
    assert.equal(csv.length, json.results.length + 1)
    const md = fs.readFileSync(path.join(dir, 'report.md'), 'utf8')
    const html = fs.readFileSync(path.join(dir, 'report.html'), 'utf8')
    for (const e of EXPERIMENTS.filter(inAll)) { // all: every experiment but those that need a URL of the user's or run by name only
      assert.ok(md.includes(`## ${e.id}: `), `report.md names ${e.id}`)
      assert.ok(html.includes(`<h2>${e.id}: `), `report.html names ${e.id}`)
    }
    assert.ok(!/<script|<link|<img/i.test(html))
    assert.match(md, /SMOKE RUN/)
  })
})

'use strict'

const assert = require('node:assert/strict')
const path = require('node:path')
const { runNode } = require('../../support/run-node')

const SCRIPT = path.join(__dirname, '..', '..', '..', 'bin', 'h2bench-page-cost.js')

// The real benchmark, one pair of small batches on every lane: the page's batch and the bare fetch()es each got
// every byte asked (what the lanes send is what was asked: requests × size), both were metered, and the figures
// printed are the batches' own.
describe('npm run bench:page -- --smoke --json (the page against a bare fetch, its jQuery requests alone, XHR, DevTools and the page undrawn, every lane)', function () {
  this.timeout(180000)

  it('one batch of each side a lane, every response whole, each metered; the summary is the batches\' medians', async () => {
    const r = await runNode(SCRIPT, ['--smoke', '--json'])
    assert.equal(r.code, 0, r.stderr.slice(-2000))
    const record = JSON.parse(r.stdout)
    const { settings, batches, summary } = record
    assert.equal(record.environment.command, 'npm run bench:page -- --smoke --json')
    assert.deepEqual(settings.lanes, ['h1', 'h2', 'h2n', 'h3', 'h2e'])
    assert.deepEqual(settings.sides, ['page', 'bare', 'jquery', 'xhr', 'devtools', 'undrawn'])
    for (const lane of settings.lanes) {
      const mine = batches.filter(b => b.lane === lane)
      assert.deepEqual(mine.map(b => b.side).sort(), [...settings.sides].sort(), lane)
      for (const b of mine) {
        assert.equal(b.ok, settings.requests, `${lane} ${b.side}: ${b.ok} of ${settings.requests}`)
        assert.equal(b.bytes, settings.requests * settings.sizeBytes, `${lane} ${b.side}: ${b.bytes} bytes`)
        assert.ok(b.browserCpuMs >= 0 && b.serverCpuMs >= 0 && b.wallMs > 0, JSON.stringify(b))
      }
      // The page's sides were metered over their timed batch, within their whole run.
      for (const b of mine.filter(x => ['page', 'devtools', 'undrawn'].includes(x.side))) assert.ok(b.wallMs <= b.runWallMs, JSON.stringify(b))
      const s = summary.find(x => x.lane === lane)
      const at = side => mine.find(b => b.side === side)
      for (const side of settings.sides) assert.equal(s.sides[side].cpuMs, at(side).browserCpuMs, `${lane} ${side}`)
      if (at('bare').browserCpuMs > 0) assert.equal(s.ratios.page.median, at('page').browserCpuMs / at('bare').browserCpuMs)
      if (at('page').browserCpuMs > 0) assert.equal(s.ratios.devtools.median, at('devtools').browserCpuMs / at('page').browserCpuMs)
      if (at('page').browserCpuMs > 0) assert.equal(s.ratios.undrawn.median, at('undrawn').browserCpuMs / at('page').browserCpuMs)
    }
    // The browser did the work: over all batches its CPU is more than nothing.
    assert.ok(batches.reduce((a, b) => a + b.browserCpuMs, 0) > 0)
    assert.match(r.stderr, /h1 page 1 of 1: 20 of 20 ok in \d+ ms; browser CPU \d+ ms/)
  })

  it('refuses a bad argument in one line, exit 2, starting nothing', async () => {
    const r = await runNode(SCRIPT, ['--requests', '5000'])
    assert.equal(r.code, 2)
    assert.match(r.stderr, /--requests must be a whole number 1…1000; got "5000"/)
  })
})

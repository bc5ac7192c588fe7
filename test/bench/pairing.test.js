'use strict'

// What pairing the link's seeds saves (bench/report/pairing/pairing.js), on constructed rows whose truth is known.
const assert = require('node:assert/strict')
const { pairingOf, randomEffects } = require('../../bench/report/pairing/pairing')
const { pairingTable } = require('../../bench/report/runner/report-tables')

describe('pairing: the spread of the per-repeat ratio within a seed and across seeds', () => {
  // A seed's drops slow both lanes alike (×effect); each run adds a little noise of its own.
  const effects = [1.0, 1.8, 0.7, 2.5, 1.2, 0.9, 1.5, 2.1]
  const noise = [1.01, 0.99, 1.02, 0.98, 1.0, 1.01, 0.99, 1.0]
  const seeds = effects.map((_, i) => 100 + i)
  const h1 = { samples: effects.map((e, i) => 3000 * e * noise[i]), linkSeeds: seeds }
  const h3 = { samples: effects.map((e, i) => 1000 * e / noise[(i + 3) % 8]), linkSeeds: seeds }

  it('paired: the seed\'s effect cancels in the ratio; across seeds it stays: most of the spread removed', () => {
    const p = pairingOf(h1, h3)
    assert.equal(p.n, 8)
    assert.ok(Math.abs(p.median - 3) < 0.1, `${p.median}`)
    assert.ok(p.within < 0.03, `within ${p.within}`)
    assert.ok(p.across > 0.4, `across ${p.across}`)
    assert.ok(p.removed > 0.9, `${p.removed}`)
  })

  it('an unpaired run (a seed per lane and repeat): no ratio within a seed, only across', () => {
    const p = pairingOf(h1, { ...h3, linkSeeds: seeds.map(s => s + 1000) })
    assert.equal(p.n, 0)
    assert.equal(p.within, null)
    assert.ok(p.across > 0.4)
    assert.equal(p.removed, null)
  })

  it('no seeds recorded, or not one a sample: nothing to say', () => {
    assert.equal(pairingOf(h1, { samples: h3.samples }), null)
    assert.equal(pairingOf(h1, { ...h3, linkSeeds: seeds.slice(1) }), null)
  })

  it('a link that decides nothing at random has nothing to pair: no table row, whatever the seeds', () => {
    assert.deepEqual(randomEffects('rtt=50ms'), [])
    assert.deepEqual(randomEffects('down=10mbit,rtt=40ms,queue=25,aqm.down=codel'), [])
    assert.deepEqual(randomEffects('rtt=50ms,loss=2%,jitter.up=5ms'), ['jitter', 'loss'])
    assert.deepEqual(randomEffects('up=10mbit,aqm.up=pie,gemodel.down=1%/30%'), ["PIE's drops", 'bursty loss'])
    const experiment = { sweep: { label: 'link', param: 'link' } }
    const row = (lane, samples, linkSpec) => ({ cell: 'c', network: 'link', lane, linkSpec, params: { link: linkSpec }, samples, linkSeeds: seeds, ...(lane === 'h1' ? {} : { baseline: 'h1', comparison: {} }) })
    const rowsOn = spec => [row('h1', h1.samples, spec), row('h3', h3.samples, spec)]
    assert.equal(pairingTable(experiment, rowsOn('rtt=50ms')), null)
    assert.equal(pairingTable(experiment, rowsOn('rtt=50ms,loss=2%')).body.length, 1)
  })
})

'use strict'

const assert = require('node:assert/strict')
const { claimsOf } = require('../../bench/report/claims')
const { EXPERIMENTS, expand, select, experimentById, inAll } = require('../../bench/experiments')
const { presetByName } = require('../../link/devtools-presets')
const { parseSize } = require('../../server/payload')

const cellsOf = (id, opts) => expand([id], opts).map(e => e.cell)

describe('runner: experiments', () => {
  it('are the source\'s five (count twice), the current presets, push in the browser, at the protocol level and through the link', () => {
    assert.deepEqual(EXPERIMENTS.map(e => e.id),
      ['delay', 'count-10ms', 'count-30ms', 'size', 'network', 'network-current', 'push', 'push-protocol', 'push-link', 'h3-ttfb', 'h3-hol', 'h3-pages', 'h3-cc', 'ab-vs-nghttp', 'h2load-netem', 'rest', 'interop', 'site', 'replay', 'corpus'])
  })

  it('site: its cells are the command line\'s pages, one each; all leaves it out (it needs a URL of the user\'s)', () => {
    const site = { urls: ['https://a.example/', 'https://b.example/x'], protocols: ['h1', 'h3'], ca: null }
    const [e] = select(['site'], { site })
    assert.equal(e.kind, 'site-url')
    assert.deepEqual(e.cells.map(c => [c.url, c.preset, c.protocols]), [['https://a.example/', 'https://a.example/', ['h1', 'h3']], ['https://b.example/x', 'https://b.example/x', ['h1', 'h3']]])
    assert.deepEqual(select(['site']).map(x => x.cells), [[]])
    assert.ok(!select(['all']).some(x => x.id === 'site'))
  })

  it('rest: 25 and 500 items of 512 B on a 100 ms link, every lane, Chromium and Firefox; smoke 10 items at 20 ms', () => {
    const e = experimentById('rest')
    assert.equal(e.kind, 'rest')
    assert.deepEqual(e.networks, ['link'])
    assert.deepEqual(e.browsers, ['chromium', 'firefox'])
    assert.deepEqual(e.lanes, ['h1', 'h2', 'h2n', 'h2e', 'h3'])
    assert.deepEqual(cellsOf('rest').map(c => [c.requests, parseSize(c.size), c.link]), [[25, 512, 'rtt=100ms,down=20mbit,up=5mbit,queue=170'], [500, 512, 'rtt=100ms,down=20mbit,up=5mbit,queue=170']])
    assert.deepEqual(cellsOf('rest', { smoke: true }).map(c => [c.requests, c.link]), [[10, 'rtt=20ms']])
    assert.equal(e.source, null) // the seed's text has no 25-item times (they were in its charts): none is quoted as the source's
  })

  // The runner opens the link with the first cell's spec (bench/runner/run.js openNetwork), so that spec must be one.
  it('every cell that may run through the link names a link the link accepts (its own spec, else its preset)', () => {
    const { cellLinkSpec } = require('../../bench/cells/helpers')
    const { parseLinkSpec } = require('../../link/spec')
    for (const e of EXPERIMENTS.filter(x => !x.networks || x.networks.includes('link'))) {
      if (['load'].includes(e.kind)) continue // starts its own lanes and link (bench/cells/load.js)
      for (const smoke of [false, true]) {
        for (const cell of cellsOf(e.id, { smoke })) {
          assert.doesNotThrow(() => parseLinkSpec(cellLinkSpec(cell), { traces: false }), `${e.id} ${JSON.stringify(cell)}`)
        }
      }
    }
    assert.equal(cellLinkSpec({ preset: '25 items', link: 'rtt=100ms' }), 'rtt=100ms')
    assert.equal(cellLinkSpec({ preset: 'No throttling' }), 'none')
    assert.equal(cellLinkSpec({ preset: 'Regular 3G' }), 'Regular 3G')
  })

  it('push-link: the push table\'s presets, one 290 KB script, only through the link', () => {
    const e = EXPERIMENTS.find(x => x.id === 'push-link')
    assert.deepEqual(e.networks, ['link'])
    assert.deepEqual(cellsOf('push-link').map(c => c.preset), ['Regular 2G', 'Good 2G', 'Regular 3G', 'Good 3G', 'Regular 4G', 'WiFi', 'No throttling'])
    for (const c of cellsOf('push-link')) assert.deepEqual([c.assets, c.size, c.delay], [1, '290kb', 0])
  })

  it('delay: 0…40 ms, 100 × 0.1 MB, unthrottled', () => {
    assert.deepEqual(cellsOf('delay').map(c => c.delay), [0, 10, 20, 30, 40])
    for (const c of cellsOf('delay')) assert.deepEqual([c.requests, c.size, c.preset], [100, '0.1mb', 'No throttling'])
  })

  it('request count: 6…3750 at 10 and at 30 ms, 0.1 MB', () => {
    for (const [id, delay] of [['count-10ms', 10], ['count-30ms', 30]]) {
      assert.deepEqual(cellsOf(id).map(c => c.requests), [6, 30, 150, 750, 3750])
      for (const c of cellsOf(id)) assert.deepEqual([c.delay, c.size], [delay, '0.1mb'])
    }
  })

  it('size: 0.2…2.0 MB, 30 requests at 10 ms', () => {
    assert.deepEqual(cellsOf('size').map(c => parseSize(c.size)), [0.2, 0.4, 0.6, 0.8, 1, 1.2, 1.4, 1.6, 1.8, 2].map(mb => Math.round(mb * 1048576)))
    for (const c of cellsOf('size')) assert.deepEqual([c.requests, c.delay], [30, 10])
  })

  it('network: the six 2016 presets the source used, 30 × 0.1 MB at 10 ms', () => {
    assert.deepEqual(cellsOf('network').map(c => c.preset), ['Regular 2G', 'Good 2G', 'Regular 3G', 'Good 3G', 'Regular 4G', 'WiFi'])
    assert.deepEqual(cellsOf('network-current').map(c => c.preset), ['3G', 'Slow 4G', 'Fast 4G'])
  })

  it('push: one 290 KB script under the presets and unthrottled, on the h2 lanes, push against request', () => {
    const push = experimentById('push')
    assert.deepEqual(push.lanes, ['h2', 'h2n'])
    assert.deepEqual(push.modes, ['push', 'none'])
    assert.deepEqual(cellsOf('push').map(c => c.preset), ['Regular 2G', 'Good 2G', 'Regular 3G', 'Good 3G', 'Regular 4G', 'WiFi', 'No throttling'])
    for (const c of cellsOf('push')) assert.deepEqual([c.assets, parseSize(c.size)], [1, 290 * 1024])
  })

  it('push-protocol: page + scripts under 0, 10, 30, 100 ms server delay on h2 and h2n', () => {
    const e = experimentById('push-protocol')
    assert.equal(e.kind, 'push-protocol')
    assert.deepEqual(e.lanes, ['h2', 'h2n'])
    assert.deepEqual(cellsOf('push-protocol').map(c => c.delay), [0, 10, 30, 100])
  })

  it('every experiment is complete data: kind, sweep, valid presets and sizes, the source table matching its cells', () => {
    for (const e of EXPERIMENTS) {
      assert.ok(['page', 'push-page', 'push-protocol', 'ttfb', 'hol', 'site-page', 'load', 'rest', 'site-url', 'replay'].includes(e.kind), e.id)
      assert.ok(e.title && e.sweep.param && e.sweep.label, e.id)
      assert.ok(claimsOf(e.id).length >= 1, e.id)
      for (const c of [...e.cells, ...cellsOf(e.id, { smoke: true })]) {
        if (!c.link) presetByName(c.preset) // a cell with its own link spec names no DevTools preset
        if (c.size !== undefined) parseSize(c.size)
      }
      if (e.source) {
        const named = e.source.series || { h1: e.source.h1, h2: e.source.h2 }
        assert.equal(e.source.x.length, e.cells.length, e.id)
        for (const values of Object.values(named)) assert.equal(values.length, e.cells.length, e.id)
      }
    }
  })

  it('expands names into cells in report order, each experiment once; all is everything', () => {
    const entries = expand(['push-protocol', 'delay', 'delay'])
    assert.deepEqual(entries.map(e => `${e.experiment.id}#${e.index}`),
      ['delay#0', 'delay#1', 'delay#2', 'delay#3', 'delay#4', 'push-protocol#0', 'push-protocol#1', 'push-protocol#2', 'push-protocol#3'])
    assert.equal(expand(['all']).length, EXPERIMENTS.filter(inAll).reduce((n, e) => n + e.cells.length, 0))
    assert.ok(!select(['all']).some(x => x.id === 'corpus')) // run by name only (inAll false)
    assert.throws(() => expand(['nope']), /unknown experiment "nope"; experiments are delay, .*, or all/)
  })

  it('--smoke shrinks the workloads and drops presets slower than needed', () => {
    // Cells with a link spec of their own (h3-*) are not DevTools presets nor request batches.
    const full = expand(['all']).filter(e => !e.cell.link)
    const smoke = expand(['all'], { smoke: true }).filter(e => !e.cell.link)
    const bytes = list => list.reduce((n, { cell }) => n + (cell.requests || cell.assets) * parseSize(cell.size), 0)
    assert.ok(bytes(smoke) < bytes(full) / 1000)
    for (const { cell } of smoke) {
      assert.ok((cell.requests || cell.assets) <= 30)
      assert.ok(presetByName(cell.preset).latencyMs <= 300, cell.preset)
    }
    // The smoke cells are what the report shows for a smoke run.
    assert.deepEqual(select(['network-current'], { smoke: true })[0].cells.map(c => c.preset), ['Fast 4G'])
  })
})

'use strict'

const assert = require('node:assert/strict')
const { PRESETS, presetByName, toCdp, bytesPerSecond, describePreset, throttled } = require('../../link/devtools-presets')

// Bytes/s DevTools sends to CDP for each preset, read off its sources
// (../shared/FACTS.md): down, up, latency.
const DEVTOOLS = {
  GPRS: [6400, 2560, 500],
  'Regular 2G': [32000, 6400, 300],
  'Good 2G': [57600, 19200, 150],
  'Regular 3G': [96000, 32000, 100],
  'Good 3G': [196608, 96000, 40],
  'Regular 4G': [524288, 393216, 20],
  DSL: [262144, 131072, 5],
  WiFi: [3932160, 1966080, 2],
  '3G': [50000, 50000, 2000],
  'Slow 4G': [180000, 84375, 562.5],
  'Fast 4G': [1012500, 168750, 165]
}

describe('runner: network presets', () => {
  for (const [name, [down, up, latency]] of Object.entries(DEVTOOLS)) {
    it(`${name} converts to CDP's ${down} / ${up} bytes/s and ${latency} ms`, () => {
      assert.deepEqual(toCdp(presetByName(name)), { offline: false, latency, downloadThroughput: down, uploadThroughput: up })
    })
  }

  it('No throttling is -1 (no limit) and 0 ms', () => {
    assert.deepEqual(toCdp(presetByName('No throttling')), { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 })
    assert.equal(throttled(presetByName('No throttling')), false)
    assert.equal(describePreset(presetByName('No throttling')), 'no throttling')
  })

  it('has both sets: the 2016 one of the source and the current one', () => {
    assert.deepEqual(PRESETS.filter(p => p.set === 'current').map(p => p.name), ['3G', 'Slow 4G', 'Fast 4G'])
    assert.deepEqual(PRESETS.filter(p => p.set === '2016').map(p => p.name),
      ['GPRS', 'Regular 2G', 'Good 2G', 'Regular 3G', 'Good 3G', 'Regular 4G', 'DSL', 'WiFi'])
  })

  it('keeps units in the field names', () => {
    for (const p of PRESETS) assert.deepEqual(Object.keys(p).sort(), ['downloadKbps', 'latencyMs', 'name', 'set', 'uploadKbps'])
  })

  it('a kbit is 1024 bits in the 2016 set and 1000 in the current one', () => {
    assert.equal(bytesPerSecond(presetByName('Regular 3G'), 750), 96000)
    assert.equal(bytesPerSecond(presetByName('Fast 4G'), 8000), 1000000)
    assert.equal(bytesPerSecond(presetByName('Fast 4G'), null), null)
  })

  it('finds presets by name, any case, and names the known ones otherwise', () => {
    assert.equal(presetByName('regular 2g').name, 'Regular 2G')
    assert.throws(() => presetByName('5G'), /unknown network preset "5G"; presets are No throttling, GPRS, .*Fast 4G/)
  })

  it('describes a preset for the report', () => {
    assert.equal(describePreset(presetByName('Good 3G')), '1.5 Mbit/s down, 750 kbit/s up, 40 ms per request')
    assert.equal(describePreset(presetByName('Slow 4G')), '1.44 Mbit/s down, 675 kbit/s up, 562.5 ms per request')
  })
})

'use strict'

// npm run bench:link -- --effects: its list of effects and its choice of them.
const assert = require('node:assert/strict')
const { EFFECTS, effectsPlan, pickEffects } = require('../../bench/link-bench/effects')
const { parseLinkSpec } = require('../../link/spec')
const { KNOWN_KEYS } = require('../../link/spec')

describe('bench:link --effects', () => {
  it('every effect is a valid link spec on top of a delay, and acts on the up direction only', () => {
    for (const e of EFFECTS) {
      const link = parseLinkSpec(['delay=10ms', e.spec].filter(Boolean).join(','))
      assert.deepEqual(link.down, parseLinkSpec('delay=10ms').down, `${e.id} changes the down direction`)
    }
  })

  it('covers every key that changes what the forwarder does to a packet (not rates or delays alone, traces or cross traffic)', () => {
    const keys = new Set(EFFECTS.flatMap(e => e.spec.split(',').filter(Boolean).map(item => item.split('=')[0].replace(/\.(up|down)$/, ''))))
    const expected = new Set(KNOWN_KEYS.filter(k => !k.includes('.')).filter(k => !['rtt', 'delay', 'down', 'queue', 'trace', 'cross', 'ecn'].includes(k)))
    assert.deepEqual([...expected].filter(k => !keys.has(k)), [])
  })

  it('two loads per effect; a list picks effects, an unknown one is refused with the known ones named', () => {
    assert.equal(effectsPlan().length, 2 * EFFECTS.length)
    assert.deepEqual(pickEffects('codel, none').map(e => e.id), ['none', 'codel'])
    assert.equal(pickEffects('all'), EFFECTS)
    assert.match(pickEffects('codel,red').error, /unknown effect "red"; effects are none, jitter, loss/)
  })
})

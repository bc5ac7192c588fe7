'use strict'

const assert = require('node:assert/strict')
const { validate, checkSize, DEFAULTS, BROWSER, bytesText } = require('../../shared/options')
const { parseSize, LIMITS, MIB } = require('../../server/payload')

const context = { lanes: [{ name: 'h1' }, { name: 'h2' }, { name: 'h2n' }], limits: LIMITS }

describe('page options (shared/options.js)', () => {
  it('fills in the documented defaults', () => {
    const r = validate(undefined, context)
    assert.equal(r.ok, true)
    assert.deepEqual(r.options, { requests: 100, size: 102400, delay: 10, repeats: 5, lanes: ['h1', 'h2', 'h2n'], cold: false, transport: 'fetch' })
    assert.equal(DEFAULTS.size, 100 * 1024)
  })

  it('accepts numbers and the form\'s digit strings', () => {
    const r = validate({ requests: '30', size: '0.1mb', delay: 0, repeats: '2', lanes: ['h2', 'h1'], cold: true, transport: 'xhr' }, context)
    assert.deepEqual(r.options, { requests: 30, size: 104858, delay: 0, repeats: 2, lanes: ['h2', 'h1'], cold: true, transport: 'xhr' })
  })

  it('parses sizes exactly as the server does', () => {
    for (const raw of ['0', '1', '102400', '100b', '100kb', '100KB', '0.1mb', '1mb', '64mb', ' 5 ', String(64 * MIB)]) {
      assert.equal(checkSize(raw, LIMITS.maxSize).value, parseSize(raw), raw)
    }
    for (const raw of ['-1', 'abc', '1e12', '', '1.5', '0x10', '100 kb', 'Infinity', '65mb', String(64 * MIB + 1), '1gb']) {
      assert.throws(() => parseSize(raw), undefined, raw)
      assert.ok(checkSize(raw, LIMITS.maxSize).error, raw)
    }
  })

  for (const [options, field, pattern] of [
    [{ requests: 0 }, 'requests', /requests must be an integer 1…10000; got 0/],
    [{ requests: '-5' }, 'requests', /got "-5"/],
    [{ requests: 10001 }, 'requests', /1…10000/],
    [{ requests: 2.5 }, 'requests', /integer/],
    [{ size: -1 }, 'size', /size must be 0…67108864 bytes/],
    [{ size: '65mb' }, 'size', /0…67108864/],
    [{ delay: 60001 }, 'delay', /delay must be an integer 0…60000 ms/],
    [{ delay: 'soon' }, 'delay', /got "soon"/],
    [{ repeats: 101 }, 'repeats', /repeats must be an integer 1…100/],
    [{ lanes: [] }, 'lanes', /choose at least one lane; lanes are h1, h2, h2n/],
    [{ lanes: ['h3'] }, 'lanes', /unknown lane "h3"/],
    [{ lanes: ['h1', 'h1'] }, 'lanes', /given twice/],
    [{ lanes: 'h1' }, 'lanes', /array/],
    [{ cold: 'yes' }, 'cold', /true or false/],
    [{ transport: 'beacon' }, 'transport', /transport must be "fetch" or "xhr"; got "beacon"/],
    [{ onProgress: 1 }, 'onProgress', /function/]
  ]) {
    it(`rejects ${JSON.stringify(options)}, naming ${field}`, () => {
      const r = validate(options, context)
      assert.equal(r.ok, false)
      assert.deepEqual(Object.keys(r.errors), [field])
      assert.match(r.errors[field], pattern)
    })
  }

  it('reports every bad field at once, and lists unknown keys without failing on them', () => {
    assert.deepEqual(Object.keys(validate({ requests: -1, delay: -1 }, context).errors), ['requests', 'delay'])
    const r = validate({ requests: 5, label: 'x' }, context)
    assert.equal(r.ok, true)
    assert.deepEqual(r.unknown, ['label'])
  })

  describe('bytes in flight per batch (what the browser must hold)', () => {
    it('accepts every workload up to 8 GiB in flight, counting at most 256 responses at once', () => {
      assert.equal(BROWSER.maxInFlightBytes, 8 * 1024 * MIB)
      for (const [requests, size] of [[128, '64mb'], [10000, '32mb'], [256, '32mb'], [10000, '1mb'], [1, '64mb'], [512, '16mb']]) {
        assert.equal(validate({ requests, size }, context).ok, true, `${requests} × ${size}`)
      }
    })

    it('refuses more, naming requests × size, what would be held, the limit and why', () => {
      for (const [requests, size, held] of [[129, '64mb', '8.1 GiB'], [10000, '64mb', '16 GiB'], [257, '33mb', '8.3 GiB']]) {
        const r = validate({ requests, size }, context)
        assert.equal(r.ok, false, `${requests} × ${size}`)
        assert.match(r.errors.size, new RegExp(`^requests × size is too large for one batch: ${requests} × \\d+ MiB would keep .* = ${held.replace('.', '\\.')} in the browser at once .*256 HTTP/2 responses.*the limit is 8 GiB in flight: lower the requests or the size$`))
        assert.deepEqual(Object.keys(r.errors), ['size'])
      }
    })

    it('leaves the message to the field when requests or size is itself invalid', () => {
      const r = validate({ requests: 20000, size: '64mb' }, context)
      assert.deepEqual(Object.keys(r.errors), ['requests'])
    })

    it('writes byte counts in binary units', () => {
      assert.deepEqual([0, 1536, 64 * MIB, 16 * 1024 * MIB].map(bytesText), ['0 B', '1.5 KiB', '64 MiB', '16 GiB'])
    })
  })
})

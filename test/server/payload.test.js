'use strict'

const assert = require('node:assert/strict')
const zlib = require('node:zlib')
const { parseSize, parseDelay, parseOptionQuery, payload, payloadBlock, LIMITS, MIB } = require('../../server/payload')
const { InputError } = require('../../common/errors')

function rejects (fn, param, pattern) {
  assert.throws(fn, err => {
    assert.ok(err instanceof InputError, `expected InputError, got ${err}`)
    assert.equal(err.param, param)
    assert.equal(err.status, 400)
    if (pattern) assert.match(err.message, pattern)
    return true
  })
}

describe('payload: size parsing', () => {
  const cases = [
    ['0', 0], ['1', 1], ['102400', 102400], ['100b', 100], ['100kb', 102400], ['100KB', 102400],
    ['0.1mb', 104858], ['1mb', MIB], ['64mb', 64 * MIB], [String(64 * MIB), 64 * MIB], [' 5 ', 5]
  ]
  for (const [raw, bytes] of cases) {
    it(`"${raw}" is ${bytes} bytes`, () => assert.equal(parseSize(raw), bytes))
  }
  for (const raw of ['-1', 'abc', '1e12', '', '1.5', '0x10', '100 kb', 'Infinity', 'NaN']) {
    it(`rejects "${raw}" naming the range`, () => rejects(() => parseSize(raw), 'size', /0…67108864 bytes/))
  }
  it('rejects a size over 64 MiB', () => rejects(() => parseSize(String(64 * MIB + 1)), 'size', /0…67108864/))
  it('rejects 65mb', () => rejects(() => parseSize('65mb'), 'size'))
  it('rejects an unknown unit and names it', () => rejects(() => parseSize('10gb'), 'size', /unknown unit "gb"/))
})

describe('payload: delay parsing', () => {
  it('accepts 0 and 60000', () => {
    assert.equal(parseDelay('0'), 0)
    assert.equal(parseDelay('60000'), 60000)
  })
  for (const raw of ['-5', '99999999', '60001', '1.5', 'ten', '1e3', '']) {
    it(`rejects "${raw}"`, () => rejects(() => parseDelay(raw), 'delay', /integer 0…60000 ms/))
  }
})

describe('payload: query', () => {
  it('defaults to 0 bytes after 0 ms', () => assert.deepEqual(parseOptionQuery({}), { size: 0, delay: 0 }))
  it('rejects a repeated parameter, saying what one is allowed', () => rejects(() => parseOptionQuery({ size: ['1', '2'] }), 'size', /more than once; give it once: an integer 0…67108864 bytes/))
  it('rejects a nested parameter', () => rejects(() => parseOptionQuery({ delay: { a: '1' } }), 'delay'))
})

describe('payload: bytes', () => {
  it('is exactly the asked size, from one shared block (no copy)', () => {
    const a = payload(1000)
    const b = payload(5 * MIB)
    assert.equal(a.length, 1000)
    assert.equal(b.length, 5 * MIB)
    assert.equal(a.buffer, payloadBlock().buffer)
    assert.equal(b.buffer, payloadBlock().buffer)
    assert.equal(payload(LIMITS.maxSize).length, LIMITS.maxSize)
  })
  it('is printable ASCII', () => {
    const bytes = payload(1 << 20)
    for (const c of bytes) assert.ok(c >= 0x21 && c <= 0x7e, `byte ${c} is not printable ASCII`)
  })
  it('does not gzip below 70 % of its size', () => {
    const body = payload(1 << 20)
    const gz = zlib.gzipSync(body, { level: 9 })
    assert.ok(gz.length > 0.7 * body.length, `gzip shrank 1 MiB to ${gz.length}`)
    const br = zlib.brotliCompressSync(body)
    assert.ok(br.length > 0.7 * body.length, `brotli shrank 1 MiB to ${br.length}`)
  })
})

'use strict'

const assert = require('node:assert/strict')
const zlib = require('node:zlib')
const { sizedPng, PNG_MIN, PNG_PADDING_AT } = require('../../common/sized-png')

// The one sized PNG (the site route's images, the corpus's): exact sizes, valid chunks, the padding where it says.
describe('common/sized-png.js: a valid PNG of an exact size', () => {
  const fill = n => Buffer.alloc(n, 0x61)

  function chunksOf (buf) {
    assert.deepEqual([...buf.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])
    const chunks = []
    for (let at = 8; at < buf.length;) {
      const length = buf.readUInt32BE(at)
      const type = buf.toString('latin1', at + 4, at + 8)
      const data = buf.subarray(at + 8, at + 8 + length)
      assert.equal(buf.readUInt32BE(at + 8 + length), zlib.crc32(data, zlib.crc32(buf.subarray(at + 4, at + 8))), `${type}'s CRC`)
      chunks.push({ type, data, at })
      at += 12 + length
    }
    return chunks
  }

  it('is exactly the size asked, from its framing up, each chunk valid, one grey pixel', () => {
    for (const size of [PNG_MIN, PNG_MIN + 1, 100, 1500, 65536, 1024 * 1024]) {
      const png = sizedPng(size, fill)
      assert.equal(png.length, size)
      const chunks = chunksOf(png)
      assert.deepEqual(chunks.map(c => c.type), ['IHDR', 'paDd', 'IDAT', 'IEND'])
      assert.equal(chunks[1].data.length, size - PNG_MIN)
      assert.equal(chunks[1].at + 8, PNG_PADDING_AT)
      assert.ok(png.subarray(PNG_PADDING_AT, PNG_PADDING_AT + size - PNG_MIN).equals(fill(size - PNG_MIN)))
      assert.deepEqual([...zlib.inflateSync(chunks[2].data)], [0, 0x80])
    }
  })

  it('refuses a size below its framing, naming the least', () => {
    assert.throws(() => sizedPng(PNG_MIN - 1, fill), { name: 'RangeError', message: `a PNG of ${PNG_MIN - 1} bytes: at least ${PNG_MIN}` })
    assert.throws(() => sizedPng(1.5 * PNG_MIN, fill), RangeError)
  })
})

'use strict'

// A valid PNG of an exact size: one grey pixel (1 × 1, 8-bit greyscale) whose
// other bytes are an ancillary private chunk `paDd`, which decoders skip. The
// site route's images (server/routes/site.js) and the corpus's pages
// (bench/corpus/images.js) are made by it. Layout: signature (8), IHDR (25),
// paDd (12 + the padding), IDAT, IEND (12): the padding starts at byte 41.
const zlib = require('node:zlib')

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])
const IHDR = Buffer.from([0, 0, 0, 1, 0, 0, 0, 1, 8, 0, 0, 0, 0]) // 1 × 1, 8-bit greyscale
const IDAT = zlib.deflateSync(Buffer.from([0, 0x80])) // filter 0, one grey pixel

// One PNG chunk: length, type, data, CRC-32 of type and data.
function pngChunk (type, data) {
  const head = Buffer.alloc(8)
  head.writeUInt32BE(data.length, 0)
  head.write(type, 4, 'latin1')
  const crc = Buffer.alloc(4)
  crc.writeUInt32BE(zlib.crc32(data, zlib.crc32(head.subarray(4))), 0)
  return Buffer.concat([head, data, crc])
}

const PARTS = [pngChunk('IHDR', IHDR), pngChunk('IDAT', IDAT), pngChunk('IEND', Buffer.alloc(0))]
// The least a sized PNG can be: its framing with no padding byte.
const PNG_MIN = PNG_SIGNATURE.length + PARTS.reduce((n, c) => n + c.length, 0) + 12
// Where the padding starts.
const PNG_PADDING_AT = PNG_SIGNATURE.length + PARTS[0].length + 8

// A PNG of exactly `size` bytes (at least PNG_MIN); its padding is fill(size - PNG_MIN) (n → Buffer of n bytes).
function sizedPng (size, fill) {
  if (!Number.isInteger(size) || size < PNG_MIN) throw new RangeError(`a PNG of ${size} bytes: at least ${PNG_MIN}`)
  return Buffer.concat([PNG_SIGNATURE, PARTS[0], pngChunk('paDd', fill(size - PNG_MIN)), PARTS[1], PARTS[2]])
}

module.exports = { sizedPng, pngChunk, PNG_MIN, PNG_PADDING_AT }

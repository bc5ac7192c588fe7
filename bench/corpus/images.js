'use strict'

// Image bodies of an exact size for the corpus's pages (bench/corpus/): a valid 1 × 1 PNG whose other bytes are
// an ancillary private chunk (`paDd`: decoders skip it), and a valid 1 × 1 baseline JPEG (grey, one 8 × 8 block:
// DC difference 0, end of block) whose other bytes are comment segments (COM, skipped by decoders). Each at
// least its framing (pngMin, jpegMin + 4); the padding bytes come from `fill` (n → Buffer).
const { sizedPng, pngChunk, PNG_MIN } = require('../../common/sized-png')

const pngMin = PNG_MIN
// A PNG of exactly `size` bytes (at least pngMin): common/sized-png.js.
const png = sizedPng

const segment = (marker, body) => {
  const head = Buffer.from([0xff, marker, 0, 0])
  head.writeUInt16BE(body.length + 2, 2)
  return Buffer.concat([head, body])
}
const JPEG_BODY = Buffer.concat([
  segment(0xdb, Buffer.concat([Buffer.from([0x00]), Buffer.alloc(64, 1)])), // DQT: table 0, all ones
  segment(0xc0, Buffer.from([8, 0, 1, 0, 1, 1, 1, 0x11, 0])), // SOF0: 8-bit, 1 × 1, one component, table 0
  segment(0xc4, Buffer.concat([Buffer.from([0x00, 1]), Buffer.alloc(15), Buffer.from([0x00])])), // DHT DC 0: one code of 1 bit → category 0
  segment(0xc4, Buffer.concat([Buffer.from([0x10, 1]), Buffer.alloc(15), Buffer.from([0x00])])), // DHT AC 0: one code of 1 bit → EOB
  segment(0xda, Buffer.from([1, 1, 0x00, 0, 63, 0])), // SOS
  Buffer.from([0x3f]), // DC 0 (bit 0), EOB (bit 0), padded with ones
  Buffer.from([0xff, 0xd9]) // EOI
])
const SOI = Buffer.from([0xff, 0xd8])
const MAX_COM = 65533 // a segment's body: its length field counts itself
const jpegMin = SOI.length + JPEG_BODY.length

// A JPEG of exactly `size` bytes: jpegMin, or at least jpegMin + 4 (a comment segment is 4 bytes and more).
function jpeg (size, fill) {
  if (size !== jpegMin && size < jpegMin + 4) throw new RangeError(`a JPEG of ${size} bytes: jpegMin (${jpegMin}) or at least ${jpegMin + 4}`)
  let left = size - jpegMin
  const comments = []
  while (left > 0) {
    let total = Math.min(left, MAX_COM + 4)
    if (left - total > 0 && left - total < 4) total -= 4 // never leave 1…3 bytes, which no segment can hold
    comments.push(segment(0xfe, fill(total - 4)))
    left -= total
  }
  return Buffer.concat([SOI, ...comments, JPEG_BODY])
}

module.exports = { png, jpeg, pngMin, jpegMin, chunk: pngChunk }

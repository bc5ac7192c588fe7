'use strict'

// HPACK (RFC 7541), synchronous. h2bench: this replaces hpack.js, whose
// compressor and decompressor are readable-stream Duplexes that spdy-transport
// drove through a LockStream, with a nextTick per header block, a WriteBuffer
// (wbuf, `new Buffer()` per block) and an encoder that wrote one bit at a
// time. Here a header block is one function call each way, into and out of a
// plain Buffer. It also does what hpack.js did not:
//  - a smaller SETTINGS_HEADER_TABLE_SIZE from the peer is signalled with a
//    dynamic table size update at the start of the next block (RFC 7541 4.2:
//    hpack.js only shrank its own table, so the peer's table and ours
//    diverged);
//  - a size update after the first header field of a block, or larger than
//    the size we allow, is a decoding error (RFC 7541 4.2, 6.3; h2spec
//    hpack 4.2/6.3);
//  - Huffman padding longer than 7 bits, or not a prefix of EOS, and an EOS
//    symbol inside a string are decoding errors (RFC 7541 5.2).
// Strings are latin1, as hpack.js had them (one byte per character).
// Tests: test/vendor/spdy-transport/hpack.test.js (the RFC 7541 appendix C
// examples, both ways, and each error above).

const STATIC_TABLE = [
  [':authority', ''],
  [':method', 'GET'],
  [':method', 'POST'],
  [':path', '/'],
  [':path', '/index.html'],
  [':scheme', 'http'],
  [':scheme', 'https'],
  [':status', '200'],
  [':status', '204'],
  [':status', '206'],
  [':status', '304'],
  [':status', '400'],
  [':status', '404'],
  [':status', '500'],
  ['accept-charset', ''],
  ['accept-encoding', 'gzip, deflate'],
  ['accept-language', ''],
  ['accept-ranges', ''],
  ['accept', ''],
  ['access-control-allow-origin', ''],
  ['age', ''],
  ['allow', ''],
  ['authorization', ''],
  ['cache-control', ''],
  ['content-disposition', ''],
  ['content-encoding', ''],
  ['content-language', ''],
  ['content-length', ''],
  ['content-location', ''],
  ['content-range', ''],
  ['content-type', ''],
  ['cookie', ''],
  ['date', ''],
  ['etag', ''],
  ['expect', ''],
  ['expires', ''],
  ['from', ''],
  ['host', ''],
  ['if-match', ''],
  ['if-modified-since', ''],
  ['if-none-match', ''],
  ['if-range', ''],
  ['if-unmodified-since', ''],
  ['last-modified', ''],
  ['link', ''],
  ['location', ''],
  ['max-forwards', ''],
  ['proxy-authenticate', ''],
  ['proxy-authorization', ''],
  ['range', ''],
  ['referer', ''],
  ['refresh', ''],
  ['retry-after', ''],
  ['server', ''],
  ['set-cookie', ''],
  ['strict-transport-security', ''],
  ['transfer-encoding', ''],
  ['user-agent', ''],
  ['vary', ''],
  ['via', ''],
  ['www-authenticate', '']
]

const HUFFMAN_CODES = [
  0x1ff8, 0x7fffd8, 0xfffffe2, 0xfffffe3, 0xfffffe4, 0xfffffe5, 0xfffffe6, 0xfffffe7, 0xfffffe8, 0xffffea,
  0x3ffffffc, 0xfffffe9, 0xfffffea, 0x3ffffffd, 0xfffffeb, 0xfffffec, 0xfffffed, 0xfffffee, 0xfffffef, 0xffffff0,
  0xffffff1, 0xffffff2, 0x3ffffffe, 0xffffff3, 0xffffff4, 0xffffff5, 0xffffff6, 0xffffff7, 0xffffff8, 0xffffff9,
  0xffffffa, 0xffffffb, 0x14, 0x3f8, 0x3f9, 0xffa, 0x1ff9, 0x15, 0xf8, 0x7fa,
  0x3fa, 0x3fb, 0xf9, 0x7fb, 0xfa, 0x16, 0x17, 0x18, 0x0, 0x1,
  0x2, 0x19, 0x1a, 0x1b, 0x1c, 0x1d, 0x1e, 0x1f, 0x5c, 0xfb,
  0x7ffc, 0x20, 0xffb, 0x3fc, 0x1ffa, 0x21, 0x5d, 0x5e, 0x5f, 0x60,
  0x61, 0x62, 0x63, 0x64, 0x65, 0x66, 0x67, 0x68, 0x69, 0x6a,
  0x6b, 0x6c, 0x6d, 0x6e, 0x6f, 0x70, 0x71, 0x72, 0xfc, 0x73,
  0xfd, 0x1ffb, 0x7fff0, 0x1ffc, 0x3ffc, 0x22, 0x7ffd, 0x3, 0x23, 0x4,
  0x24, 0x5, 0x25, 0x26, 0x27, 0x6, 0x74, 0x75, 0x28, 0x29,
  0x2a, 0x7, 0x2b, 0x76, 0x2c, 0x8, 0x9, 0x2d, 0x77, 0x78,
  0x79, 0x7a, 0x7b, 0x7ffe, 0x7fc, 0x3ffd, 0x1ffd, 0xffffffc, 0xfffe6, 0x3fffd2,
  0xfffe7, 0xfffe8, 0x3fffd3, 0x3fffd4, 0x3fffd5, 0x7fffd9, 0x3fffd6, 0x7fffda, 0x7fffdb, 0x7fffdc,
  0x7fffdd, 0x7fffde, 0xffffeb, 0x7fffdf, 0xffffec, 0xffffed, 0x3fffd7, 0x7fffe0, 0xffffee, 0x7fffe1,
  0x7fffe2, 0x7fffe3, 0x7fffe4, 0x1fffdc, 0x3fffd8, 0x7fffe5, 0x3fffd9, 0x7fffe6, 0x7fffe7, 0xffffef,
  0x3fffda, 0x1fffdd, 0xfffe9, 0x3fffdb, 0x3fffdc, 0x7fffe8, 0x7fffe9, 0x1fffde, 0x7fffea, 0x3fffdd,
  0x3fffde, 0xfffff0, 0x1fffdf, 0x3fffdf, 0x7fffeb, 0x7fffec, 0x1fffe0, 0x1fffe1, 0x3fffe0, 0x1fffe2,
  0x7fffed, 0x3fffe1, 0x7fffee, 0x7fffef, 0xfffea, 0x3fffe2, 0x3fffe3, 0x3fffe4, 0x7ffff0, 0x3fffe5,
  0x3fffe6, 0x7ffff1, 0x3ffffe0, 0x3ffffe1, 0xfffeb, 0x7fff1, 0x3fffe7, 0x7ffff2, 0x3fffe8, 0x1ffffec,
  0x3ffffe2, 0x3ffffe3, 0x3ffffe4, 0x7ffffde, 0x7ffffdf, 0x3ffffe5, 0xfffff1, 0x1ffffed, 0x7fff2, 0x1fffe3,
  0x3ffffe6, 0x7ffffe0, 0x7ffffe1, 0x3ffffe7, 0x7ffffe2, 0xfffff2, 0x1fffe4, 0x1fffe5, 0x3ffffe8, 0x3ffffe9,
  0xffffffd, 0x7ffffe3, 0x7ffffe4, 0x7ffffe5, 0xfffec, 0xfffff3, 0xfffed, 0x1fffe6, 0x3fffe9, 0x1fffe7,
  0x1fffe8, 0x7ffff3, 0x3fffea, 0x3fffeb, 0x1ffffee, 0x1ffffef, 0xfffff4, 0xfffff5, 0x3ffffea, 0x7ffff4,
  0x3ffffeb, 0x7ffffe6, 0x3ffffec, 0x3ffffed, 0x7ffffe7, 0x7ffffe8, 0x7ffffe9, 0x7ffffea, 0x7ffffeb, 0xffffffe,
  0x7ffffec, 0x7ffffed, 0x7ffffee, 0x7ffffef, 0x7fffff0, 0x3ffffee, 0x3fffffff
]

const HUFFMAN_LENGTHS = [
  13, 23, 28, 28, 28, 28, 28, 28, 28, 24, 30, 28, 28, 30, 28, 28, 28, 28, 28, 28, 28, 28, 30, 28, 28, 28, 28, 28, 28, 28, 28, 28,
  6, 10, 10, 12, 13, 6, 8, 11, 10, 10, 8, 11, 8, 6, 6, 6, 5, 5, 5, 6, 6, 6, 6, 6, 6, 6, 7, 8, 15, 6, 12, 10,
  13, 6, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 8, 7, 8, 13, 19, 13, 14, 6,
  15, 5, 6, 5, 6, 5, 6, 6, 6, 5, 7, 7, 6, 6, 6, 5, 6, 7, 6, 5, 5, 6, 7, 7, 7, 7, 7, 15, 11, 14, 13, 28,
  20, 22, 20, 20, 22, 22, 22, 23, 22, 23, 23, 23, 23, 23, 24, 23, 24, 24, 22, 23, 24, 23, 23, 23, 23, 21, 22, 23, 22, 23, 23, 24,
  22, 21, 20, 22, 22, 23, 23, 21, 23, 22, 22, 24, 21, 22, 23, 23, 21, 21, 22, 21, 23, 22, 23, 23, 20, 22, 22, 22, 23, 22, 22, 23,
  26, 26, 20, 19, 22, 23, 22, 25, 26, 26, 26, 27, 27, 26, 24, 25, 19, 21, 26, 27, 27, 26, 27, 24, 21, 21, 26, 26, 28, 27, 27, 27,
  20, 24, 20, 21, 22, 21, 21, 23, 22, 22, 25, 25, 24, 24, 26, 23, 26, 27, 26, 26, 27, 27, 27, 27, 27, 28, 27, 27, 27, 27, 27, 26,
  30
]

// Every entry costs its name and value plus 32 bytes (RFC 7541 4.1).
const ENTRY_OVERHEAD = 32
const STATIC_LENGTH = STATIC_TABLE.length

class HpackError extends Error {}

// name → { index: the lowest index with that name, values: Map(value → index) }
const STATIC_LOOKUP = new Map()
for (let i = 0; i < STATIC_LENGTH; i++) {
  const [name, value] = STATIC_TABLE[i]
  let entry = STATIC_LOOKUP.get(name)
  if (!entry) STATIC_LOOKUP.set(name, (entry = { index: i + 1, values: new Map() }))
  if (!entry.values.has(value)) entry.values.set(value, i + 1)
}

// The Huffman decoder: a 4-bit state machine over the code's tree, built
// once. A state is an inner node of the tree (256 of them, the root is 0);
// each of its 16 nibbles leads to the next state, emitting at most one
// symbol (no code is shorter than 5 bits) or failing on EOS.
const FSM_EMIT = 1 << 16
const FSM_FAIL = 1 << 17
const HUFFMAN_FSM = new Int32Array(256 * 16)
// A state where a string may end: the bits since the last symbol are all
// ones and fewer than 8 (RFC 7541 5.2).
const HUFFMAN_ACCEPT = new Uint8Array(256)
;(function buildHuffmanDecoder () {
  // Inner nodes as [zero, one] children: a child is an inner node's number,
  // or ~symbol for a leaf.
  const nodes = [[0, 0]]
  const depth = [0]
  const ones = [true]
  for (let sym = 0; sym < HUFFMAN_CODES.length; sym++) {
    const code = HUFFMAN_CODES[sym]
    const len = HUFFMAN_LENGTHS[sym]
    let node = 0
    for (let bit = len - 1; bit >= 0; bit--) {
      const b = (code >>> bit) & 1
      if (bit === 0) {
        nodes[node][b] = ~sym
      } else {
        if (nodes[node][b] === 0) {
          nodes.push([0, 0])
          depth.push(depth[node] + 1)
          ones.push(ones[node] && b === 1)
          nodes[node][b] = nodes.length - 1
        }
        node = nodes[node][b]
      }
    }
  }
  for (let state = 0; state < nodes.length; state++) {
    HUFFMAN_ACCEPT[state] = state === 0 || (ones[state] && depth[state] <= 7) ? 1 : 0
    for (let nibble = 0; nibble < 16; nibble++) {
      let node = state
      let out = 0
      for (let bit = 3; bit >= 0; bit--) {
        const child = nodes[node][(nibble >>> bit) & 1]
        if (child < 0) {
          const sym = ~child
          if (sym === 256) {
            out = FSM_FAIL
            break
          }
          out = FSM_EMIT | (sym << 8)
          node = 0
        } else {
          node = child
        }
      }
      HUFFMAN_FSM[state * 16 + nibble] = out & FSM_FAIL ? FSM_FAIL : out | node
    }
  }
})()

// Bytes of `str` (latin1) Huffman-encoded.
function huffmanLength (str) {
  let bits = 0
  for (let i = 0; i < str.length; i++) bits += HUFFMAN_LENGTHS[str.charCodeAt(i) & 0xff]
  return (bits + 7) >>> 3
}

// The dynamic table: entries newest last; `inserted` counts every entry ever
// added, so an entry's index is STATIC_LENGTH + inserted - entry.seq.
class DynamicTable {
  constructor (maxSize) {
    this.entries = []
    this.size = 0
    this.maxSize = maxSize
    this.inserted = 0
  }

  get (index) {
    // index: 1 = newest
    return this.entries[this.entries.length - index]
  }

  add (name, value) {
    const size = name.length + value.length + ENTRY_OVERHEAD
    const entry = { name, value, size, seq: this.inserted++ }
    this.entries.push(entry)
    this.size += size
    this.evict()
    return entry
  }

  setMaxSize (size) {
    this.maxSize = size
    this.evict()
  }

  evict () {
    while (this.size > this.maxSize && this.entries.length > 0) {
      const entry = this.entries.shift()
      this.size -= entry.size
      this.onEvict(entry)
    }
  }

  onEvict (entry) {}
}

// The encoder's table also finds entries by name and value.
class EncoderTable extends DynamicTable {
  constructor (maxSize) {
    super(maxSize)
    this.byName = new Map() // name → { seq: newest, values: Map(value → seq) }
  }

  add (name, value) {
    let named = this.byName.get(name)
    if (!named) this.byName.set(name, (named = { seq: 0, values: new Map() }))
    const entry = super.add(name, value)
    // add() may have evicted it at once (larger than the table).
    if (this.entries.length !== 0 && this.entries[this.entries.length - 1] === entry) {
      named.seq = entry.seq
      named.values.set(value, entry.seq)
    } else if (named.values.size === 0) {
      this.byName.delete(name)
    }
    return entry
  }

  onEvict (entry) {
    const named = this.byName.get(entry.name)
    if (!named) return
    if (named.values.get(entry.value) === entry.seq) named.values.delete(entry.value)
    // Entries leave oldest first: when the newest with this name goes, all have.
    if (named.seq === entry.seq) this.byName.delete(entry.name)
  }

  indexOf (seq) {
    return STATIC_LENGTH + this.inserted - seq
  }
}

// Where encoders build a block before it is copied into its frame.
let scratch = Buffer.allocUnsafe(16 * 1024)

class Encoder {
  // maxSize: the table size the peer allows us (SETTINGS_HEADER_TABLE_SIZE,
  // 4,096 until it says otherwise), capped at `limit`.
  // huffman: false writes every string as it is (RFC 7541's examples C.3, C.5).
  constructor ({ maxSize = 4096, limit = 4096, huffman = true } = {}) {
    this.limit = limit
    this.huffman = huffman
    this.table = new EncoderTable(Math.min(maxSize, limit))
    // Size updates to signal at the start of the next block: the smallest
    // size since the last block, then the current one (RFC 7541 4.2).
    this.pendingMin = -1
  }

  // The peer's SETTINGS_HEADER_TABLE_SIZE. The size we use is signalled even
  // when it did not change (as nghttp2 does): the peer may have assumed the
  // size it allowed.
  setMaxSize (size) {
    const next = Math.min(size, this.limit)
    this.pendingMin = this.pendingMin === -1 ? next : Math.min(this.pendingMin, next)
    this.table.setMaxSize(next)
  }

  // headers: [name, value, sensitive] triples (names lower-case). → a Buffer
  // (a view of a shared scratch buffer: copy it before the next encode).
  encode (headers) {
    let out = scratch
    let pos = 0
    const ensure = extra => {
      if (pos + extra <= out.length) return
      const bigger = Buffer.allocUnsafe(Math.max(out.length * 2, pos + extra))
      out.copy(bigger, 0, 0, pos)
      scratch = out = bigger
    }
    const writeInt = (first, prefixBits, value) => {
      const max = (1 << prefixBits) - 1
      if (value < max) {
        out[pos++] = first | value
        return
      }
      out[pos++] = first | max
      value -= max
      while (value >= 128) {
        out[pos++] = (value & 0x7f) | 0x80
        value = Math.floor(value / 128)
      }
      out[pos++] = value
    }
    const useHuffman = this.huffman
    const writeString = (str, huffman) => {
      // Huffman unless it is longer (a tie goes to Huffman, as in RFC 7541's
      // examples)
      const hlen = huffman && useHuffman ? huffmanLength(str) : Infinity
      if (hlen > str.length) {
        writeInt(0, 7, str.length)
        pos += out.latin1Write(str, pos, str.length)
        return
      }
      writeInt(0x80, 7, hlen)
      let acc = 0
      let bits = 0
      for (let i = 0; i < str.length; i++) {
        const sym = str.charCodeAt(i) & 0xff
        const len = HUFFMAN_LENGTHS[sym]
        const code = HUFFMAN_CODES[sym]
        // Codes are up to 30 bits: feed them in two parts so `acc` never
        // holds more than 31 bits.
        if (len > 16) {
          acc = (acc << (len - 16)) | (code >>> 16)
          bits += len - 16
          while (bits >= 8) {
            bits -= 8
            out[pos++] = acc >>> bits
            acc &= (1 << bits) - 1
          }
          acc = (acc << 16) | (code & 0xffff)
          bits += 16
        } else {
          acc = (acc << len) | code
          bits += len
        }
        while (bits >= 8) {
          bits -= 8
          out[pos++] = acc >>> bits
          acc &= (1 << bits) - 1
        }
      }
      // Pad with the most significant bits of EOS (all ones).
      if (bits > 0) out[pos++] = (acc << (8 - bits)) | (0xff >>> bits)
    }

    ensure(16)
    if (this.pendingMin !== -1) {
      if (this.pendingMin < this.table.maxSize) writeInt(0x20, 5, this.pendingMin)
      writeInt(0x20, 5, this.table.maxSize)
      this.pendingMin = -1
    }
    const table = this.table
    for (let i = 0; i < headers.length; i++) {
      const [name, value, sensitive] = headers[i]
      ensure(12 + 4 * (name.length + value.length))
      const fromStatic = STATIC_LOOKUP.get(name)
      const fromTable = table.byName.get(name)
      if (!sensitive) {
        let index = fromStatic === undefined ? undefined : fromStatic.values.get(value)
        if (index === undefined && fromTable !== undefined) {
          const seq = fromTable.values.get(value)
          if (seq !== undefined) index = table.indexOf(seq)
        }
        if (index !== undefined) {
          writeInt(0x80, 7, index)
          continue
        }
      }
      const nameIndex = fromStatic !== undefined ? fromStatic.index : fromTable !== undefined ? table.indexOf(fromTable.seq) : 0
      if (sensitive) {
        writeInt(0x10, 4, nameIndex) // never indexed
      } else if (name.length + value.length + ENTRY_OVERHEAD > table.maxSize) {
        writeInt(0x00, 4, nameIndex) // would empty the table: not indexed
      } else {
        writeInt(0x40, 6, nameIndex) // incremental indexing
      }
      if (nameIndex === 0) writeString(name, !sensitive)
      writeString(value, !sensitive)
      if (!sensitive && name.length + value.length + ENTRY_OVERHEAD <= table.maxSize) table.add(name, value)
    }
    return out.subarray(0, pos)
  }
}

let decodeScratch = Buffer.allocUnsafe(4096)

class Decoder {
  // maxSize: the table size we allow the peer (our SETTINGS_HEADER_TABLE_SIZE).
  constructor ({ maxSize = 4096 } = {}) {
    this.maxAllowed = maxSize
    this.table = new DynamicTable(maxSize)
  }

  // A whole header block → [[name, value], …]; throws HpackError.
  decode (buf) {
    const table = this.table
    const end = buf.length
    const headers = []
    let pos = 0

    const readInt = prefixBits => {
      const max = (1 << prefixBits) - 1
      let value = buf[pos++] & max
      if (value < max) return value
      let shift = 0
      let b
      do {
        if (pos >= end) throw new HpackError('Incomplete integer')
        if (shift > 28) throw new HpackError('Integer too large')
        b = buf[pos++]
        value += (b & 0x7f) * 2 ** shift
        shift += 7
      } while (b & 0x80)
      if (value > 0x7fffffff) throw new HpackError('Integer too large')
      return value
    }
    const readString = () => {
      if (pos >= end) throw new HpackError('Missing string')
      const huffman = (buf[pos] & 0x80) !== 0
      const len = readInt(7)
      if (len > end - pos) throw new HpackError('String longer than the block')
      const start = pos
      pos += len
      if (!huffman) return buf.latin1Slice(start, pos)
      if (decodeScratch.length < len * 2) decodeScratch = Buffer.allocUnsafe(len * 2)
      const out = decodeScratch
      let n = 0
      let state = 0
      for (let i = start; i < pos; i++) {
        const b = buf[i]
        let e = HUFFMAN_FSM[state * 16 + (b >>> 4)]
        if (e & FSM_FAIL) throw new HpackError('EOS in a Huffman string')
        if (e & FSM_EMIT) out[n++] = (e >>> 8) & 0xff
        state = e & 0xff
        e = HUFFMAN_FSM[state * 16 + (b & 15)]
        if (e & FSM_FAIL) throw new HpackError('EOS in a Huffman string')
        if (e & FSM_EMIT) out[n++] = (e >>> 8) & 0xff
        state = e & 0xff
      }
      if (!HUFFMAN_ACCEPT[state]) throw new HpackError('Invalid Huffman padding')
      return out.latin1Slice(0, n)
    }
    const lookup = index => {
      if (index === 0) throw new HpackError('Index 0')
      if (index <= STATIC_LENGTH) return STATIC_TABLE[index - 1]
      const entry = table.get(index - STATIC_LENGTH)
      if (entry === undefined) throw new HpackError('Index out of the table')
      return [entry.name, entry.value]
    }

    while (pos < end) {
      const b = buf[pos]
      if (b & 0x80) { // indexed
        const [name, value] = lookup(readInt(7))
        headers.push([name, value])
      } else if (b & 0x40) { // literal, incremental indexing
        const index = readInt(6)
        const name = index === 0 ? readString() : lookup(index)[0]
        const value = readString()
        table.add(name, value)
        headers.push([name, value])
      } else if (b & 0x20) { // dynamic table size update
        if (headers.length !== 0) throw new HpackError('Table size update after a header field')
        const size = readInt(5)
        if (size > this.maxAllowed) throw new HpackError('Table size update above the allowed size')
        table.setMaxSize(size)
      } else { // literal, not indexed (0x00) or never indexed (0x10)
        const index = readInt(4)
        const name = index === 0 ? readString() : lookup(index)[0]
        headers.push([name, readString()])
      }
    }
    return headers
  }
}

module.exports = { Encoder, Decoder, HpackError, STATIC_TABLE, huffmanLength }

'use strict'

// vendor/spdy-transport's HPACK (protocol/http2/hpack.js), which replaced
// hpack.js: RFC 7541's examples (appendix C) both ways, byte for byte, and
// the errors and table size updates hpack.js got wrong or let through.
const assert = require('node:assert/strict')
const { Encoder, Decoder, HpackError, huffmanLength } = require('../../../vendor/spdy-transport/lib/spdy-transport/protocol/http2/hpack')

const hex = s => Buffer.from(s.replace(/\s+/g, ''), 'hex')
const plain = list => list.map(([name, value]) => [name, value])
const triples = list => list.map(([name, value, sensitive]) => [name, value, Boolean(sensitive)])

// RFC 7541 C.3 (no Huffman) and C.4 (Huffman): three requests on one connection.
const REQUESTS = [
  [[':method', 'GET'], [':scheme', 'http'], [':path', '/'], [':authority', 'www.example.com']],
  [[':method', 'GET'], [':scheme', 'http'], [':path', '/'], [':authority', 'www.example.com'], ['cache-control', 'no-cache']],
  [[':method', 'GET'], [':scheme', 'https'], [':path', '/index.html'], [':authority', 'www.example.com'], ['custom-key', 'custom-value']]
]
const C3 = [
  { block: '8286 8441 0f77 7777 2e65 7861 6d70 6c65 2e63 6f6d', size: 57 },
  { block: '8286 84be 5808 6e6f 2d63 6163 6865', size: 110 },
  { block: '8287 85bf 400a 6375 7374 6f6d 2d6b 6579 0c63 7573 746f 6d2d 7661 6c75 65', size: 164 }
]
const C4 = [
  { block: '8286 8441 8cf1 e3c2 e5f2 3a6b a0ab 90f4 ff', size: 57 },
  { block: '8286 84be 5886 a8eb 1064 9cbf', size: 110 },
  { block: '8287 85bf 4088 25a8 49e9 5ba9 7d7f 8925 a849 e95b b8e8 b4bf', size: 164 }
]

// RFC 7541 C.5 (no Huffman) and C.6 (Huffman): three responses, a 256-byte table.
const RESPONSES = [
  [[':status', '302'], ['cache-control', 'private'], ['date', 'Mon, 21 Oct 2013 20:13:21 GMT'], ['location', 'https://www.example.com']],
  [[':status', '307'], ['cache-control', 'private'], ['date', 'Mon, 21 Oct 2013 20:13:21 GMT'], ['location', 'https://www.example.com']],
  [[':status', '200'], ['cache-control', 'private'], ['date', 'Mon, 21 Oct 2013 20:13:22 GMT'], ['location', 'https://www.example.com'],
    ['content-encoding', 'gzip'], ['set-cookie', 'foo=ASDJKHQKBZXOQWEOPIUAXQWEOIU; max-age=3600; version=1']]
]
const C5 = [
  {
    block: `4803 3330 3258 0770 7269 7661 7465 611d 4d6f 6e2c 2032 3120 4f63 7420 3230 3133 2032 303a 3133 3a32 3120 474d
      546e 1768 7474 7073 3a2f 2f77 7777 2e65 7861 6d70 6c65 2e63 6f6d`,
    size: 222
  },
  { block: '4803 3330 37c1 c0bf', size: 222 },
  {
    block: `88c1 611d 4d6f 6e2c 2032 3120 4f63 7420 3230 3133 2032 303a 3133 3a32 3220 474d 54c0 5a04 677a 6970 7738 666f
      6f3d 4153 444a 4b48 514b 425a 584f 5157 454f 5049 5541 5851 5745 4f49 553b 206d 6178 2d61 6765 3d33 3630 303b
      2076 6572 7369 6f6e 3d31`,
    size: 215
  }
]
const C6 = [
  {
    block: `4882 6402 5885 aec3 771a 4b61 96d0 7abe 9410 54d4 44a8 2005 9504 0b81 66e0 82a6 2d1b ff6e 919d 29ad 1718 63c7
      8f0b 97c8 e9ae 82ae 43d3`,
    size: 222
  },
  { block: '4883 640e ffc1 c0bf', size: 222 },
  {
    block: `88c1 6196 d07a be94 1054 d444 a820 0595 040b 8166 e084 a62d 1bff c05a 839b d9ab 77ad 94e7 821d d7f2 e6c7 b335
      dfdf cd5b 3960 d5af 2708 7f36 72c1 ab27 0fb5 291f 9587 3160 65c0 03ed 4ee5 b106 3d50 07`,
    size: 215
  }
]

describe('HPACK (vendor/spdy-transport, protocol/http2/hpack.js)', () => {
  describe('RFC 7541 appendix C', () => {
    it('C.2: a literal with indexing, without, never indexed, and an indexed field', () => {
      const d = new Decoder()
      assert.deepEqual(d.decode(hex('400a 6375 7374 6f6d 2d6b 6579 0d63 7573 746f 6d2d 6865 6164 6572')), [['custom-key', 'custom-header']])
      assert.equal(d.table.size, 55)
      const e = new Encoder({ huffman: false })
      assert.deepEqual(e.encode([['password', 'secret', true]]), hex('1008 7061 7373 776f 7264 0673 6563 7265 74'))
      assert.deepEqual(new Decoder().decode(hex('1008 7061 7373 776f 7264 0673 6563 7265 74')), [['password', 'secret']])
      assert.deepEqual(new Decoder().decode(hex('040c 2f73 616d 706c 652f 7061 7468')), [[':path', '/sample/path']])
      assert.deepEqual(new Encoder().encode([[':method', 'GET', false]]), hex('82'))
    })

    for (const [name, vectors, list, options] of [
      ['C.3: requests, no Huffman', C3, REQUESTS, { huffman: false }],
      ['C.4: requests, Huffman', C4, REQUESTS, {}],
      ['C.5: responses, no Huffman, a 256-byte table', C5, RESPONSES, { huffman: false, maxSize: 256 }],
      ['C.6: responses, Huffman, a 256-byte table', C6, RESPONSES, { maxSize: 256 }]
    ]) {
      it(`${name}: decoded, and encoded byte for byte`, () => {
        const decoder = new Decoder({ maxSize: options.maxSize || 4096 })
        const encoder = new Encoder(options)
        vectors.forEach(({ block, size }, i) => {
          assert.deepEqual(decoder.decode(hex(block)), plain(list[i]), `${name} #${i + 1} decoded`)
          assert.equal(decoder.table.size, size, `${name} #${i + 1} decoder table`)
          assert.equal(Buffer.from(encoder.encode(triples(list[i]))).toString('hex'), hex(block).toString('hex'), `${name} #${i + 1} encoded`)
          assert.equal(encoder.table.size, size, `${name} #${i + 1} encoder table`)
        })
      })
    }
  })

  describe('errors (a decoding error is a COMPRESSION_ERROR for the connection)', () => {
    const fails = (block, re, options) => assert.throws(() => new Decoder(options).decode(hex(block)), err => err instanceof HpackError && re.test(err.message))

    it('index 0, and an index past the tables', () => {
      fails('80', /Index 0/)
      fails('be', /out of the table/)
    })

    it('a table size update after a header field (RFC 7541 4.2; hpack.js took it)', () => {
      fails('82 3f e1 1f', /after a header field/)
      assert.deepEqual(new Decoder().decode(hex('3f e1 1f 82')), [[':method', 'GET']])
    })

    it('a table size update above the size allowed (RFC 7541 6.3)', () => {
      fails('3f e2 1f', /above the allowed size/) // 4097
    })

    it('Huffman padding longer than 7 bits, or not of ones, and EOS inside a string (RFC 7541 5.2)', () => {
      // 'a' is 00011 (5 bits): padded with ones to a byte it is 0x1f
      assert.deepEqual(new Decoder().decode(hex('40 81 1f 81 1f')), [['a', 'a']])
      fails('40 82 1f ff 81 1f', /padding/) // a further byte of ones: 11 bits of padding
      fails('40 81 18 81 1f', /padding/) // padded with zeros
      fails('40 84 ff ff ff ff 81 1f', /EOS/) // 30 ones: EOS
    })

    it('a string or integer cut short, and an integer past 2^31', () => {
      fails('40 85 1f', /longer than the block/)
      fails('7f', /Incomplete integer/)
      fails('7f ff ff ff ff 7f', /too large/)
    })
  })

  describe('the encoder', () => {
    it('signals a smaller table from SETTINGS_HEADER_TABLE_SIZE at the start of the next block: the smallest, then the final size', () => {
      const e = new Encoder()
      const d = new Decoder()
      const fields = [['x-a', 'one', false], ['x-b', 'two', false]]
      d.decode(Buffer.from(e.encode(fields)))
      e.setMaxSize(0)
      e.setMaxSize(100)
      const block = Buffer.from(e.encode(fields))
      assert.deepEqual([...block.subarray(0, 2)], [0x20, 0x3f], 'size updates 0, then 100 (31 + 69)')
      assert.deepEqual(d.decode(block), plain(fields))
      assert.equal(d.table.maxSize, 100)
      assert.equal(e.table.maxSize, 100)
    })

    it('never indexes a sensitive field (cookie), nor one larger than the table', () => {
      const e = new Encoder()
      e.encode([['cookie', 'a=b', true], ['x-big', 'v'.repeat(5000), false]])
      assert.equal(e.table.entries.length, 0)
    })

    it('uses Huffman only where it is shorter', () => {
      assert.equal(huffmanLength('www.example.com'), 12)
      const e = new Encoder()
      const block = Buffer.from(e.encode([['x-raw', '\u00ff\u00fe', false]]))
      assert.equal(block[block.length - 3], 0x02, 'a raw 2-byte string (Huffman would take 7)')
    })

    it("round trip: 2,000 random header lists through one encoder and decoder keep their tables alike (each evicting the other's way)", () => {
      let seed = 34
      const rand = n => { seed = (Math.imul(seed, 1103515245) + 12345) >>> 0; return seed % n }
      const names = ['x-a', 'x-bb', 'content-type', 'cache-control', 'x-long-header-name', ':path', 'set-cookie']
      const e = new Encoder({ maxSize: 4096 })
      const d = new Decoder({ maxSize: 4096 })
      for (let i = 0; i < 2000; i++) {
        if (i === 700) { e.setMaxSize(256) }
        if (i === 1400) { e.setMaxSize(4096) }
        const list = Array.from({ length: 1 + rand(8) }, () => {
          const value = Array.from({ length: rand(40) }, () => String.fromCharCode(32 + rand(223))).join('')
          return [names[rand(names.length)], value, rand(10) === 0]
        })
        assert.deepEqual(d.decode(Buffer.from(e.encode(list))), plain(list), `list ${i}`)
        assert.equal(d.table.size, e.table.size, `table size after list ${i}`)
      }
    })
  })
})

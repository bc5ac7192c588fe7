'use strict'

// The hand-made QUIC packets of test/support/quic-packets.js (used by
// test/server/integration/h3-conformance.test.js), checked against RFC 9001's own
// test vectors, so a conformance test that fails is the server's doing.
const assert = require('node:assert/strict')
const crypto = require('node:crypto')
const q = require('./quic-packets')

const hex = s => Buffer.from(s.replace(/\s+/g, ''), 'hex')
const RFC_DCID = hex('8394c8f03e515708') // RFC 9001 Appendix A

describe('QUIC packets for the conformance tests (test/support/quic-packets.js)', () => {
  it('derives the Initial keys of RFC 9001 Appendix A.1', () => {
    const client = q.initialKeys(RFC_DCID, 'client')
    assert.equal(client.key.toString('hex'), '1f369613dd76d5467730efcbe3b1a22d')
    assert.equal(client.iv.toString('hex'), 'fa044b2f42a3fd3b46fb255c')
    assert.equal(client.hp.toString('hex'), '9f50449e04a0e810283a1e9933adedd2')
    const server = q.initialKeys(RFC_DCID, 'server')
    assert.equal(server.key.toString('hex'), 'cf3a5331653c364c88f0f379b6067e37')
    assert.equal(server.iv.toString('hex'), '0ac1493ca1905853b0bba03e')
    assert.equal(server.hp.toString('hex'), 'c206b8d9b9f0f37644430b490eeaa314')
  })

  it('opens the server Initial of RFC 9001 Appendix A.3: an ACK and the ServerHello', () => {
    const packet = hex(`cf000000010008f067a5502a4262b5004075c0d95a482cd0991cd25b0aac406a
      5816b6394100f37a1c69797554780bb38cc5a99f5ede4cf73c3ec2493a1839b3
      dbcba3f6ea46c5b7684df3548e7ddeb9c3bf9c73cc3f3bded74b562bfb19fb84
      022f8ef4cdd93795d77d06edbb7aaf2f58891850abbdca3d20398c276456cbc4
      2158407dd074ee`)
    const opened = q.openInitial(packet, RFC_DCID)
    assert.equal(opened.pn, 1)
    assert.equal(opened.scid.toString('hex'), 'f067a5502a4262b5')
    assert.deepEqual(opened.frames.map(f => f.type), ['ACK', 'CRYPTO'])
    const hello = opened.frames[1].data
    assert.equal(hello.length, 90)
    assert.equal(hello[0], 2) // ServerHello
    assert.equal(hello.subarray(0, 8).toString('hex'), '020000560303eefc')
  })

  it('builds a client Initial of exactly the asked size that opens again with the client keys', () => {
    const dcid = crypto.randomBytes(8)
    const scid = crypto.randomBytes(8)
    const hello = q.clientHello({ scid })
    for (const size of [1200, 1000, 1350]) {
      const packet = q.clientInitial({ dcid, scid, crypto: hello, size })
      assert.equal(packet.length, size)
      const opened = q.openInitial(packet, dcid, 'client')
      assert.equal(opened.pn, 0)
      assert.deepEqual(opened.frames.map(f => f.type), ['CRYPTO'])
      assert.ok(opened.frames[0].data.equals(hello))
      assert.throws(() => q.openInitial(packet, crypto.randomBytes(8), 'client'), 'opened with keys of another DCID')
    }
  })

  it('encodes variable-length integers (RFC 9000 §16)', () => {
    for (const [n, bytes] of [[37, '25'], [15293, '7bbd'], [494878333, '9d7f3e7d']]) {
      assert.equal(q.varint(n).toString('hex'), bytes)
      assert.deepEqual(q.readVarint(hex(bytes), 0), { value: n, next: bytes.length / 2 })
    }
  })
})

'use strict'

const assert = require('node:assert/strict')
const { parseConfig, helpText, isLoopback } = require('../../server/config')

describe('config', () => {
  it('has the documented defaults', () => {
    const c = parseConfig([], {})
    assert.equal(c.host, '127.0.0.1')
    assert.equal(c.port, 3000)
    assert.equal(c.h1Port, 3001)
    assert.equal(c.h2Port, 3002)
    assert.equal(c.h2nPort, 3003)
  })
  it('takes the h2n port from --h2n-port and H2BENCH_H2N_PORT', () => {
    assert.equal(parseConfig([], { H2BENCH_H2N_PORT: '4003' }).h2nPort, 4003)
    assert.equal(parseConfig(['--h2n-port', '5003'], { H2BENCH_H2N_PORT: '4003' }).h2nPort, 5003)
    assert.throws(() => parseConfig(['--h2n-port=x'], {}), /--h2n-port \(H2BENCH_H2N_PORT\) must be a port 0…65535/)
  })
  it('takes flags over env over defaults', () => {
    const env = { H2BENCH_PORT: '4000', H2BENCH_H1_PORT: '4001' }
    const c = parseConfig(['--h1-port', '5001', '--host', '::1'], env)
    assert.equal(c.port, 4000)
    assert.equal(c.h1Port, 5001)
    assert.equal(c.host, '::1')
  })
  it('accepts 0 as any free port', () => assert.equal(parseConfig(['--h2-port=0'], {}).h2Port, 0))
  for (const bad of ['-1', '65536', 'abc', '1.5']) {
    it(`rejects port "${bad}" naming the flag and the range`, () => {
      assert.throws(() => parseConfig([`--h2-port=${bad}`], {}), /--h2-port \(H2BENCH_H2_PORT\) must be a port 0…65535/)
    })
  }
  it('rejects a bad port from the environment too', () => {
    assert.throws(() => parseConfig([], { H2BENCH_PORT: 'x' }), /--port \(H2BENCH_PORT\)/)
  })
  it('rejects unknown flags pointing at --help', () => {
    assert.throws(() => parseConfig(['--nope'], {}), /--nope.*see --help/)
  })
  it('has a help text naming every flag', () => {
    const text = helpText()
    for (const flag of ['--host', '--port', '--h1-port', '--h2-port', '--h2n-port', '--certs-dir', '--regenerate-certs', '--chrome', '--help']) {
      assert.ok(text.includes(flag), flag)
    }
  })
  it('knows loopback from the network', () => {
    assert.ok(isLoopback('127.0.0.1'))
    assert.ok(isLoopback('localhost'))
    assert.ok(isLoopback('::1'))
    assert.ok(isLoopback('0:0:0:0:0:0:0:1'))
    assert.ok(!isLoopback('::2'))
    assert.ok(!isLoopback('example.com'))
    assert.ok(!isLoopback('0.0.0.0'))
    assert.ok(!isLoopback('::'))
  })
})

'use strict'

const assert = require('node:assert/strict')
const { boundOf, closeness, WIRE } = require('../../bench/runner/bounds')

const page = (lane, extra = {}) => ({
  experiment: 'network', network: 'link', preset: 'Regular 3G', lane, mode: null, protocol: lane === 'h1' ? 'http/1.1' : 'h2',
  params: { requests: 30, assets: null, sizeBytes: 102400, sizeMB: 0.098, delayMs: 10 }, samples: [1], median: 40000, ...extra
})

// The physical lower bound the report puts beside every cell (bench/runner/bounds.js).
describe('physical lower bound of a cell', () => {
  it('HTTP/2 on Regular 3G: one round, then every byte through 768 kbit/s', () => {
    const b = boundOf(page('h2n'), 'page')
    const bytes = 30 * (102400 + 250) * WIRE
    assert.equal(b.rounds, 1)
    assert.equal(b.rttMs, 100)
    assert.equal(b.downBitsPerSecond, 768000)
    assert.ok(Math.abs(b.bandwidthMs - bytes * 8 / 768000 * 1000) < 1e-6)
    assert.ok(Math.abs(b.ms - (110 + bytes * 8 / 768000 * 1000)) < 1e-6)
    assert.ok(b.ms > 33000 && b.ms < 34000, `${b.ms}`) // 3.2 MB at 96 kB/s
    // 1,500-byte packets carry 1,448 bytes: the wire costs 3.6 % more than the payload.
    assert.ok(WIRE > 1.0359 && WIRE < 1.0375)
  })

  it('HTTP/1.1: six connections, five rounds each for 30 requests', () => {
    const b = boundOf(page('h1', { params: { requests: 30, assets: null, sizeBytes: 0, sizeMB: 0, delayMs: 10 }, preset: 'Regular 4G' }), 'page')
    assert.equal(b.rounds, 5)
    assert.equal(b.rttMs, 20)
    assert.ok(Math.abs(b.latencyMs - 5 * 30) < 1e-9)
    assert.ok(b.ms >= 150)
  })

  it('the DevTools preset of the same name gives the same numbers, from CDP', () => {
    const link = boundOf(page('h2n'), 'page')
    const devtools = boundOf(page('h2n', { network: 'devtools' }), 'page')
    assert.equal(devtools.rttMs, link.rttMs)
    assert.equal(devtools.downBitsPerSecond, link.downBitsPerSecond)
  })

  it('names the dominant cost and how close the measurement came', () => {
    const c = closeness(page('h2n', { median: 35000 }), 'page')
    assert.match(c.dominant, /^bandwidth-bound: 9\d % of the link's rate$/)
    assert.ok(c.ofBound > 0.94 && c.ofBound < 0.98)
    const lat = closeness(page('h1', { preset: 'none', median: 5, params: { requests: 12, assets: null, sizeBytes: 100, sizeMB: 0, delayMs: 0 }, linkSpec: 'rtt=1ms' }), 'page')
    assert.equal(lat.dominant, 'latency-bound: 2 round trips of 1 ms')
    assert.equal(lat.boundMs, 2)
  })

  it('push saves a round: one for a pushed load, two for page then request', () => {
    const row = mode => ({ network: 'link', preset: 'Regular 3G', lane: 'h2n', mode, pushed: mode === 'push' ? 1 : undefined, params: { requests: null, assets: 1, sizeBytes: 296960, sizeMB: 0.283, delayMs: 0 } })
    const push = boundOf(row('push'), 'push-protocol')
    const request = boundOf(row('request'), 'push-protocol')
    assert.equal(push.rounds, 1)
    assert.equal(request.rounds, 2)
    assert.ok(Math.abs(request.ms - push.ms - 100) < 1e-6)
  })
})

describe('physical lower bound under DevTools', () => {
  it('the server delay hides inside the per-request latency', () => {
    const row = network => ({ network, preset: 'Regular 4G', lane: 'h2n', mode: null, protocol: 'h2', params: { requests: 1, assets: null, sizeBytes: 0, sizeMB: 0, delayMs: 10 } })
    assert.equal(boundOf(row('devtools'), 'page').latencyMs, 20)
    assert.equal(boundOf(row('link'), 'page').latencyMs, 30)
  })
})

describe('bytes a cell costs', () => {
  it('through a link every IP packet counts; under DevTools, body and headers only', () => {
    const row = network => ({ network, preset: 'Regular 3G', lane: 'h2n', mode: null, protocol: 'h2', params: { requests: 10, assets: null, sizeBytes: 100000, sizeMB: 0.095, delayMs: 0 } })
    assert.equal(boundOf(row('devtools'), 'page').bytes, 10 * 100250)
    assert.equal(boundOf(row('link'), 'page').bytes, Math.round(10 * 100250 * WIRE))
  })
})

'use strict'

// harness/net-errors.js on a constructed page: the same counts from puppeteer's 'requestfailed' (its Network domain)
// and from Chromium's console lines (none needed), by lane; the real browser: test/bench/slow/runner-net-errors.test.js.
const assert = require('node:assert/strict')
const { EventEmitter } = require('node:events')
const { watchNetErrors } = require('../../harness/net-errors')

const LANES = [{ name: 'h1', url: 'https://127.0.0.1:3001' }, { name: 'h2n', url: 'https://127.0.0.1:3003' }]
const failed = (url, errorText) => ({ url: () => url, failure: () => ({ errorText }) })
const consoleLine = (text, url) => ({ text: () => text, location: () => ({ url }) })

describe('net errors by lane (harness/net-errors.js)', () => {
  it('via requests: each failed request by its lane and net::ERR name; stop() stops counting', () => {
    const page = new EventEmitter()
    const w = watchNetErrors(page, LANES)
    page.emit('requestfailed', failed('https://127.0.0.1:3003/option?r=1', 'net::ERR_CONNECTION_RESET'))
    page.emit('requestfailed', failed('https://127.0.0.1:3003/option?r=2', 'net::ERR_CONNECTION_RESET'))
    page.emit('requestfailed', failed('https://example.test/x', 'net::ERR_FAILED'))
    page.emit('console', consoleLine('Failed to load resource: net::ERR_CONNECTION_RESET', 'https://127.0.0.1:3001/option'))
    assert.deepEqual(w.counts('h2n'), { 'net::ERR_CONNECTION_RESET': 2 })
    assert.deepEqual(w.counts('h1'), {}) // the console is not this source
    assert.deepEqual(w.counts('other'), { 'net::ERR_FAILED': 1 })
    assert.match(w.noteFor('h2n'), /net::ERR_CONNECTION_RESET \(2×\)/)
    w.stop()
    page.emit('requestfailed', failed('https://127.0.0.1:3003/option?r=3', 'net::ERR_CONNECTION_RESET'))
    assert.equal(w.total(), 3)
  })

  it('via console: Chromium\'s "Failed to load resource: net::ERR_…" lines by their URL, nothing else', () => {
    const page = new EventEmitter()
    const w = watchNetErrors(page, LANES, { via: 'console', ignore: e => e === 'net::ERR_ABORTED' })
    page.emit('console', consoleLine('Failed to load resource: net::ERR_INSUFFICIENT_RESOURCES', 'https://127.0.0.1:3001/option?r=a'))
    page.emit('console', consoleLine('Failed to load resource: net::ERR_HTTP2_PROTOCOL_ERROR', 'https://127.0.0.1:3003/option?r=b'))
    page.emit('console', consoleLine('Failed to load resource: the server responded with a status of 404 (Not Found)', 'https://127.0.0.1:3003/x'))
    page.emit('console', consoleLine('Failed to load resource: net::ERR_ABORTED', 'https://127.0.0.1:3003/option?r=c'))
    page.emit('console', consoleLine('h2bench: net::ERR_FAILED said by a script', 'https://127.0.0.1:3003/client/js/x.js'))
    page.emit('requestfailed', failed('https://127.0.0.1:3003/option?r=d', 'net::ERR_CONNECTION_RESET'))
    assert.deepEqual(w.counts('h1'), { 'net::ERR_INSUFFICIENT_RESOURCES': 1 })
    assert.deepEqual(w.counts('h2n'), { 'net::ERR_HTTP2_PROTOCOL_ERROR': 1 })
    assert.match(w.noteFor('h1'), /Chromium caps the requests one page may have in flight/)
    assert.equal(w.total(), 2)
    w.stop()
    assert.equal(page.listenerCount('console'), 0)
  })
})

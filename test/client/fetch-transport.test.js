'use strict'

// The page's jQuery transport on fetch() (client/js/request.js), on constructed responses: cache: 'no-store', the
// request's headers passed on (but not fetch()'s own defaults), a measured body read whole up to 1 MiB and counted
// chunk by chunk above it or without a length (never a string), a failed answer's body read as text, a network
// failure as status 0, an abort left to jQuery. In the real browser: test/client/slow/page.test.js.
const assert = require('node:assert/strict')
const path = require('node:path')
const fs = require('node:fs')
const vm = require('node:vm')

const SOURCE = fs.readFileSync(path.join(__dirname, '..', '..', 'client', 'js', 'request.js'), 'utf8')

// request.js loaded with a jQuery that only records what it registers: → { factory (the transport's), setup }.
function load (fetch) {
  const registered = {}
  const $ = { ajaxTransport (types, factory) { registered.types = types; registered.factory = factory }, ajaxSetup (s) { registered.setup = s } }
  vm.runInNewContext(SOURCE, { window: { location: { search: '' } }, $, fetch, AbortController, URLSearchParams, Math, performance: {} })
  return registered
}

// A body of `chunks` (their sizes), as a ReadableStream's reader gives them.
function body (chunks) {
  let i = 0
  return { getReader: () => ({ read: async () => i < chunks.length ? { done: false, value: new Uint8Array(chunks[i++]) } : { done: true } }) }
}
// `length`: its Content-Length (none when null); `reads` counts how the body was read.
const response = (status, chunks, text = '', length = null, reads = {}) => ({
  ok: status >= 200 && status < 300, status, statusText: status === 200 ? 'OK' : 'Error',
  headers: new Map([['content-type', 'text/plain'], ['x-h2bench-lane', 'h2n'], ...(length === null ? [] : [['content-length', String(length)]])]),
  get body () { reads.stream = (reads.stream || 0) + 1; return body(chunks) },
  arrayBuffer: async () => { reads.whole = (reads.whole || 0) + 1; return new ArrayBuffer(chunks.reduce((a, b) => a + b, 0)) },
  text: async () => text
})
// (what the transport built lives in the vm's realm: compared as plain JSON)
const settle = send => new Promise(resolve => send((...args) => resolve(JSON.parse(JSON.stringify(args)))))

describe('the page\'s jQuery transport on fetch() (client/js/request.js)', () => {
  it('is registered before jQuery\'s own for every type, and only for the page\'s requests', () => {
    const r = load(() => { throw new Error('not called') })
    assert.equal(r.types, '+*')
    assert.equal(r.factory({ h2benchTransport: 'xhr' }), undefined) // jQuery's XMLHttpRequest then
    assert.equal(r.factory({}), undefined)
    assert.equal(r.setup.converters['binary bytes'](new ArrayBuffer(7)), 7)
    assert.equal(r.setup.converters['text bytes']('abc'), 3)
  })

  it('counts a measured body without a string: cache no-store, only the headers fetch() would not send itself', async () => {
    const calls = []
    const reads = {}
    const r = load((url, init) => { calls.push([url, init]); return Promise.resolve(response(200, [65536, 36864], '', null, reads)) })
    const t = r.factory({ h2benchTransport: 'fetch', url: 'https://h:1/option?size=100kb', type: 'GET', dataTypes: ['bytes'] })
    const [status, statusText, responses, headers] = await settle(done => t.send({ Accept: '*/*' }, done))
    assert.deepEqual([status, statusText, responses], [200, 'OK', { bytes: 102400 }])
    assert.equal(headers, '') // nothing reads a counted answer's headers
    assert.deepEqual(reads, { stream: 2 }) // no Content-Length: counted chunk by chunk
    const [url, init] = calls[0]
    assert.equal(url, 'https://h:1/option?size=100kb')
    assert.deepEqual(Object.keys(init).sort(), ['cache', 'signal']) // GET, credentials and Accept */* are fetch()'s defaults
    assert.equal(init.cache, 'no-store')
    await settle(done => r.factory({ h2benchTransport: 'fetch', url: 'u', type: 'POST', dataTypes: ['bytes'], h2benchCache: 'default' }).send({ Accept: '*/*', 'Prefer-Push': 'item' }, done))
    assert.deepEqual(JSON.parse(JSON.stringify([calls[1][1].method, calls[1][1].cache, calls[1][1].headers])), ['POST', 'default', { 'Prefer-Push': 'item' }])
  })

  it('reads a body of up to 1 MiB whole (one ArrayBuffer, dropped), a longer one chunk by chunk', async () => {
    for (const [size, how] of [[102400, 'whole'], [1048576, 'whole'], [1048577, 'stream']]) {
      const reads = {}
      const r = load(() => Promise.resolve(response(200, [size - 1, 1], '', size, reads)))
      const [, , responses] = await settle(done => r.factory({ h2benchTransport: 'fetch', url: 'u', type: 'GET', dataTypes: ['bytes'] }).send({}, done))
      assert.deepEqual(responses, { bytes: size })
      assert.deepEqual(Object.keys(reads), [how], `${size} bytes`)
    }
  })

  it('reads text where the page wants it (a REST document) and for a failed answer (its error message)', async () => {
    const r = load(() => Promise.resolve(response(200, [], '{"_links":{}}')))
    const doc = await settle(done => r.factory({ h2benchTransport: 'fetch', url: 'u', type: 'GET', dataTypes: ['text'] }).send({}, done))
    assert.deepEqual(doc[2], { text: '{"_links":{}}' })
    assert.equal(doc[3], 'content-type: text/plain\r\nx-h2bench-lane: h2n') // a text answer's headers are jQuery's to read
    const bad = load(() => Promise.resolve(response(400, [], '{"error":"size must be 0…67108864 bytes"}')))
    const [status, , responses] = await settle(done => bad.factory({ h2benchTransport: 'fetch', url: 'u', type: 'GET', dataTypes: ['bytes'] }).send({}, done))
    assert.equal(status, 400)
    assert.deepEqual(responses, { text: '{"error":"size must be 0…67108864 bytes"}' })
  })

  it('a network failure is status 0; an aborted request settles nothing (jQuery already has)', async () => {
    const r = load(() => Promise.reject(new TypeError('Failed to fetch')))
    assert.deepEqual(await settle(done => r.factory({ h2benchTransport: 'fetch', url: 'u', type: 'GET', dataTypes: ['bytes'] }).send({}, done)), [0, 'error'])
    let signal = null
    const hanging = load((url, init) => { signal = init.signal; return new Promise((resolve, reject) => init.signal.addEventListener('abort', () => reject(new Error('aborted')))) })
    const t = hanging.factory({ h2benchTransport: 'fetch', url: 'u', type: 'GET', dataTypes: ['bytes'] })
    let settled = false
    t.send({}, () => { settled = true })
    t.abort()
    assert.equal(signal.aborted, true)
    await new Promise(resolve => setImmediate(resolve))
    assert.equal(settled, false)
  })
})

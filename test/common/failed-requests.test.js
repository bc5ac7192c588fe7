'use strict'

const assert = require('node:assert/strict')
const { failureOf, failuresOf, failedOrigins, failuresProblem, allowList, patternOf } = require('../../common/failed-requests')

const entry = (url, { status = 200, error, incomplete } = {}) => ({
  request: { url },
  response: { status },
  ...(error ? { _error: error } : {}),
  ...(incomplete ? { _incomplete: true } : {})
})

describe('failed requests: which requests of a load failed below HTTP, and which the user expects', () => {
  it('a network or TLS error, or no status at all, is a failure; an HTTP status of any kind is an answer', () => {
    assert.equal(failureOf(entry('https://a.test/', { status: 0, error: 'net::ERR_CERT_AUTHORITY_INVALID' })), 'net::ERR_CERT_AUTHORITY_INVALID')
    assert.equal(failureOf(entry('https://a.test/', { status: 0 })), 'no response')
    assert.equal(failureOf(entry('https://a.test/', { status: 200, error: 'net::ERR_HTTP2_PROTOCOL_ERROR' })), 'net::ERR_HTTP2_PROTOCOL_ERROR')
    assert.equal(failureOf(entry('https://a.test/', { status: 0, error: 'NS_ERROR_CONNECTION_REFUSED' })), 'NS_ERROR_CONNECTION_REFUSED')
    for (const status of [200, 304, 404, 500]) assert.equal(failureOf(entry('https://a.test/', { status })), null)
  })

  it('a request the page gave up, in either browser, is no failure but is counted; one still in flight is neither', () => {
    const got = failuresOf([
      entry('https://a.test/1', { status: 0, error: 'net::ERR_ABORTED' }),
      entry('https://a.test/2', { status: 0, error: 'NS_BINDING_ABORTED' }),
      entry('https://a.test/3', { status: 0, incomplete: true }),
      entry('https://b.test/4', { status: 0, error: 'net::ERR_CONNECTION_REFUSED' })
    ])
    assert.equal(got.aborted, 2)
    assert.deepEqual(got.failed, [{ url: 'https://b.test/4', origin: 'https://b.test', error: 'net::ERR_CONNECTION_REFUSED' }])
    assert.deepEqual(got.allowed, [])
  })

  it('--allow-failed patterns: * for any run of characters, matched against the whole URL; the rest literal', () => {
    const allow = allowList(['https://ads.test/*', '*/beacon?id=*'])
    assert.equal(allow('https://ads.test/x.js'), 'https://ads.test/*')
    assert.equal(allow('https://a.test/beacon?id=3'), '*/beacon?id=*')
    assert.equal(allow('https://ads.test.evil/x.js'), null) // the / after the host is part of the pattern
    assert.equal(allow('https://a.test/beaconXid=3'), null) // ? is literal, not a wildcard
    assert.equal(allowList(['https://a.test/x.png'])('https://a.test/x.png'), 'https://a.test/x.png')
    assert.equal(allowList(['https://a.test/x.png'])('https://a.test/x.png?v=2'), null) // without *, the whole URL
    assert.throws(() => patternOf('  '), /empty/)
    const got = failuresOf([entry('https://ads.test/x.js', { status: 0, error: 'net::ERR_NAME_NOT_RESOLVED' }), entry('https://b.test/y', { status: 0, error: 'net::ERR_TIMED_OUT' })], allow)
    assert.deepEqual(got.allowed.map(f => f.url), ['https://ads.test/x.js'])
    assert.deepEqual(got.failed.map(f => f.url), ['https://b.test/y'])
  })

  it('names the origins that failed, most first, and a load\'s problem with its first failures', () => {
    const failed = [
      { url: 'https://b.test/1', origin: 'https://b.test', error: 'net::ERR_CERT_AUTHORITY_INVALID' },
      { url: 'https://c.test/1', origin: 'https://c.test', error: 'net::ERR_CERT_AUTHORITY_INVALID' },
      { url: 'https://c.test/2', origin: 'https://c.test', error: 'net::ERR_CERT_AUTHORITY_INVALID' },
      { url: 'https://c.test/3', origin: 'https://c.test', error: 'net::ERR_TIMED_OUT' }
    ]
    assert.deepEqual(failedOrigins(failed), [
      { origin: 'https://c.test', failed: 3, errors: ['net::ERR_CERT_AUTHORITY_INVALID', 'net::ERR_TIMED_OUT'] },
      { origin: 'https://b.test', failed: 1, errors: ['net::ERR_CERT_AUTHORITY_INVALID'] }
    ])
    const text = failuresProblem(failed, 40)
    assert.match(text, /^4 of 40 requests failed below HTTP \(https:\/\/b\.test\/1: net::ERR_CERT_AUTHORITY_INVALID; https:\/\/c\.test\/1: .*; https:\/\/c\.test\/2: .*; …\); give --allow-failed/)
    assert.equal(failuresProblem([], 40), null)
  })
})

'use strict'

// server/replay/freshness.js: the recorded Date, Expires and Last-Modified
// moved to the time of the answer (each response's age and freshness kept,
// as Web Page Replay's updateDates does), and conditional requests answered
// 304 where the recorded validators match (RFC 9110 §13).
const assert = require('node:assert/strict')
const {
  parseHttpDate, formatHttpDate, shiftedHeaders, recordedTimeOf, entityTags, noneMatch, notModified, notModifiedHeaders, NOT_MODIFIED_KEPT
} = require('../../../server/replay/freshness')

const S = 1000
const MIN = 60 * S
const H = 60 * MIN
const D = 24 * H
const REC = Date.parse('2026-11-27T10:00:00.000Z') // the recorded Date
const NOW = Date.parse('2026-12-01T22:59:08.437Z') // the answer's time (ms kept: the Date has whole seconds)
const NOW_S = Date.parse('2026-12-01T22:59:08.000Z')
const http = ms => formatHttpDate(ms)
const get = (headers, name) => headers.filter(([n]) => n.toLowerCase() === name).map(([, v]) => v)
const one = (headers, name) => { const v = get(headers, name); assert.equal(v.length, 1, `${name}: ${JSON.stringify(v)}`); return v[0] }

describe('server/replay/freshness.js: HTTP-dates', () => {
  it('parses the three forms RFC 9110 §5.6.7 names, and formats IMF-fixdate', () => {
    const t = Date.parse('1994-11-06T08:49:37Z')
    assert.equal(parseHttpDate('Sun, 06 Nov 1994 08:49:37 GMT'), t)
    assert.equal(parseHttpDate('Sunday, 06-Nov-94 08:49:37 GMT'), t) // RFC 850, two-digit year
    assert.equal(parseHttpDate('Sun Nov  6 08:49:37 1994'), t) // asctime
    assert.equal(formatHttpDate(t), 'Sun, 06 Nov 1994 08:49:37 GMT')
    assert.equal(parseHttpDate(formatHttpDate(NOW_S)), NOW_S)
  })

  it('takes what servers send beside the standard: no weekday, one-digit day, UTC, lower case, a +0000 or other offset', () => {
    const t = Date.parse('2026-11-27T10:00:00Z')
    for (const v of ['27 Nov 2026 10:00:00 GMT', 'Fri, 27 Nov 2026 10:00:00 UTC', 'fri, 27 nov 2026 10:00:00 gmt', ' Fri, 27 Nov 2026 10:00:00 GMT ',
      'Fri, 27 Nov 2026 10:00:00 +0000', 'Fri, 27 Nov 2026 11:00:00 +0100', 'Fri, 27 Nov 2026 10:00:00']) assert.equal(parseHttpDate(v), t, v)
    assert.equal(parseHttpDate('Tue, 1 Dec 2026 22:59:08 GMT'), NOW_S)
  })

  it('an RFC 850 two-digit year more than 50 years ahead is the most recent past year with those digits', () => {
    const year = v => new Date(parseHttpDate(v, NOW)).getUTCFullYear() // read in 2026
    assert.equal(year('Friday, 27-Nov-26 10:00:00 GMT'), 2026)
    assert.equal(year('Friday, 27-Nov-70 10:00:00 GMT'), 2070)
    assert.equal(year('Monday, 27-Nov-79 10:00:00 GMT'), 1979)
  })

  it('is not an HTTP-date: 0, -1, empty, a number, an ISO date, a day that does not exist, an hour of 25', () => {
    for (const v of ['0', '-1', '', '   ', '1764237600', '2026-11-27T10:00:00Z', 'Mon, 31 Feb 2026 10:00:00 GMT', 'Fri, 27 Nov 2026 25:00:00 GMT',
      'Fri, 27 Foo 2026 10:00:00 GMT', 'Fri, 27 Nov 2026 10:00 GMT', 'Fri, 27 Nov 2026 10:00:00 EST', 'now', undefined, null, 42]) {
      assert.equal(parseHttpDate(v), null, JSON.stringify(v))
    }
  })
})

describe('server/replay/freshness.js: shiftedHeaders', () => {
  const recorded = [
    ['Content-Type', 'text/css'],
    ['Date', http(REC)],
    ['Last-Modified', http(REC - 3 * H)],
    ['Expires', http(REC + 5 * MIN)],
    ['Cache-Control', 'public'],
    ['Age', '42']
  ]

  it('Date becomes now (whole seconds); Expires and Last-Modified move by as much: Expires − Date and Date − Last-Modified as recorded', () => {
    const { headers, shiftMs, from } = shiftedHeaders(recorded, { now: NOW })
    assert.equal(from, 'date')
    assert.equal(shiftMs, NOW_S - REC)
    assert.equal(one(headers, 'date'), http(NOW_S))
    assert.equal(parseHttpDate(one(headers, 'expires')) - parseHttpDate(one(headers, 'date')), 5 * MIN)
    assert.equal(parseHttpDate(one(headers, 'date')) - parseHttpDate(one(headers, 'last-modified')), 3 * H)
    // Everything else, Age too, as recorded, in its order and with its names' case.
    assert.deepEqual(headers.map(([n]) => n), recorded.map(([n]) => n))
    assert.equal(one(headers, 'age'), '42')
    assert.equal(one(headers, 'cache-control'), 'public')
    assert.deepEqual(get(recorded, 'date'), [http(REC)]) // the recorded list is not changed
  })

  it('as Web Page Replay\'s TestUpdateDates: a year later, every date a year later', () => {
    const { headers } = shiftedHeaders([['Date', 'Thu, 17 Aug 2017 12:00:00 GMT'], ['Last-Modified', 'Thu, 17 Aug 2017 09:00:00 GMT'],
      ['Expires', 'Thu, 17 Aug 2017 17:00:00 GMT']], { now: Date.parse('2018-08-17T12:00:00Z') })
    assert.deepEqual(headers, [['Date', 'Fri, 17 Aug 2018 12:00:00 GMT'], ['Last-Modified', 'Fri, 17 Aug 2018 09:00:00 GMT'], ['Expires', 'Fri, 17 Aug 2018 17:00:00 GMT']])
  })

  it('Expires: 0 and -1 (already expired, RFC 9111 §5.3) and any other invalid date stay as recorded', () => {
    for (const bad of ['0', '-1', 'never', '']) {
      const { headers } = shiftedHeaders([['Date', http(REC)], ['Expires', bad], ['Last-Modified', 'yesterday']], { now: NOW })
      assert.equal(one(headers, 'expires'), bad)
      assert.equal(one(headers, 'last-modified'), 'yesterday')
      assert.equal(one(headers, 'date'), http(NOW_S))
    }
  })

  it('an Expires before the Date stays before it; one equal to the Date stays equal', () => {
    const { headers } = shiftedHeaders([['Date', http(REC)], ['Expires', http(REC - D)]], { now: NOW })
    assert.equal(parseHttpDate(one(headers, 'expires')), NOW_S - D)
    const same = shiftedHeaders([['date', http(REC)], ['expires', http(REC)]], { now: NOW }).headers
    assert.equal(one(same, 'expires'), one(same, 'date'))
  })

  it('no recorded Date: none is added; Expires and Last-Modified move from the entry\'s start (startedDateTime), to whole seconds', () => {
    const started = REC + 250 // the request went out 250 ms into the second
    const { headers, shiftMs, from } = shiftedHeaders([['Expires', http(REC + 60 * S)], ['Last-Modified', http(REC - D)]], { startedMs: started, now: NOW })
    assert.equal(from, 'started')
    assert.equal(shiftMs, NOW_S - REC)
    assert.deepEqual(get(headers, 'date'), [])
    assert.equal(parseHttpDate(one(headers, 'expires')), NOW_S + 60 * S)
    assert.equal(parseHttpDate(one(headers, 'last-modified')), NOW_S - D)
  })

  it('an invalid recorded Date is left as it is (a browser ignores it, as it did live); the others move from the entry\'s start', () => {
    const { headers, from } = shiftedHeaders([['Date', 'garbage'], ['Expires', http(REC + 60 * S)]], { startedMs: REC, now: NOW })
    assert.equal(from, 'started')
    assert.equal(one(headers, 'date'), 'garbage')
    assert.equal(parseHttpDate(one(headers, 'expires')), NOW_S + 60 * S)
  })

  it('nothing to measure from (no valid Date, no start): the headers as recorded', () => {
    const list = [['Expires', http(REC)], ['Last-Modified', http(REC - D)]]
    const { headers, shiftMs, from } = shiftedHeaders(list, { startedMs: null, now: NOW })
    assert.deepEqual(headers, list)
    assert.equal(shiftMs, 0)
    assert.equal(from, null)
    assert.equal(recordedTimeOf(list, NaN), null)
  })

  it('a recorded time in the future (a skewed clock) moves the dates back by as much', () => {
    const { headers } = shiftedHeaders([['Date', http(NOW_S + D)], ['Last-Modified', http(NOW_S)]], { now: NOW })
    assert.equal(one(headers, 'date'), http(NOW_S))
    assert.equal(parseHttpDate(one(headers, 'last-modified')), NOW_S - D)
  })

  it('the first valid Date is the reference; repeated Date headers all become now', () => {
    const { headers } = shiftedHeaders([['Date', 'bad'], ['Date', http(REC)], ['date', http(REC - H)], ['Expires', http(REC + H)]], { now: NOW })
    assert.deepEqual(get(headers, 'date'), ['bad', http(NOW_S), http(NOW_S)])
    assert.equal(parseHttpDate(one(headers, 'expires')), NOW_S + H)
  })

  it('a date the shift would carry past year 9999 (or before 1000) stays as recorded rather than become unreadable', () => {
    const { headers } = shiftedHeaders([['Date', http(REC)], ['Expires', 'Fri, 31 Dec 9999 23:59:59 GMT']], { now: NOW })
    assert.equal(one(headers, 'expires'), 'Fri, 31 Dec 9999 23:59:59 GMT')
  })

  it('the other date headers (Retry-After, a cookie\'s expires) are not this module\'s: as recorded', () => {
    const list = [['Date', http(REC)], ['Retry-After', http(REC + H)], ['Set-Cookie', `a=1; Expires=${http(REC + D)}`]]
    const { headers } = shiftedHeaders(list, { now: NOW })
    assert.deepEqual(headers.slice(1), list.slice(1))
  })
})

describe('server/replay/freshness.js: conditional requests', () => {
  const LM = NOW_S - 3 * H
  const response = (extra = []) => ({ status: 200, headers: [['Date', http(NOW_S)], ['Content-Type', 'text/css'], ...extra] })

  it('entity-tag lists: commas inside a tag kept, blanks dropped, unquoted ones taken as they are', () => {
    assert.deepEqual(entityTags('"a", W/"b" ,"c,d",,  e'), ['"a"', 'W/"b"', '"c,d"', 'e'])
    assert.deepEqual(entityTags(['"a"', '"b"']), ['"a"', '"b"'])
    assert.deepEqual(entityTags(''), [])
  })

  it('If-None-Match by weak comparison (RFC 9110 §13.1.2): W/ on either side, any of a list, *', () => {
    assert.equal(noneMatch('"v1"', '"v1"'), false)
    assert.equal(noneMatch('W/"v1"', '"v1"'), false)
    assert.equal(noneMatch('"v1"', 'W/"v1"'), false)
    assert.equal(noneMatch('"x", "v1"', '"v1"'), false)
    assert.equal(noneMatch('*', '"v1"'), false)
    assert.equal(noneMatch('*', null), false) // a current representation exists
    assert.equal(noneMatch('"v2"', '"v1"'), true)
    assert.equal(noneMatch('"V1"', '"v1"'), true) // opaque tags compare exactly
    assert.equal(noneMatch('v1', '"v1"'), true)
    assert.equal(noneMatch('"v1"', null), true) // nothing to match
  })

  it('304 when If-None-Match matches the recorded ETag (GET and HEAD)', () => {
    const r = response([['ETag', 'W/"v1"']])
    assert.equal(notModified({ method: 'GET', request: { 'if-none-match': '"v1"' }, response: r }), 'etag')
    assert.equal(notModified({ method: 'HEAD', request: { 'if-none-match': 'W/"v1"' }, response: r }), 'etag')
    assert.equal(notModified({ method: 'GET', request: { 'if-none-match': '"v2"' }, response: r }), null)
  })

  it('If-None-Match present: If-Modified-Since is not looked at, even when it alone would give a 304 (RFC 9110 §13.2.2)', () => {
    const r = response([['ETag', '"v1"'], ['Last-Modified', http(LM)]])
    assert.equal(notModified({ method: 'GET', request: { 'if-none-match': '"old"', 'if-modified-since': http(LM) }, response: r, lastModifiedMs: LM }), null)
    assert.equal(notModified({ method: 'GET', request: { 'if-none-match': '"v1"', 'if-modified-since': http(LM - D) }, response: r, lastModifiedMs: LM }), 'etag')
  })

  it('If-Modified-Since: 304 when the representation was last modified at or before it, else the response', () => {
    const r = response([['Last-Modified', http(LM)]])
    const ask = (ims, lastModifiedMs = LM) => notModified({ method: 'GET', request: { 'if-modified-since': ims }, response: r, lastModifiedMs })
    assert.equal(ask(http(LM)), 'date')
    assert.equal(ask(http(LM + H)), 'date')
    assert.equal(ask(http(LM - S)), null)
    assert.equal(ask('not a date'), null) // ignored (RFC 9110 §13.1.3)
    assert.equal(ask(http(LM), null), null) // no Last-Modified: ignored
  })

  it('only GET and HEAD, and only for a recorded 2xx (RFC 9110 §13.2.1); no conditional header, no 304', () => {
    const r = response([['ETag', '"v1"']])
    assert.equal(notModified({ method: 'POST', request: { 'if-none-match': '"v1"' }, response: r }), null)
    assert.equal(notModified({ method: 'GET', request: { 'if-none-match': '"v1"' }, response: { ...r, status: 404 } }), null)
    assert.equal(notModified({ method: 'GET', request: { 'if-none-match': '"v1"' }, response: { ...r, status: 302 } }), null)
    assert.equal(notModified({ method: 'GET', request: { 'if-none-match': '"v1"' }, response: { ...r, status: 203 } }), 'etag')
    assert.equal(notModified({ method: 'GET', request: {}, response: r }), null)
  })

  it('a 304 carries what RFC 9110 §15.4.5 asks of it (Date, ETag, Cache-Control, Expires, Vary, Content-Location), nothing of the body', () => {
    const served = [['Date', http(NOW_S)], ['ETag', '"v1"'], ['Cache-Control', 'no-cache'], ['Expires', http(NOW_S + H)], ['Vary', 'Accept-Encoding'],
      ['Content-Location', '/a.css'], ['Content-Type', 'text/css'], ['Content-Encoding', 'br'], ['Last-Modified', http(LM)], ['Set-Cookie', 'a=1'], ['Age', '3']]
    assert.deepEqual(notModifiedHeaders(served), served.slice(0, 6))
    assert.deepEqual([...NOT_MODIFIED_KEPT].sort(), ['cache-control', 'content-location', 'date', 'etag', 'expires', 'vary'])
  })

  it('without an ETag, the 304 keeps Last-Modified to guide the cache\'s update (RFC 9110 §15.4.5)', () => {
    const served = [['Date', http(NOW_S)], ['Last-Modified', http(LM)], ['Content-Type', 'text/css']]
    assert.deepEqual(notModifiedHeaders(served), served.slice(0, 2))
  })
})

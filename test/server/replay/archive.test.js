'use strict'

// server/replay/archive.js, response.js, match.js and har-check.js on
// constructed HARs (test/server/replay/har-fixture.js): what a HAR becomes
// (origins recorded or derived with what was assumed, bodies decoded and
// encoded again with the recorded coding, hop-by-hop headers dropped,
// placeholders for bodies the browser could not give), which entry answers a
// request, and the errors that name the file and the field.
const assert = require('node:assert/strict')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const zlib = require('node:zlib')
const { archiveFromHar, readArchive } = require('../../../server/replay/archive')
const { createMatcher } = require('../../../server/replay/match')
const { h2benchHar, devtoolsHar, BODIES, PNG } = require('./har-fixture')

const find = (archive, url) => archive.entries.find(e => e.url === url)
const names = response => response.headers.map(([n]) => n.toLowerCase())

describe('server/replay/archive.js: a recorder\'s HAR', () => {
  const archive = archiveFromHar(h2benchHar(), { file: 'site.har' })

  it('takes the origins as recorded (address, names, certificate, rtt, protocol), assuming nothing', () => {
    assert.equal(archive.source, 'h2bench')
    assert.deepEqual(archive.origins.map(o => [o.origin, o.host, o.port, o.address, o.rttMs, o.protocol]), [
      ['https://a.example', 'a.example', 443, '93.184.216.34', 12, 'h2'],
      ['https://b.example', 'b.example', 443, '93.184.216.34', 10, 'h2'],
      ['https://c.example:8443', 'c.example', 8443, '198.51.100.7', 20, 'http/1.1']
    ])
    assert.equal(archive.origins[0].certId, archive.origins[1].certId)
    assert.deepEqual(archive.origins.flatMap(o => o.assumed), [])
    assert.deepEqual(archive.assumed, [])
  })

  it('keeps the entries in recorded order with the recorder\'s server time, and leaves out what it cannot replay', () => {
    assert.deepEqual(archive.entries.slice(0, 3).map(e => [e.method, e.origin, e.path, e.serverTimeMs]), [
      ['GET', 'https://a.example', '/', 150], ['GET', 'https://a.example', '/app.js?v=1', 5], ['GET', 'https://b.example', '/logo.png', 60]
    ])
    assert.deepEqual(archive.summary, {
      entries: 11,
      served: 10,
      skipped: [{ index: 10, url: 'http://plain.example/', why: 'http: is not replayed (https only)' }],
      bodiless: 2, // /gone and the redirect: the browser gave neither body
      reencoded: 2,
      unknownEncoding: 1,
      origins: 3
    })
  })

  it('stores a body compressed again with the recorded content-encoding (gzip, br): it decodes to the recorded bytes', () => {
    const html = find(archive, 'https://a.example/').response
    assert.equal(html.encoding, 'gzip')
    assert.deepEqual(zlib.gunzipSync(html.body), BODIES['https://a.example/'])
    assert.ok(html.body.length < BODIES['https://a.example/'].length)
    const js = find(archive, 'https://a.example/app.js?v=1').response
    assert.equal(js.encoding, 'br')
    assert.deepEqual(zlib.brotliDecompressSync(js.body), BODIES['https://a.example/app.js?v=1'])
    assert.ok(names(html).includes('content-encoding'))
  })

  it('decodes a base64 (binary) body to its exact bytes', () => {
    const png = find(archive, 'https://b.example/logo.png').response
    assert.deepEqual(png.body, PNG)
    assert.equal(png.encoding, null)
  })

  it('serves an unknown content-encoding as identity, drops the header and says so', () => {
    const weird = find(archive, 'https://a.example/weird').response
    assert.deepEqual(weird.body, BODIES['https://a.example/weird'])
    assert.ok(!names(weird).includes('content-encoding'))
    assert.match(weird.notes.join(' '), /content-encoding compress .*identity/)
  })

  it('drops hop-by-hop headers (also those Connection names), Alt-Svc and Content-Length, keeps both Set-Cookie', () => {
    const data = find(archive, 'https://c.example:8443/data.json').response
    assert.deepEqual(data.headers, [['content-type', 'application/json'], ['set-cookie', 'a=1; Secure'], ['set-cookie', 'b=2; Secure'], ['x-kept', 'yes']])
    assert.ok(!names(find(archive, 'https://b.example/logo.png').response).includes('alt-svc'))
    assert.ok(!names(find(archive, 'https://a.example/').response).includes('content-length'))
  })

  it('gives a body the browser could not give as content.size placeholder bytes, counted as bodiless', () => {
    const gone = find(archive, 'https://c.example:8443/gone').response
    assert.equal(gone.bodiless, true)
    assert.deepEqual(gone.body, Buffer.alloc(1234, ' '))
    assert.match(gone.notes[0], /no recorded body: serving 1234 placeholder bytes/)
  })

  it('splits headers CDP joined with newlines, and encodes zstd where this Node can (else identity, said)', () => {
    const har = h2benchHar()
    const e = har.log.entries[0]
    e.response.headers = [{ name: 'set-cookie', value: 'x=1\ny=2' }, { name: 'content-encoding', value: 'zstd' }]
    const r = archiveFromHar(har).entries[0].response
    assert.deepEqual(r.headers.filter(([n]) => n === 'set-cookie'), [['set-cookie', 'x=1'], ['set-cookie', 'y=2']])
    if (typeof zlib.zstdCompressSync === 'function') {
      assert.equal(r.encoding, 'zstd')
      assert.deepEqual(zlib.zstdDecompressSync(r.body), BODIES['https://a.example/'])
    } else {
      assert.equal(r.encoding, 'identity (unknown)')
      assert.deepEqual(r.body, BODIES['https://a.example/'])
    }
  })
})

describe('server/replay/archive.js: a HAR saved by DevTools (no _h2bench fields)', () => {
  const archive = archiveFromHar(devtoolsHar(), { file: 'devtools.har' })

  it('derives each origin from its entries: address from serverIPAddress, names = [host], no shared certificate, rtt = smallest connect less ssl', () => {
    assert.equal(archive.source, 'devtools')
    assert.deepEqual(archive.origins.map(o => [o.origin, o.address, o.certNames, o.certId, o.rttMs, o.protocol]), [
      ['https://a.example', '93.184.216.34', ['a.example'], null, 12, 'h2'],
      ['https://b.example', '93.184.216.34', ['b.example'], null, 10, 'h2'],
      ['https://c.example:8443', '198.51.100.7', ['c.example'], null, 20, 'http/1.1']
    ])
  })

  it('says what it assumed, for the archive and for each origin', () => {
    assert.match(archive.assumed[0], /no log\._h2bench/)
    const a = archive.origins[0].assumed.join(' | ')
    assert.match(a, /certificate assumed to name only a\.example, and not shared/)
    assert.match(a, /timings\.wait less its smallest TCP connect time, 12 ms/)
  })

  it('takes server time as timings.wait less the origin\'s connect time (never below 0)', () => {
    // the fixture's wait is the recorder's server time + 10 ms
    assert.equal(find(archive, 'https://a.example/').serverTimeMs, 150 + 10 - 12)
    assert.equal(find(archive, 'https://b.example/logo.png').serverTimeMs, 60 + 10 - 10)
    assert.equal(find(archive, 'https://c.example:8443/data.json').serverTimeMs, 0)
  })

  it('with no connect time and no address recorded: server time is the whole wait, and an address of its own (said)', () => {
    const har = devtoolsHar()
    har.log.entries = har.log.entries.filter(e => e.request.url.startsWith('https://b.example/api'))
    for (const e of har.log.entries) { delete e.serverIPAddress; e.timings.connect = -1 }
    const a = archiveFromHar(har)
    assert.equal(a.origins[0].address, null)
    assert.match(a.origins[0].assumed.join(' '), /no serverIPAddress recorded/)
    assert.match(a.origins[0].assumed.join(' '), /server time taken as timings\.wait whole/)
    assert.equal(a.entries[0].serverTimeMs, 15)
  })
})

describe('server/replay/match.js', () => {
  const archive = archiveFromHar(h2benchHar())
  const body = m => m && m.entry.response.body.toString()

  it('exact first; several entries of one key in recorded order, then the last again', () => {
    const m = createMatcher(archive)
    assert.equal(body(m.match('GET', 'https://b.example', '/api?x=1&y=2')), '{"call":1}')
    assert.equal(body(m.match('GET', 'https://b.example', '/api?x=1&y=2')), '{"call":2}')
    assert.equal(body(m.match('GET', 'https://b.example', '/api?x=1&y=2')), '{"call":2}')
    assert.equal(m.match('get', 'https://b.example', '/api?x=9&y=2').how, 'exact')
    // another matcher keeps its own order
    assert.equal(body(createMatcher(archive).match('GET', 'https://b.example', '/api?x=1&y=2')), '{"call":1}')
  })

  it('then the same path with another query: the entry sharing most parameters, the first recorded on a tie', () => {
    const m = createMatcher(archive)
    const x9 = m.match('GET', 'https://b.example', '/api?y=2&x=9&z=1')
    assert.equal(x9.how, 'fuzzy')
    assert.equal(body(x9), '{"call":"x9"}')
    assert.equal(body(m.match('GET', 'https://b.example', '/api?x=1&y=3')), '{"call":1}')
    assert.equal(body(m.match('GET', 'https://b.example', '/api?q=0')), '{"call":2}') // a tie: the first key, its next entry
    assert.equal(m.match('GET', 'https://a.example', '/app.js').entry.path, '/app.js?v=1') // no query at all
  })

  it('then none: another path, origin or method; a HEAD is answered from its GET', () => {
    const m = createMatcher(archive)
    assert.equal(m.match('GET', 'https://a.example', '/nope'), null)
    assert.equal(m.match('GET', 'https://c.example', '/data.json'), null) // c.example:8443 was recorded, not :443
    assert.equal(m.match('POST', 'https://a.example', '/'), null)
    assert.equal(m.match('HEAD', 'https://c.example:8443', '/data.json').entry.path, '/data.json')
    assert.equal(m.match('GET', 'https://a.example', '/#fragment').entry.path, '/')
  })
})

describe('server/replay/har-check.js: a HAR replay cannot use', () => {
  const bad = (mutate, re) => {
    const har = h2benchHar()
    mutate(har)
    assert.throws(() => archiveFromHar(har, { file: 'site.har' }), err => {
      assert.equal(err.code, 'H2B_BAD_HAR')
      assert.equal(err.expose, true)
      assert.match(err.message, /^site\.har: /)
      assert.match(err.message, re)
      return true
    })
  }

  it('names the file and the field that is missing or wrong', () => {
    bad(h => { h.log.version = '1.1' }, /log\.version is "1\.1", not "1\.2"/)
    bad(h => { delete h.log.entries }, /log\.entries is missing/)
    bad(h => { h.log.entries = [] }, /log\.entries is empty/)
    bad(h => { delete h.log.entries[3].response.status }, /log\.entries\[3\]\.response\.status is missing/)
    bad(h => { h.log.entries[2].response.content.encoding = 'hex' }, /log\.entries\[2\]\.response\.content\.encoding is "hex"/)
    bad(h => { h.log.entries[1].request.url = 'not a url' }, /log\.entries\[1\]\.request\.url .* is not a URL/)
    bad(h => { h.log.entries[0]._h2bench.bodyComplete = 'yes' }, /log\.entries\[0\]\._h2bench\.bodyComplete is not a boolean/)
    bad(h => { h.log._h2bench.origins[1].certNames = 'b.example' }, /log\._h2bench\.origins\[1\]\.certNames is not an array/)
    bad(h => { h.log._h2bench.version = 2 }, /log\._h2bench\.version is 2/)
    bad(h => { h.log.entries.forEach(e => { e.request.url = 'http://a.example/' }) }, /no https entry/)
    bad(h => { delete h.log }, /: log is missing/)
  })

  it('readArchive: a file that is not JSON, or cannot be read, is named', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'h2bench-replay-test-'))
    try {
      const file = path.join(dir, 'broken.har')
      fs.writeFileSync(file, '{"log": ')
      assert.throws(() => readArchive(file), new RegExp(`^HarError: ${file} is not JSON`))
      assert.throws(() => readArchive(path.join(dir, 'absent.har')), /cannot read .*absent\.har \(ENOENT\)/)
      fs.writeFileSync(file, JSON.stringify(h2benchHar()))
      assert.equal(readArchive(file).entries.length, 10)
    } finally {
      fs.rmSync(dir, { recursive: true, force: true })
    }
  })
})

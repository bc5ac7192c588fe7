'use strict'

// A recording's HAR (harness/har/cdp-har.js with record, harness/har/recording.js) from constructed
// CDP events in the shapes Chromium sends, as test/harness/har.test.js does for the plain HAR: bodies
// (text, binary, one the browser could not give, a redirect's), h2bench's entry fields (origin, server
// time, bodyComplete) and the log's origins (address, certificate names and id, shared by two origins
// that presented one leaf; round trip from connect timings or measured outside; protocol).
// test/bench/slow/record.test.js checks the same on a real recording.
const assert = require('node:assert/strict')
const crypto = require('node:crypto')
const { EventEmitter } = require('node:events')
const { recordCdp, cdpEntries, START_PAGE, RECORDING, RESPONSE_BODY, CERTIFICATE, ROUND_TRIP, RECORDING_BUFFERS } = require('../../harness/har/cdp-har')
const { bodyContent, certIdOf, tcpConnectMs, firstByteMs, logFields } = require('../../harness/har/recording')
const { buildHar } = require('../../harness/har/har')

const T0 = 100
const WALL0 = 1800000000
const A = 'https://a.example'
const B = 'https://b.example:8443'
const C = 'https://c.example'
const sha256 = data => crypto.createHash('sha256').update(data).digest('hex')
const LEAF_AB = Buffer.from('the DER of the leaf a.example and b.example share')
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0xff, 0xfe, 0x80])
const HTML = '<!doctype html><p>h\u00e9llo</p>' // é: 2 bytes in UTF-8

const security = (names, subjectName = names[0]) => ({
  protocol: 'TLS 1.3',
  keyExchange: '',
  cipher: 'AES_128_GCM',
  certificateId: 0,
  subjectName,
  sanList: names,
  issuer: 'a test CA',
  validFrom: 1800000000,
  validTo: 1900000000,
  signedCertificateTimestampList: [],
  certificateTransparencyCompliance: 'unknown',
  encryptedClientHello: false
})
// Chromium's timing: ms after requestTime; a new connection (TCP 2 ms, TLS 8 ms) or a reused one.
const fresh = requestTime => ({
  requestTime, dnsStart: 1, dnsEnd: 3, connectStart: 3, connectEnd: 13, sslStart: 5, sslEnd: 13,
  sendStart: 14, sendEnd: 15, receiveHeadersStart: 40, receiveHeadersEnd: 41
})
const reused = (requestTime, firstByte = 12) => ({
  requestTime, dnsStart: -1, dnsEnd: -1, connectStart: -1, connectEnd: -1, sslStart: -1, sslEnd: -1,
  sendStart: 1, sendEnd: 2, receiveHeadersStart: firstByte, receiveHeadersEnd: firstByte + 0.5
})

const request = (id, url, ts = T0, redirectResponse) => ({ method: 'Network.requestWillBeSent', params: { requestId: id, request: { url, method: 'GET', headers: {} }, timestamp: ts, wallTime: WALL0 + ts - T0, type: 'Other', ...(redirectResponse ? { redirectResponse } : {}) } })
const responseOf = ({ url, timing, status = 200, protocol = 'h2', address = '192.0.2.1', names, headers = { 'content-type': 'text/html; charset=utf-8' }, mimeType = 'text/html' }) =>
  ({ url, status, statusText: '', headers, mimeType, connectionId: 1, remoteIPAddress: address, remotePort: 443, encodedDataLength: 50, timing, protocol, securityState: 'secure', ...(names ? { securityDetails: security(names) } : {}) })
const response = (id, ts, fields) => ({ method: 'Network.responseReceived', params: { requestId: id, timestamp: ts, type: 'Other', response: responseOf(fields) } })
const data = (id, ts, n) => ({ method: 'Network.dataReceived', params: { requestId: id, timestamp: ts, dataLength: n, encodedDataLength: n } })
const finished = (id, ts, n) => ({ method: 'Network.loadingFinished', params: { requestId: id, timestamp: ts, encodedDataLength: n } })
const body = (id, text, base64Encoded = false) => ({ method: RESPONSE_BODY, params: { requestId: id, body: text, base64Encoded } })

// A page on A (its document, a redirect, an image), an image from B (one leaf with A, a preconnected
// socket: no connect timings; its body evicted) and a script from C over h3 (its own leaf, no DER).
const NAMES_AB = ['a.example', 'b.example']
const events = [
  { method: RECORDING, params: {} },
  { method: START_PAGE, params: { id: 'page_1', title: `${A}/` } },
  request('D', `${A}/`),
  response('D', T0 + 0.05, { url: `${A}/`, timing: fresh(T0 + 0.001), names: NAMES_AB }),
  { method: CERTIFICATE, params: { origin: A, tableNames: [LEAF_AB.toString('base64'), Buffer.from('the CA').toString('base64')] } },
  data('D', T0 + 0.051, Buffer.byteLength(HTML)),
  finished('D', T0 + 0.052, 200),
  body('D', HTML),
  request('R', `${A}/old.png`, T0 + 0.06),
  request('R', `${A}/logo.png`, T0 + 0.07, responseOf({ url: `${A}/old.png`, status: 302, timing: reused(T0 + 0.06, 5), headers: { location: '/logo.png' }, names: NAMES_AB })),
  response('R', T0 + 0.08, { url: `${A}/logo.png`, timing: reused(T0 + 0.07), names: NAMES_AB, headers: { 'content-type': 'image/png' }, mimeType: 'image/png' }),
  data('R', T0 + 0.081, PNG.length),
  finished('R', T0 + 0.082, 80),
  body('R', PNG.toString('base64'), true),
  request('I', `${B}/photo.png`, T0 + 0.09),
  response('I', T0 + 0.1, { url: `${B}/photo.png`, timing: reused(T0 + 0.09, 30), names: NAMES_AB, headers: { 'content-type': 'image/png' }, mimeType: 'image/png' }),
  { method: CERTIFICATE, params: { origin: B, tableNames: [LEAF_AB.toString('base64')] } },
  data('I', T0 + 0.101, 4000),
  finished('I', T0 + 0.102, 4100),
  { method: RESPONSE_BODY, params: { requestId: 'I', error: 'No resource with given identifier found' } },
  request('S', `${C}/app.js`, T0 + 0.11),
  response('S', T0 + 0.12, { url: `${C}/app.js`, protocol: 'h3', address: '192.0.2.3', timing: fresh(T0 + 0.11), names: ['c.example'], headers: { 'content-type': 'text/javascript' }, mimeType: 'text/javascript' }),
  { method: CERTIFICATE, params: { origin: C, error: 'Protocol error (Network.getCertificate): not found' } },
  data('S', T0 + 0.121, 3),
  finished('S', T0 + 0.122, 60),
  body('S', 'x()')
]

describe('harness/har: a recording\'s HAR (bodies and h2bench\'s fields)', () => {
  const { entries, origins } = cdpEntries(events)
  const at = url => entries.find(e => e.request.url === url)

  it('keeps a text body as text, a binary one as base64, and says each is complete', () => {
    const doc = at(`${A}/`)
    assert.deepEqual(doc.response.content, { size: Buffer.byteLength(HTML), mimeType: 'text/html', text: HTML })
    assert.equal(doc._h2bench.bodyComplete, true)
    const png = at(`${A}/logo.png`)
    assert.equal(png.response.content.encoding, 'base64')
    assert.ok(Buffer.from(png.response.content.text, 'base64').equals(PNG))
    assert.equal(png.response.content.size, PNG.length)
    assert.equal(png._h2bench.bodyComplete, true)
  })

  it('a body the browser could not give (evicted) and a redirect: no text, bodyComplete false', () => {
    const photo = at(`${B}/photo.png`)
    assert.deepEqual(photo.response.content, { size: 4000, mimeType: 'image/png' })
    assert.equal(photo._h2bench.bodyComplete, false)
    const redirect = at(`${A}/old.png`)
    assert.equal(redirect.response.status, 302)
    assert.equal(redirect.response.content.text, undefined)
    assert.equal(redirect._h2bench.bodyComplete, false)
  })

  it('origins in order of first answer: host, port (443 left out of the origin), address, names, protocol', () => {
    assert.deepEqual(origins.map(o => [o.origin, o.host, o.port, o.address, o.protocol]), [
      [A, 'a.example', 443, '192.0.2.1', 'h2'],
      [B, 'b.example', 8443, '192.0.2.1', 'h2'],
      [C, 'c.example', 443, '192.0.2.3', 'h3']
    ])
    assert.deepEqual(origins[0].certNames, NAMES_AB)
    assert.deepEqual(origins[2].certNames, ['c.example'])
  })

  it('certId: the sha256 of the leaf\'s DER, one id for two origins that presented one leaf; without DER, of subject, issuer and validity', () => {
    assert.equal(origins[0].certId, sha256(LEAF_AB))
    assert.equal(origins[1].certId, origins[0].certId)
    const s = security(['c.example'])
    assert.equal(origins[2].certId, sha256([s.subjectName, s.issuer, s.validFrom, s.validTo].join('\n')))
    assert.notEqual(origins[2].certId, origins[0].certId)
    assert.equal(certIdOf([], null), null)
  })

  it('rttMs: the smallest TCP connect (connect start to TLS start); none over QUIC or a preconnected socket', () => {
    assert.equal(origins[0].rttMs, 2) // connectStart 3, sslStart 5
    assert.equal(origins[0].rttFrom, 'browser')
    assert.equal(origins[1].rttMs, null, 'B: reused (preconnected) sockets only')
    assert.equal(origins[2].rttMs, null, 'C: h3, no TCP connect')
    assert.equal(tcpConnectMs({ connectStart: 3, connectEnd: 4.5, sslStart: -1 }, 'http/1.1'), 1.5, 'no TLS: to connect end')
    assert.equal(tcpConnectMs(fresh(0), 'h3'), null)
  })

  it('serverTimeMs: request sent to first byte less the origin\'s round trip, never below 0; null with no round trip', () => {
    assert.equal(at(`${A}/`)._h2bench.serverTimeMs, 40 - 14 - 2) // from sendStart: an upper bound
    assert.equal(at(`${A}/logo.png`)._h2bench.serverTimeMs, 12 - 1 - 2)
    assert.equal(at(`${A}/old.png`)._h2bench.serverTimeMs, 5 - 1 - 2, 'a redirect hop has its own')
    assert.equal(at(`${B}/photo.png`)._h2bench.serverTimeMs, null)
    assert.deepEqual(entries.map(e => e._h2bench.origin), [A, A, A, B, C])
    assert.equal(firstByteMs({ sendStart: 1, sendEnd: 9, receiveHeadersStart: 5 }), 4, 'from sendStart, even where sendEnd is noted after the first byte')
    assert.equal(firstByteMs({ sendStart: 1, sendEnd: 30, receiveHeadersStart: 260 }), 259, 'a late sendEnd does not shorten the span')
    assert.equal(firstByteMs({ sendStart: -1, sendEnd: -1, receiveHeadersStart: 5 }), null)
    // a round trip longer than the wait: 0, not below
    const slow = cdpEntries([...events, { method: ROUND_TRIP, params: { origin: B, rttMs: 50, from: 'tcp-connect' } }])
    assert.equal(slow.entries.find(e => e.request.url === `${B}/photo.png`)._h2bench.serverTimeMs, 0)
  })

  it('a round trip measured outside the browser (ROUND_TRIP) serves an origin the browser showed none of', () => {
    const more = cdpEntries([...events, { method: ROUND_TRIP, params: { origin: B, rttMs: 7.5, from: 'tcp-connect' } }, { method: ROUND_TRIP, params: { origin: A, rttMs: 99, from: 'tcp-connect' } }])
    const [a, b] = more.origins
    assert.deepEqual([b.rttMs, b.rttFrom], [7.5, 'tcp-connect'])
    assert.equal(more.entries.find(e => e.request.url === `${B}/photo.png`)._h2bench.serverTimeMs, 30 - 1 - 7.5) // sendStart 1
    assert.deepEqual([a.rttMs, a.rttFrom], [2, 'browser'], 'the browser\'s own connect timings come first')
  })

  it('re-encodes latin-1 text to its bytes; keeps text it cannot make bytes of, not complete', () => {
    const latin = bodyContent({ body: 'caf\u00e9', base64Encoded: false }, 4, [{ name: 'Content-Type', value: 'text/html; charset=ISO-8859-1' }])
    assert.deepEqual(latin, { text: Buffer.from([0x63, 0x61, 0x66, 0xe9]).toString('base64'), encoding: 'base64', size: 4, complete: true })
    const other = bodyContent({ body: '\u65e5\u672c', base64Encoded: false }, 4, [{ name: 'content-type', value: 'text/plain; charset=Shift_JIS' }])
    assert.equal(other.text, '\u65e5\u672c')
    assert.equal(other.complete, false)
    assert.match(other.why, /6 UTF-8 bytes where the browser counted 4 \(charset Shift_JIS\)/)
    assert.deepEqual(bodyContent({ body: '', base64Encoded: false }, 0, []), { text: '', size: 0, complete: true })
  })

  it('without RECORDING among the events: the plain HAR, no body, no _h2bench, no origins', () => {
    const plain = cdpEntries(events.filter(e => e.method !== RECORDING))
    assert.equal(plain.origins, undefined)
    assert.equal(plain.entries[0]._h2bench, undefined)
    assert.deepEqual(plain.entries[0].response.content, { size: Buffer.byteLength(HTML), mimeType: 'text/html' })
  })

  it('buildHar puts the log\'s _h2bench after the entries', () => {
    const fields = logFields({ browser: { name: 'Chromium', version: '156.0.8078.108' }, recordedAt: WALL0 * 1000, origins })
    assert.deepEqual(Object.keys(fields), ['recorder', 'version', 'recordedAt', 'browser', 'origins'])
    assert.equal(fields.browser, 'Chromium 156.0.8078.108')
    assert.equal(fields.recordedAt, new Date(WALL0 * 1000).toISOString())
    const har = buildHar({ browser: { name: 'Chromium', version: '156' }, entries, h2bench: fields })
    assert.equal(har.log._h2bench, fields)
    assert.deepEqual(Object.keys(har.log), ['version', 'creator', 'browser', 'pages', 'entries', '_h2bench'])
    assert.deepEqual(Object.keys(har.log._h2bench.origins[0]), ['origin', 'host', 'port', 'address', 'certNames', 'certId', 'rttMs', 'rttFrom', 'protocol'])
  })

  describe('recordCdp with record: true', () => {
    // A CDP session that answers getResponseBody from `bodies` (requestId → result, or an Error) and getCertificate.
    function fakeSession (bodies) {
      const cdp = new EventEmitter()
      cdp.sent = []
      cdp.send = async (method, params) => {
        cdp.sent.push([method, params])
        await new Promise(resolve => setImmediate(resolve))
        if (method === 'Network.getResponseBody') {
          const r = bodies[params.requestId]
          if (r instanceof Error) throw r
          return r
        }
        if (method === 'Network.getCertificate') return { tableNames: [LEAF_AB.toString('base64')] }
        return {}
      }
      return cdp
    }
    const emit = (cdp, list) => { for (const { method, params } of list) cdp.emit(method, params) }

    it('enables Network with large buffers, asks for each finished body and each origin\'s certificate once, and waits for the answers', async () => {
      const cdp = fakeSession({ S: { body: 'x()', base64Encoded: false }, D: { body: HTML, base64Encoded: false }, R: { body: PNG.toString('base64'), base64Encoded: true }, I: new Error('Protocol error (Network.getResponseBody): No resource with given identifier found\nstack') })
      const recorder = await recordCdp(cdp, { record: true })
      assert.deepEqual(cdp.sent.slice(0, 2), [['Network.enable', RECORDING_BUFFERS], ['Page.enable', undefined]])
      assert.ok(RECORDING_BUFFERS.maxResourceBufferSize >= 64 * 1024 * 1024 && RECORDING_BUFFERS.maxTotalBufferSize >= RECORDING_BUFFERS.maxResourceBufferSize)
      recorder.startPage('page_1', `${A}/`)
      const network = events.filter(e => e.method.startsWith('Network.'))
      emit(cdp, network.slice(0, 2))
      assert.equal(recorder.inFlight(), 1, 'the document, not finished yet')
      emit(cdp, network.slice(2))
      assert.equal(recorder.inFlight(), 0)
      await recorder.settled()
      const asked = cdp.sent.slice(2).map(([m, p]) => `${m} ${p.requestId || p.origin}`)
      assert.deepEqual(asked.filter(x => x.startsWith('Network.getResponseBody')).sort(), ['D', 'I', 'R', 'S'].map(id => `Network.getResponseBody ${id}`))
      assert.deepEqual(asked.filter(x => x.startsWith('Network.getCertificate')), [A, B, C].map(o => `Network.getCertificate ${o}`), 'once per origin (A answered twice)')
      const { entries: got, origins: gotOrigins } = recorder.stop()
      assert.equal(got.find(e => e.request.url === `${A}/`).response.content.text, HTML)
      assert.equal(got.find(e => e.request.url === `${A}/logo.png`).response.content.encoding, 'base64')
      assert.equal(got.find(e => e.request.url === `${B}/photo.png`)._h2bench.bodyComplete, false)
      assert.equal(gotOrigins[0].certId, gotOrigins[1].certId)
      assert.equal(gotOrigins[0].certId, sha256(LEAF_AB))
      const failed = recorder.events.find(e => e.method === RESPONSE_BODY && e.params.requestId === 'I')
      assert.equal(failed.params.error, 'Protocol error (Network.getResponseBody): No resource with given identifier found', 'one line')
    })

    it('without record: Network.enable as before, nothing asked', async () => {
      const cdp = fakeSession({})
      const recorder = await recordCdp(cdp)
      emit(cdp, events.filter(e => e.method.startsWith('Network.')))
      await recorder.settled()
      assert.deepEqual(cdp.sent.map(([m]) => m), ['Network.enable', 'Page.enable'])
      assert.equal(recorder.stop().origins, undefined)
    })
  })
})

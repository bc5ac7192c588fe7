'use strict'

const assert = require('node:assert/strict')
const { boundOf, closeness, restLinkBytes, HEADER_BYTES, WIRE } = require('../../bench/report/runner/bounds')

const page = (lane, extra = {}) => ({
  experiment: 'network', network: 'link', preset: 'Regular 3G', lane, mode: null, protocol: lane === 'h1' ? 'http/1.1' : 'h2',
  params: { requests: 30, assets: null, sizeBytes: 102400, sizeMB: 0.098, delayMs: 10 }, samples: [1], median: 40000, ...extra
})

// The physical lower bound the report puts beside every cell (bench/report/runner/bounds.js).
describe('physical lower bound of a cell', () => {
  it('HTTP/2 on Regular 3G: one round, then every byte through 768 kbit/s', () => {
    const b = boundOf(page('h2n'), 'page')
    const bytes = 30 * (102400 + 10) * WIRE // HTTP/2: 10 bytes of headers a response at the least
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
    const c = closeness(page('h2n', { median: 35000, samples: [35000] }), 'page')
    assert.match(c.dominant, /^bandwidth: 3\.19 MB through the link's 0\.768 Mbit\/s, 33\.\d{3} s of the bound$/)
    assert.equal(c.instrumentError, null)
    assert.ok(c.ofBound > 0.94 && c.ofBound < 0.98)
    const lat = closeness(page('h1', { preset: 'none', median: 5, samples: [5], params: { requests: 12, assets: null, sizeBytes: 100, sizeMB: 0, delayMs: 0 }, linkSpec: 'rtt=1ms' }), 'page')
    assert.equal(lat.dominant, 'latency: 2 round trips of 1 ms; 60 % of the time is outside the bound (not the link\'s rate or round trips)')
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
    assert.equal(boundOf(row('devtools'), 'page').bytes, 10 * 100010)
    assert.equal(boundOf(row('link'), 'page').bytes, Math.round(10 * 100010 * WIRE))
  })

  it('each protocol is charged the fewest header bytes it can send a response: HTTP/1.1 250, HTTP/2 10, HTTP/3 5', () => {
    const row = protocol => ({ network: 'devtools', preset: 'Regular 3G', lane: 'x', mode: null, protocol, params: { requests: 10, assets: null, sizeBytes: 1000, sizeMB: 0, delayMs: 0 } })
    assert.equal(boundOf(row('http/1.1'), 'page').bytes, 10 * 1250)
    assert.equal(boundOf(row('h2'), 'page').bytes, 10 * 1010)
    assert.equal(boundOf(row('h3'), 'page').bytes, 10 * 1005)
    assert.equal(boundOf(row(null), 'page').bytes, 10 * 1005) // unknown: the fewest of any
  })
})

// Seed 001's compound document: one response holding every item. The bound
// charged 250 header bytes for each embedded item, and seven measured cells
// came out at 114-119 % of it (500 items, h2 compound, Chromium: 0.230 s
// against a 0.271 s "bound").
describe('the REST bound: a compound document is one response', () => {
  const { createApp } = require('../../server/app')
  const { LANES } = require('../../server/lanes')
  const request = require('supertest')
  const LINK = 'rtt=100ms,down=20mbit,up=5mbit,queue=170'
  const rest = (mode, lane, protocol, extra = {}) => ({
    experiment: 'rest', network: 'link', linkSpec: LINK, preset: '500 items', lane, mode, protocol,
    params: { requests: 500, assets: null, sizeBytes: 512, sizeMB: 0, delayMs: 0 },
    rest: { network: 1, revalidated: 0 }, samples: [230.3], median: 230.3, ...extra
  })

  it('charges the links and items once, with one response\'s headers: below the 0.230 s Chromium measured', () => {
    const b = boundOf(rest('compound', 'h2', 'h2'), 'rest')
    const bytes = (restLinkBytes(500, 512) + 500 * 512 + HEADER_BYTES.h2) * WIRE
    assert.equal(b.bytes, Math.round(bytes))
    assert.equal(b.rounds, 1)
    assert.ok(Math.abs(b.ms - (100 + bytes * 8 / 20e6 * 1000)) < 1e-6)
    assert.ok(b.ms < 230.3, `${b.ms}`)
    assert.equal(closeness(rest('compound', 'h2', 'h2'), 'rest').instrumentError, null)
  })

  it("HTTP/1.1's 250 header bytes are never more than the app sends with a response (status line and headers)", async () => {
    const app = createApp(LANES[0])
    for (const path of ['/option?size=512', '/api/items/1?size=512&cache=none', '/api/compound?count=1&size=512', '/push?assets=1&size=1kb']) {
      const res = await request(app).get(path)
      assert.equal(res.status, 200, path)
      const raw = res.res.rawHeaders
      let bytes = `HTTP/1.1 ${res.status} ${res.res.statusMessage}\r\n`.length + 2
      for (let i = 0; i < raw.length; i += 2) bytes += `${raw[i]}: ${raw[i + 1]}\r\n`.length
      assert.ok(bytes >= HEADER_BYTES['http/1.1'], `${path}: ${bytes} bytes of headers`)
    }
  })

  it('the links it charges are never more than the app sends: the collection without a tag, and with the cell\'s', async () => {
    const app = createApp(LANES[0])
    for (const query of ['count=500&size=512&cache=none', 'count=500&size=512&cache=revalidate&tag=r1']) {
      const collection = await request(app).get(`/api/items?${query}`)
      const compound = await request(app).get(`/api/compound?${query}`)
      assert.equal(collection.status, 200)
      assert.ok(Buffer.byteLength(collection.text) >= restLinkBytes(500, 512), query)
      assert.ok(Buffer.byteLength(compound.text) >= restLinkBytes(500, 512) + 500 * 512, query)
    }
  })
})

// A cell below its bound measures nothing: the bound's numbers or the timer is wrong.
describe('a cell measured below its bound is an instrument error', () => {
  const row = samples => ({
    network: 'link', linkSpec: 'rtt=100ms', preset: 'x', lane: 'h2n', mode: null, protocol: 'h2',
    params: { requests: 1, assets: null, sizeBytes: 0, sizeMB: 0, delayMs: 0 },
    samples,
    median: samples.slice().sort((a, b) => a - b)[Math.floor(samples.length / 2)]
  })

  it('names how many samples were below, and the fastest', () => {
    const c = closeness(row([99, 120, 130, 60, 140]), 'page')
    assert.equal(c.boundMs, 100)
    assert.equal(c.instrumentError, 'INSTRUMENT ERROR: 2 of 5 samples below the lower bound of 0.100 s (fastest 0.060 s): the bound\'s numbers or the timer is wrong, so this cell measures nothing')
  })

  it('a sample at the bound is no error', () => {
    assert.equal(closeness(row([100, 101, 150]), 'page').instrumentError, null)
  })

  it('the report lists it above the verdicts and says INSTRUMENT ERROR in the bounds table, never a percentage over 100', () => {
    const { toMarkdown } = require('../../bench/report/runner/report-markdown')
    const experiment = {
      id: 'constructed', title: 'a constructed cell', kind: 'page', sweep: { param: 'requests', label: 'requests' },
      cells: [{ requests: 1 }], source: null, conclusions: []
    }
    const r = { ...row([60, 70, 80]), experiment: 'constructed', cell: 0, q1: 60, q3: 80, failures: 0, repeatsAsked: 3, repeatsGot: 3, baseline: null, ratioToBaseline: null }
    const md = toMarkdown({ environment: require('../../docs/studies/rest/results.json').environment, experiments: [experiment], results: [r] })
    const lines = md.split('\n')
    const errorsAt = lines.indexOf('## Instrument errors: cells measured below their physical lower bound')
    assert.ok(errorsAt > 0 && errorsAt < lines.indexOf('## Verdicts'), md)
    assert.match(lines[errorsAt + 2], /^- \*\*constructed, requests 1, h2n: INSTRUMENT ERROR: 3 of 3 samples below the lower bound of 0\.100 s/)
    assert.ok(lines.some(l => /\| 1 \| h2n \| 0\.070 \| 0\.100 \| INSTRUMENT ERROR \|/.test(l)), md)
    assert.ok(!/\| 1[0-9]{2} % \|/.test(md))
  })
})

describe("a load tool's bound (bench/cells/load.js rows)", () => {
  const load = (lane, protocol, tool, command, linkSpec = 'delay.down=100ms,jitter.down=10ms') => ({
    experiment: 'h2load-netem', network: 'link', linkSpec, preset: 'x', lane, mode: null, protocol,
    params: { requests: null, assets: null, sizeBytes: 612, sizeMB: 0, delayMs: 0 }, samples: [1], median: 1, load: { tool, command }
  })

  it('new connections every run: the handshake (TCP + TLS 1.3: 2, QUIC: 1), then the requests as many at a time as in flight; the link\'s shortest round trip', () => {
    const h1 = boundOf(load('h1', 'http/1.1', 'h2load', 'h2load -t 10 -c 100 -n 10000 -m 100 --h1 https://x/option?size=612'), 'load')
    assert.equal(h1.rttMs, 90) // 100 ms ± 10 ms, uniform: never below 90
    assert.equal(h1.rounds, 3) // 100 requests a connection, 100 pipelined: one round after the handshake
    assert.ok(Math.abs(h1.ms - 270) < 1e-9)
    const unpipelined = boundOf(load('h1', 'http/1.1', 'h2load', 'h2load -t 10 -c 100 -n 10000 -m 1 --h1 https://x/option?size=612'), 'load')
    assert.equal(unpipelined.rounds, 102)
    assert.equal(boundOf(load('h3', 'h3', 'oha', 'oha --no-tui --http-version 3 -n 10000 -c 100 -p 100 https://x/'), 'load').rounds, 2)
    // ab without -k: each of a slot's ten requests on a connection of its own.
    assert.equal(boundOf(load('h1', 'http/1.1', 'ab', 'ab -n 100 -c 10 https://x/', 'rtt=50ms'), 'load').rounds, 30)
    assert.equal(boundOf(load('h2', 'h2', 'nghttp', 'nghttp -n -m 100 https://x/', 'rtt=50ms'), 'load').rounds, 3)
  })
})

describe('the bounds of the h3 cells', () => {
  it('hol: the page\'s batch (one round, its bytes through the rate); site-page: two rounds and the page through the downlink, as h3-common\'s', () => {
    const hol = { experiment: 'h3-hol', network: 'link', linkSpec: 'rtt=50ms,down=20mbit,up=20mbit,loss=2%', preset: 'loss 2 %', lane: 'h3', mode: null, protocol: 'h3',
      params: { requests: 100, assets: null, sizeBytes: 20480, sizeMB: 0.02, delayMs: 0 }, samples: [1000], median: 1000 }
    const b = boundOf(hol, 'hol')
    assert.equal(b.rounds, 1)
    assert.ok(Math.abs(b.ms - (50 + 100 * (20480 + HEADER_BYTES.h3) * WIRE * 8 / 20e6 * 1000)) < 1e-9, `${b.ms}`)
    const { pageBoundMs } = require('../../bench/experiments/h3-common')
    const { composition } = require('../../server/routes/site')
    const site = { ...hol, experiment: 'h3-pages', linkSpec: 'rtt=100ms,down=20mbit,up=5mbit,queue=170', params: { ...hol.params, requests: null, sizeBytes: 1048576 } }
    assert.ok(Math.abs(boundOf(site, 'site-page').ms - pageBoundMs(1048576, composition(1048576).length)) < 1e-9)
    assert.equal(boundOf({ ...site, lane: 'h2e', protocol: 'h2' }, 'site-page').rounds, 3) // TCP's SYN: no 0-RTT for it
    assert.equal(boundOf(site, 'ttfb'), null) // its cells count their own round trips
  })
})

describe("the HTTP/3 pages' bound (bench/experiments/h3-common.js)", () => {
  it('two round trips + the page with the fewest header bytes of any protocol, through 20 Mbit/s', () => {
    const { pageBoundMs } = require('../../bench/experiments/h3-common')
    const expected = 200 + (1048576 + 3 * HEADER_BYTES.h3) * WIRE * 8 / 20e6 * 1000
    assert.ok(Math.abs(pageBoundMs(1048576, 3) - expected) < 1e-9, `${pageBoundMs(1048576, 3)}`)
  })
  // A site of the user's (experiment site): nothing is known of its chain of requests, so the bound is the round trips
  // before the document's first byte, each of the shortest round trip measured (path and link), and nothing for bytes.
  it('site: 3 round trips for TCP + TLS 1.3, 2 for QUIC, 1 on a kept connection, none for a document from the cache', () => {
    const site = (lane, mode, rounds) => ({
      experiment: 'site', network: 'link', preset: 'https://example.com/', lane, mode, protocol: lane === 'h1' ? 'http/1.1' : lane,
      params: { requests: null, assets: null, sizeBytes: null, sizeMB: null, delayMs: null }, samples: [100], median: 100,
      site: { rttMs: 60.5, ttfbRounds: rounds, bytes: 106000 }
    })
    assert.equal(boundOf(site('h2', 'cold', 3), 'site-url').ms, 181.5)
    assert.equal(boundOf(site('h3', 'cold', 2), 'site-url').ms, 121)
    assert.equal(boundOf(site('h2', 'repeat', 1), 'site-url').ms, 60.5)
    // A repeat view whose document came from the cache: a 22 ms load is no instrument error.
    const cached = { ...site('h1', 'repeat', 0), samples: [22, 90], median: 56 }
    assert.equal(boundOf(cached, 'site-url').ms, 0)
    assert.equal(closeness(cached, 'site-url').instrumentError, null)
    assert.match(closeness({ ...site('h2', 'cold', 3), samples: [150, 400], median: 275 }, 'site-url').instrumentError, /^INSTRUMENT ERROR: 1 of 2 samples below the lower bound of 0\.181 s \(fastest 0\.150 s\)/) // 181.5 ms, to three decimals
    assert.equal(boundOf({ ...site('h2', 'cold', 3), site: { rttMs: null, ttfbRounds: 3 } }, 'site-url'), null)
  })
})

'use strict'

// bench/record/server-time.js against a server of the test's own on loopback, whose every answer it controls:
// /slow answers its head after 80 ms, the others at once. A HAR as the recorder writes it, each in-page server
// time inflated to 500 ms (the wait behind other responses a page load shows), is timed again alone: /slow's time
// alone is at least its 80 ms (physics: the server held the head that long) and below the page's; the others'
// well below it; serverTimeMs the smaller of both, the page's kept beside it; a POST, an origin without a round
// trip and an unreachable origin are left as they were.
const assert = require('node:assert/strict')
const https = require('node:https')
const { once } = require('node:events')
const { timeServersAlone } = require('../../../bench/record/server-time')
const { testCertificate } = require('../../support/certificate')

const SLOW_MS = 80
const IN_PAGE_MS = 500

describe('bench/record/server-time.js: each recorded GET asked again, alone', function () {
  this.timeout(30000)
  let server = null
  let port = null
  const seen = []

  before(async () => {
    const { key, cert } = await testCertificate()
    server = https.createServer({ key, cert }, (req, res) => {
      seen.push({ url: req.url, host: req.headers.host, accept: req.headers.accept, connection: req.socket.remotePort })
      const answer = () => res.end('x'.repeat(1000))
      if (req.url === '/slow') setTimeout(answer, SLOW_MS)
      else answer()
    })
    server.listen(0, '127.0.0.1')
    await once(server, 'listening')
    port = server.address().port
  })
  after(() => server && server.close())

  const entry = (origin, path, method = 'GET', serverTimeMs = IN_PAGE_MS) => ({
    request: { method, url: `${origin}${path}`, headers: [{ name: ':authority', value: 'x' }, { name: 'accept', value: 'text/css' }, { name: 'Host', value: 'ignored' }] },
    _h2bench: { origin, serverTimeMs, bodyComplete: true }
  })

  it('the server\'s own time alone, at least what it held, below the page\'s; the page\'s kept; POSTs and unknown round trips untouched', async () => {
    const origin = `https://localhost:${port}`
    const gone = 'https://gone.example:1'
    const har = {
      log: {
        _h2bench: {
          origins: [
            { origin, host: 'localhost', port, address: '127.0.0.1', rttMs: 0.1 },
            { origin: 'https://nortt.example', host: 'nortt.example', port: 443, address: '127.0.0.1', rttMs: null },
            { origin: gone, host: 'gone.example', port: 1, address: '127.0.0.1', rttMs: 0.1 }
          ]
        },
        entries: [entry(origin, '/fast.css'), entry(origin, '/slow'), entry(origin, '/form', 'POST'), entry(origin, '/zero', 'GET', 0),
          entry('https://nortt.example', '/a'), entry(gone, '/b')]
      }
    }
    const lines = []
    const timed = await timeServersAlone(har, { log: l => lines.push(l) })
    const f = path => har.log.entries.find(e => e.request.url.endsWith(path))._h2bench
    assert.equal(timed, 3, JSON.stringify(har.log.entries.map(e => e._h2bench)))
    assert.ok(f('/slow').serverTimeAloneMs >= SLOW_MS - 1, JSON.stringify(f('/slow')))
    assert.ok(f('/slow').serverTimeAloneMs < IN_PAGE_MS, JSON.stringify(f('/slow')))
    assert.equal(f('/slow').serverTimeMs, f('/slow').serverTimeAloneMs)
    assert.equal(f('/slow').serverTimeInPageMs, IN_PAGE_MS)
    assert.ok(f('/fast.css').serverTimeAloneMs < SLOW_MS, JSON.stringify(f('/fast.css')))
    assert.equal(f('/zero').serverTimeMs, 0) // the smaller: the page's 0
    for (const p of ['/form', '/a', '/b']) assert.deepEqual(Object.keys(f(p)).sort(), ['bodyComplete', 'origin', 'serverTimeMs'], p)
    assert.equal(f('/b').serverTimeMs, IN_PAGE_MS)
    // Asked by the recorded name (Host), with the recorded headers, one connection: the first asked twice (its handshakes).
    const mine = seen.filter(s => s.url !== '/form')
    assert.deepEqual(mine.map(s => s.url), ['/fast.css', '/fast.css', '/slow', '/zero'])
    assert.ok(mine.every(s => s.host === `localhost:${port}` && s.accept === 'text/css'))
    assert.equal(new Set(mine.map(s => s.connection)).size, 1)
    assert.match(lines.join('\n'), /server times: 3 of 6 responses asked again alone/)
  })
})

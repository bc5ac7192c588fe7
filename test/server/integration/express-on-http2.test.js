'use strict'

// The adapter that lets lane h2n serve the Express app on node:http2
// (expressjs/express#3388): the Express API works over it, and only the app
// it is given changes.
const assert = require('node:assert/strict')
const http2 = require('node:http2')
const https = require('node:https')
const express = require('express')
const { expressOnHttp2 } = require('../../../server/compat/express-on-http2')
const { testCertificate } = require('../../support/certificate')
const { h1Get, h2Session } = require('../../support/clients')

function probeApp () {
  const app = express()
  app.get('/who', (req, res) => res.json({
    hostname: req.hostname, host: req.get('host'), header: req.header('Host'), protocol: req.protocol, secure: req.secure,
    path: req.path, query: req.query, accept: req.get('accept'), ip: typeof req.ip
  }))
  app.get('/go', (req, res) => res.redirect(302, '/who'))
  app.get('/teapot', (req, res) => res.status(418).type('text').send('short and stout'))
  return app
}

describe('Express on node:http2 (server/compat/express-on-http2.js)', () => {
  let tls, h2server, h1server, h2url, h1url
  before(async () => {
    tls = await testCertificate()
    h2server = http2.createSecureServer({ key: tls.key, cert: tls.cert, allowHTTP1: false }, expressOnHttp2(probeApp()))
    h1server = https.createServer({ key: tls.key, cert: tls.cert }, probeApp())
    await Promise.all([h2server, h1server].map(s => new Promise(resolve => s.listen(0, '127.0.0.1', resolve))))
    h2url = `https://localhost:${h2server.address().port}`
    h1url = `https://localhost:${h1server.address().port}`
  })
  after(() => { h2server.close(); h1server.close() })

  it('reads the host from :authority, and the rest of the request as Express does', async () => {
    const s = h2Session(h2url, { ca: tls.cert })
    try {
      const res = await s.get('/who?a=1&b=2', { accept: 'text/x-test' })
      assert.equal(res.status, 200)
      assert.deepEqual(JSON.parse(res.body), {
        hostname: 'localhost', host: `localhost:${h2server.address().port}`, header: `localhost:${h2server.address().port}`,
        protocol: 'https', secure: true, path: '/who', query: { a: '1', b: '2' }, accept: 'text/x-test', ip: 'string'
      })
    } finally {
      await s.close()
    }
  })

  it('sends Express responses: status, type, body, redirect', async () => {
    const s = h2Session(h2url, { ca: tls.cert })
    try {
      const teapot = await s.get('/teapot')
      assert.equal(teapot.status, 418)
      assert.match(teapot.headers['content-type'], /^text\/plain/)
      assert.equal(teapot.body.toString(), 'short and stout')
      const go = await s.get('/go')
      assert.equal(go.status, 302)
      assert.equal(go.headers.location, '/who')
    } finally {
      await s.close()
    }
  })

  it('leaves other Express apps alone: the same app served over https still works', async () => {
    const res = await h1Get(`${h1url}/who`, { ca: tls.cert })
    assert.equal(res.status, 200)
    assert.equal(JSON.parse(res.body).hostname, 'localhost')
  })
})

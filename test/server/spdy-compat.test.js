'use strict'

// Each fix in server/compat/spdy.js, proven on the Node running the tests
// (the Node matrix runs this file on 22, 24 and 26 too).
const assert = require('node:assert/strict')
const path = require('node:path')
const http2 = require('node:http2')
const { execFileSync, spawnSync } = require('node:child_process')
const spdy = require('../../server/compat/spdy')
const { testCertificate } = require('../support/certificate')

const ROOT = path.join(__dirname, '..', '..')
const MAJOR = Number(process.versions.node.split('.')[0])

function nodeEval (code) {
  return spawnSync(process.execPath, ['-e', code], { cwd: ROOT, encoding: 'utf8' })
}

// A spdy server whose handler is `handler`, and a Node http2 client to it.
function useSpdyServer (handler) {
  const ctx = {}
  before(async () => {
    const tls = await testCertificate()
    ctx.server = spdy.createServer({ key: tls.key, cert: tls.cert, spdy: { protocols: ['h2'] } }, handler)
    await new Promise(resolve => ctx.server.listen(0, '127.0.0.1', resolve))
    ctx.session = http2.connect(`https://127.0.0.1:${ctx.server.address().port}`, { rejectUnauthorized: false })
  })
  after(() => {
    ctx.session.close()
    ctx.server.close()
  })
  ctx.get = p => new Promise((resolve, reject) => {
    const req = ctx.session.request({ ':path': p })
    const chunks = []
    req.on('data', c => chunks.push(c))
    req.on('end', () => resolve(Buffer.concat(chunks)))
    req.on('error', reject)
    req.end()
  })
  return ctx
}

describe(`spdy compatibility fixes on Node ${process.versions.node}`, () => {
  it('spdy loads (node-spdy#403: http-deceiver needs the removed http_parser binding on Node >= 24)', () => {
    const raw = nodeEval("require('spdy')")
    if (MAJOR >= 24) {
      assert.notEqual(raw.status, 0, 'unpatched spdy loads here: the http_parser shim may no longer be needed')
      assert.match(raw.stderr, /No such module: http_parser/)
    }
    const patched = nodeEval("require('./server/compat/spdy'); console.log(typeof process.binding)")
    assert.equal(patched.status, 0, patched.stderr)
  })

  it('puts process.binding back after loading spdy', () => {
    const out = nodeEval("const b = process.binding; require('./server/compat/spdy'); console.log(process.binding === b)")
    assert.equal(out.stdout.trim(), 'true', out.stderr)
  })

  describe('bodies', () => {
    const piece = n => Buffer.alloc(1000, 'abcdefgh'[n])
    const srv = useSpdyServer((req, res) => {
      if (req.url === '/whole') return res.end(Buffer.alloc(100000, 'x'))
      // several writes: the later ones queue behind the first and reach the
      // handle as one writev with allBuffers
      res.setHeader('content-length', 8000)
      for (let i = 0; i < 7; i++) res.write(piece(i))
      res.end(piece(7))
    })

    it('a single res.end(buffer) arrives whole (empty bodies on Node 26: handle-thing _writeEnc)', async () => {
      const body = await srv.get('/whole')
      assert.equal(body.length, 100000)
      assert.ok(body.every(b => b === 0x78))
    })

    it('a body written in pieces arrives whole and in order (node-spdy#380: handle-thing writev dropped every other buffer)', async () => {
      const body = await srv.get('/pieces')
      assert.equal(body.length, 8000)
      assert.equal(body.toString('latin1').replace(/(.)\1*/g, '$1'), 'abcdefgh')
    })

    it('many concurrent multi-piece responses all arrive whole', async () => {
      const bodies = await Promise.all(Array.from({ length: 50 }, () => srv.get('/pieces')))
      assert.deepEqual(bodies.map(b => b.length), bodies.map(() => 8000))
    })
  })

  it('serves without deprecation warnings (DEP0066: spdy read res._headers)', () => {
    const out = execFileSync(process.execPath, ['--throw-deprecation', path.join(__dirname, '..', 'fixtures', 'spdy-one-response.js')],
      { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] })
    assert.deepEqual(JSON.parse(out), { body: 'abcd' })
  })
})

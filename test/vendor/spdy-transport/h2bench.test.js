'use strict'

// What vendor/spdy-transport does differently from spdy-transport 3.0.0
// (vendor/spdy-transport/H2BENCH.md), each part with a test that fails on
// the upstream code.
const assert = require('node:assert/strict')
const transport = require('../../../vendor/spdy-transport')
const streamPair = require('./stream-pair')

const http2 = transport.protocol.http2
const { constants } = http2

function newFramer () {
  const framer = http2.framer.create({ window: new transport.Window({ id: 0, isServer: true, recv: { size: 1 << 20 }, send: { size: 1 << 20 } }) })
  const pool = http2.compressionPool.create()
  framer.setCompression(pool.get(4))
  framer.setVersion(4)
  return framer
}

function newParser () {
  const window = new transport.Window({ id: 0, isServer: true, recv: { size: 1 << 30 }, send: { size: 1 << 30 } })
  const parser = http2.parser.create({ isServer: true, window })
  parser.setCompression(http2.compressionPool.create().get(4))
  parser.skipPreface()
  return parser
}

// A destination that records each socket write: writes between cork() and
// uncork() are one write, as Node's net.Socket makes them one writev.
function recordingSocket () {
  const dest = { writes: [], corked: 0, pending: [], writableCorked: 0 }
  dest.cork = () => { dest.corked++; dest.writableCorked = dest.corked }
  dest.uncork = () => {
    dest.corked--
    dest.writableCorked = dest.corked
    if (dest.corked === 0 && dest.pending.length) dest.writes.push(dest.pending.splice(0))
  }
  dest.write = chunk => {
    if (dest.corked) dest.pending.push(chunk)
    else dest.writes.push([chunk])
    return true
  }
  return dest
}

const tick = () => new Promise(resolve => setImmediate(resolve))
const frameHeader = buf => ({ length: buf.readUIntBE(0, 3), type: buf[3], flags: buf[4], id: buf.readUInt32BE(5) })
function framesOf (wire) {
  const frames = []
  for (let off = 0; off < wire.length;) {
    const h = frameHeader(wire.subarray(off))
    frames.push(h)
    off += 9 + h.length
  }
  return frames
}

describe('vendor/spdy-transport: what h2bench changed', () => {
  describe('the framer and its scheduler (protocol/http2/framer.js, protocol/base/scheduler.js)', () => {
    it('writes every frame scheduled in a turn in one corked socket write (upstream: a write per chunk)', async () => {
      const framer = newFramer()
      const dest = recordingSocket()
      framer.pipe(dest)
      for (let id = 1; id <= 11; id += 2) {
        framer.responseFrame({ id, status: 200, headers: { 'content-type': 'text/plain' } })
        framer.dataFrame({ id, priority: 1, fin: true, data: Buffer.alloc(100) })
      }
      await tick()
      assert.equal(dest.writes.length, 1)
      assert.equal(dest.writes[0].length, 6 * 3, 'HEADERS, DATA header, DATA payload per stream')
    })

    it('uncorks after maxWrite bytes, so no single write is much larger', async () => {
      const framer = newFramer()
      framer.maxWrite = 64 * 1024
      const dest = recordingSocket()
      framer.pipe(dest)
      framer.dataFrame({ id: 1, priority: 1, fin: false, data: Buffer.alloc(1 << 20) })
      await tick()
      const sizes = dest.writes.map(w => w.reduce((n, c) => n + c.length, 0))
      assert.equal(sizes.reduce((a, b) => a + b), (1 << 20) + 64 * 9)
      assert.ok(sizes.every(n => n <= 64 * 1024 + 16 * 1024 + 9), sizes.join(', '))
    })

    it('sends DATA as a 9-byte header and a view of the body, cut at the peer\'s maximum frame size (upstream: a copy)', async () => {
      const framer = newFramer()
      const dest = recordingSocket()
      framer.pipe(dest)
      const body = Buffer.alloc(40000, 'x')
      framer.dataFrame({ id: 3, priority: 1, fin: true, data: body })
      await tick()
      const chunks = dest.writes.flat()
      assert.equal(chunks.length, 6)
      const headers = [chunks[0], chunks[2], chunks[4]].map(frameHeader)
      assert.deepEqual(headers.map(h => h.length), [16384, 16384, 40000 - 32768])
      assert.deepEqual(headers.map(h => h.flags), [0, 0, constants.flags.END_STREAM])
      for (const payload of [chunks[1], chunks[3], chunks[5]]) assert.equal(payload.buffer, body.buffer, 'a view of the body')
    })

    it('puts END_STREAM on the stream\'s last DATA frame while it is queued, instead of an empty frame after it', async () => {
      const framer = newFramer()
      const dest = recordingSocket()
      framer.pipe(dest)
      framer.dataFrame({ id: 5, priority: 1, fin: false, data: Buffer.from('abc') })
      framer.dataFrame({ id: 5, priority: 1, fin: true, data: Buffer.alloc(0) })
      await tick()
      let chunks = dest.writes.flat()
      assert.equal(chunks.length, 2)
      assert.equal(frameHeader(chunks[0]).flags, constants.flags.END_STREAM)
      // Once the DATA is written, the END_STREAM is a frame of its own.
      dest.writes.length = 0
      framer.dataFrame({ id: 7, priority: 1, fin: false, data: Buffer.from('abc') })
      await tick()
      framer.dataFrame({ id: 7, priority: 1, fin: true, data: Buffer.alloc(0) })
      await tick()
      chunks = dest.writes.flat()
      assert.deepEqual(chunks.map(c => c.length), [9, 3, 9])
      assert.deepEqual([frameHeader(chunks[0]).flags, frameHeader(chunks[2]).flags], [0, constants.flags.END_STREAM])
    })

    it('drops a stream\'s queued DATA when it is reset, and says how much (upstream wrote it after the RST_STREAM)', async () => {
      const framer = newFramer()
      const dest = recordingSocket()
      framer.pipe(dest)
      framer.dataFrame({ id: 9, priority: 1, fin: false, data: Buffer.alloc(20000) })
      framer.dataFrame({ id: 11, priority: 1, fin: false, data: Buffer.alloc(10) })
      assert.equal(framer.dropStream(9), 20000)
      framer.rstFrame({ id: 9, code: 'CANCEL' })
      await tick()
      assert.deepEqual(framesOf(Buffer.concat(dest.writes.flat())).map(h => [h.type, h.id]),
        [[constants.frameType.RST_STREAM, 9], [constants.frameType.DATA, 11]])
    })

    it('puts a header block and its CONTINUATION frames in one buffer, in one piece', async () => {
      const framer = newFramer()
      framer.setMaxFrameSize(16384)
      const dest = recordingSocket()
      framer.pipe(dest)
      const headers = {}
      for (let i = 0; i < 40; i++) headers[`x-h${i}`] = 'v'.repeat(1000 + i)
      framer.responseFrame({ id: 13, status: 200, headers })
      framer.dataFrame({ id: 13, priority: 1, fin: true, data: Buffer.from('body') })
      await tick()
      const [block] = dest.writes.flat()
      assert.deepEqual(framesOf(block).map(h => [h.type, h.flags & constants.flags.END_HEADERS]),
        [[constants.frameType.HEADERS, 0], [constants.frameType.CONTINUATION, 0], [constants.frameType.CONTINUATION, constants.flags.END_HEADERS]])
    })
  })

  describe('the parser (protocol/base/parser.js, protocol/http2/parser.js)', () => {
    it('parses the same frames fed a byte at a time as in one read, DATA as it arrives', () => {
      const framer = newFramer()
      const dest = recordingSocket()
      framer.pipe(dest)
      framer.settingsFrame({ initial_window_size: 1000 })
      framer.requestFrame({ id: 1, method: 'POST', path: '/a', headers: { 'x-a': 'b' } })
      framer.dataFrame({ id: 1, priority: 1, fin: true, data: Buffer.from('hello world') })
      framer.pingFrame({ opaque: Buffer.from('12345678'), ack: false })
      framer.dump()
      const wire = Buffer.concat(dest.writes.flat())
      const whole = newParser()
      const a = []
      whole.on('data', f => a.push(f))
      whole.write(wire)
      const bytes = newParser()
      const b = []
      bytes.on('data', f => b.push(f))
      for (let i = 0; i < wire.length; i++) bytes.write(wire.subarray(i, i + 1))
      const types = list => list.map(f => f.type)
      // (control frames go first: PING before the DATA queued ahead of it)
      assert.deepEqual(types(a), ['SETTINGS', 'HEADERS', 'PING', 'DATA'])
      assert.deepEqual(types(b).filter(t => t !== 'DATA'), ['SETTINGS', 'HEADERS', 'PING'])
      assert.equal(Buffer.concat(b.filter(f => f.type === 'DATA').map(f => f.data)).toString(), 'hello world')
      assert.equal(b.filter(f => f.type === 'DATA').length, 'hello world'.length, 'a DATA frame per byte as it came')
      assert.deepEqual(a[1].headers, b[1].headers)
    })
  })

  describe('connections and streams (connection.js, stream.js)', () => {
    function connectionPair (serverOptions = {}, clientOptions = {}) {
      const pair = streamPair.create()
      const server = transport.connection.create(pair, { protocol: 'http2', isServer: true, ...serverOptions })
      const client = transport.connection.create(pair.other, { protocol: 'http2', isServer: false, ...clientOptions })
      client.start(4)
      return { pair, server, client }
    }

    it('never sends DATA beyond either flow-control window, however the windows open (upstream: 8 KiB into a 1,000-byte window)', async () => {
      const { server, client } = connectionPair({ maxChunk: 64 * 1024 }, { windowSize: 1000 })
      // The server's windows after each frame is charged: never below 0.
      const after = []
      const framer = server._spdyState.framer
      const dataFrame = framer.dataFrame
      framer.dataFrame = function (frame, callback) {
        const stream = server._spdyState.stream.map[frame.id]
        if (stream && frame.data.length) after.push([stream._spdyState.window.send.current, server._spdyState.window.send.current])
        return dataFrame.call(this, frame, callback)
      }
      server.on('stream', stream => {
        stream.respond(200, {})
        stream.end(Buffer.alloc(50000, 'z'))
      })
      const req = client.request({ path: '/', method: 'GET' })
      let body = 0
      req.on('data', c => { body += c.length })
      // The client reads, so its window reopens by WINDOW_UPDATEs of its own sizes.
      await new Promise(resolve => req.on('end', resolve))
      assert.equal(body, 50000)
      assert.ok(after.length >= 50, `${after.length} frames`)
      assert.deepEqual(after.filter(([stream, session]) => stream < 0 || session < 0), [])
    })

    it('resets a stream whose window overflows once, and ends it (upstream: an RST_STREAM per later frame)', async () => {
      const { server, client } = connectionPair()
      const resets = []
      client.on('frame', f => { if (f.type === 'RST') resets.push(f.code) })
      let serverStream
      server.on('stream', stream => {
        serverStream = stream
        stream.on('error', () => {})
        stream.respond(200, {})
      })
      const req = client.request({ path: '/', method: 'GET' })
      req.on('error', () => {})
      await new Promise(resolve => setTimeout(resolve, 20))
      const framer = client._spdyState.framer
      framer.windowUpdateFrame({ id: req.id, delta: 0x7fffffff })
      framer.windowUpdateFrame({ id: req.id, delta: 0x7fffffff })
      await new Promise(resolve => setTimeout(resolve, 20))
      serverStream.write(Buffer.alloc(100))
      serverStream.write(Buffer.alloc(100))
      await new Promise(resolve => setTimeout(resolve, 20))
      assert.deepEqual(resets, ['FLOW_CONTROL_ERROR'])
      assert.equal(serverStream._spdyState.aborted, true)
    })

    it('keeps the client\'s streams open when the client sends GOAWAY (RFC 9113 6.8: it names the last stream of ours; upstream aborted all)', async () => {
      const { server, client } = connectionPair()
      const answered = new Promise(resolve => {
        server.on('stream', stream => {
          stream.on('error', () => {})
          setTimeout(() => { stream.respond(200, {}); stream.end('late'); resolve() }, 30)
        })
      })
      const req = client.request({ path: '/', method: 'GET' })
      let body = ''
      req.on('data', c => { body += c })
      const ended = new Promise(resolve => req.on('end', resolve))
      await new Promise(resolve => setTimeout(resolve, 10))
      client._spdyState.framer.goawayFrame({ lastId: 0, code: 'OK' })
      await answered
      await ended
      assert.equal(body, 'late')
    })

    it('reads and drops a request body its reader gave up on once the response ended, and resets past 16 MiB', async () => {
      const { server, client } = connectionPair({ windowSize: 65535 })
      let serverStream
      server.on('stream', stream => {
        serverStream = stream
        stream.respond(404, {})
        stream.end()
        stream.discardRequestBody()
      })
      const req = client.request({ path: '/', method: 'POST' })
      let reset = null
      req.on('error', () => {})
      client.on('frame', f => { if (f.type === 'RST') reset = f.code })
      const piece = Buffer.alloc(1 << 20)
      for (let i = 0; i < 20 && reset === null; i++) {
        await new Promise(resolve => req.write(piece, resolve))
      }
      await new Promise(resolve => setTimeout(resolve, 20))
      assert.equal(reset, 'NO_ERROR')
      assert.equal(serverStream._spdyState.aborted, true)
    })
  })
})

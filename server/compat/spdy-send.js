'use strict'

// How spdy sends response bodies, made fast enough to compare and bounded in
// memory. Applied by ./spdy.js; bench:server measures the effect and
// test/server/spdy-compat.test.js checks that bodies stay byte-exact.
//
// What limited spdy (spdy-transport 3.0.0), measured with h2load on 1 MiB
// bodies at 0.29-0.34x of https:
//  - every DATA frame was built by copying its 16 KiB of payload into a new
//    buffer (WriteBuffer.copyFrom), and the body was fed to the framer in
//    8 KiB pieces (DEFAULT_MAX_CHUNK), one event-loop turn each;
//  - each frame reached the TLS socket as two writes (9-byte header, then
//    the payload), so two TLS records per frame;
//  - the scheduler calls a write's callback once its frames are queued, not
//    once they reach the socket ("TODO: handle stream backoff properly"), so
//    a response writer never waits: 200 concurrent 16 MiB responses were
//    framed into memory at once (+2.3 GiB peak RSS).
// Window size and frame size were not the limit: the client sets the frame
// size (16 KiB in Chromium and h2load) and the windows were already large.

const path = require('node:path')

const spdyDir = path.dirname(require.resolve('spdy'))
const transportFile = file => require(require.resolve(`spdy-transport/lib/spdy-transport/${file}`, { paths: [spdyDir] }))
const Framer = transportFile('protocol/http2/framer')
const Scheduler = transportFile('protocol/base/scheduler')
const { Stream } = transportFile('stream')
const constants = transportFile('protocol/http2/constants')

// A response writer continues once the connection has at most this much
// waiting to be encrypted and sent (framer queue plus socket buffer).
const MAX_QUEUED = 512 * 1024
// Bytes handed to the framer per step (it cuts them into frames of the
// client's maximum frame size).
const MAX_CHUNK = 64 * 1024

// 1. DATA frames that reference the body instead of copying it: a 9-byte
//    header and a view of the payload. Same frames on the wire, same flow
//    control accounting as Framer.prototype._frame.
const { dataFrame } = Framer.prototype
Framer.prototype.dataFrame = function (frame, callback) {
  const data = frame.data
  if (!Buffer.isBuffer(data) || data.length === 0) return dataFrame.call(this, frame, callback)
  const priority = frame.priority === undefined ? false : frame.priority
  for (let offset = 0; offset < data.length; offset += this.maxFrameSize) {
    const piece = data.subarray(offset, offset + this.maxFrameSize)
    const last = offset + piece.length === data.length
    const header = Buffer.allocUnsafe(constants.FRAME_HEADER_SIZE)
    header.writeUIntBE(piece.length, 0, 3)
    header.writeUInt8(constants.frameType.DATA, 3)
    header.writeUInt8(last && frame.fin ? constants.flags.END_STREAM : 0, 4)
    header.writeUInt32BE(frame.id & 0x7fffffff, 5)
    const toWrite = { stream: frame.id, priority, chunks: [header, piece], callback: last ? callback : null }
    this._resetTimeout()
    if (!this.window) {
      this.schedule(toWrite)
      continue
    }
    this.window.send.update(-piece.length, () => {
      this._resetTimeout()
      this.schedule(toWrite)
    })
  }
}

// 2. Everything the scheduler emits in one turn leaves as one socket write:
//    the socket is corked for the turn, so header and payload of each frame
//    (and consecutive frames) share TLS records.
const { tick } = Scheduler.prototype
Scheduler.prototype.tick = function () {
  const pipes = this._readableState.pipes
  const socket = Array.isArray(pipes) ? pipes[0] : pipes
  if (!socket || typeof socket.cork !== 'function' || socket.destroyed) return tick.call(this)
  socket.cork()
  try {
    return tick.call(this)
  } finally {
    process.nextTick(() => socket.uncork())
  }
}

// 3. A stream's write completes only when its connection has room again, so
//    a response is framed about as fast as the socket sends it and memory is
//    bounded by what is in flight, not by the sum of all responses.
//    One 'drain' listener per connection serves every waiting stream.
function queuedBytes (connection) {
  return connection._spdyState.framer.readableLength + connection.socket.writableLength
}

function whenRoom (connection, done) {
  const socket = connection.socket
  if (socket.destroyed || queuedBytes(connection) <= MAX_QUEUED) return done()
  let waiting = connection._h2benchWaiting
  if (!waiting) {
    waiting = connection._h2benchWaiting = []
    const release = () => {
      const list = waiting.splice(0)
      for (const fn of list) fn()
    }
    const onDrain = () => {
      if (queuedBytes(connection) > MAX_QUEUED) return
      release()
    }
    socket.on('drain', onDrain)
    socket.once('close', () => {
      socket.off('drain', onDrain)
      release()
    })
  }
  waiting.push(() => whenRoom(connection, done))
}

const { _write } = Stream.prototype
Stream.prototype._write = function (data, enc, callback) {
  _write.call(this, data, enc, err => {
    if (err) return callback(err)
    whenRoom(this.connection, callback)
  })
}

module.exports = { MAX_QUEUED, MAX_CHUNK }

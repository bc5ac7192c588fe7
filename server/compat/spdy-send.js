'use strict'

// How spdy sends response bodies, made fast enough to compare and bounded in
// memory. Applied by ./spdy.js; bench:server measures the effect and
// test/server/integration/spdy-compat.test.js checks that bodies stay byte-exact.
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

const { transportFile } = require('./spdy-transport')
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
//    header and a view of the payload. Same frames on the wire. They are
//    scheduled at once: the flow-control windows were charged by the caller
//    (sendWithinWindows below), so this never waits.
Framer.prototype.dataFrame = function (frame, callback) {
  const data = frame.data.length === 0 ? null : frame.data
  const priority = frame.priority === undefined ? false : frame.priority
  const size = data === null ? 0 : data.length
  let offset = 0
  do {
    const piece = data === null ? null : data.subarray(offset, offset + this.maxFrameSize)
    const length = piece === null ? 0 : piece.length
    offset += length
    const last = offset === size
    const header = Buffer.allocUnsafe(constants.FRAME_HEADER_SIZE)
    header.writeUIntBE(length, 0, 3)
    header.writeUInt8(constants.frameType.DATA, 3)
    header.writeUInt8(last && frame.fin ? constants.flags.END_STREAM : 0, 4)
    header.writeUInt32BE(frame.id & 0x7fffffff, 5)
    this._resetTimeout()
    this.schedule({ stream: frame.id, priority, chunks: piece === null ? [header] : [header, piece], callback: last ? callback : null })
  } while (offset < size)
}

// 2. DATA never exceeds the peer's flow-control windows (RFC 9113 6.9.1: a
//    sender MUST NOT send a frame larger than the space in either window).
//    spdy-transport charged a frame to a window without checking that it fit:
//    its Window Side.update() waits only when the window is already <= 0
//    (lib/spdy-transport/window.js), and the stream splitter sized chunks
//    from a window read before other streams spent it (or from the window's
//    maximum when it was 0). So a 16 KiB frame went out into 5,779 bytes of
//    connection window, and Chromium closed the session with
//    ERR_HTTP2_FLOW_CONTROL_ERROR, failing every stream on it. Upstream:
//    stock spdy 4.0.2 / spdy-transport 3.0.0 sends an 8 KiB frame into a
//    1,000-byte window (measured; our 64 KiB steps make it a 16 KiB frame);
//    no upstream issue names it (node-spdy#400, open, reports Chrome
//    "HTTP/2 protocol errors" past 64 KiB that may be this). Here each
//    piece is sized from both windows at the moment it is charged,
//    synchronously, so no other stream can spend the same bytes; a full
//    window waits for the peer's WINDOW_UPDATE. Test:
//    test/server/integration/flow-control.test.js (fails without this).
function sendWithinWindows (stream, data, callback) {
  const state = stream._spdyState
  const streamWindow = state.window.send
  const sessionWindow = state.sessionWindow.send
  let offset = 0
  function step () {
    while (true) {
      if (state.aborted) return process.nextTick(callback, new Error('Stream write aborted'))
      // update(0, fn) with an empty window queues fn until a WINDOW_UPDATE.
      if (streamWindow.isEmpty()) return streamWindow.update(0, step)
      if (sessionWindow.isEmpty()) return sessionWindow.update(0, step)
      const n = Math.min(data.length - offset, streamWindow.current, sessionWindow.current, MAX_CHUNK)
      const piece = data.subarray(offset, offset + n)
      offset += n
      streamWindow.update(-n)
      sessionWindow.update(-n)
      state.timeout.reset()
      const last = offset === data.length
      state.framer.dataFrame({ id: stream.id, priority: state.priority.getPriority(), fin: false, data: piece },
        last ? callback : null)
      if (last) return
    }
  }
  // A turn later, as spdy-transport did: whatever the writer does next in
  // this turn (spdy sends the HEADERS of a response this way) is framed first.
  process.nextTick(step)
}

// 3. Everything the scheduler emits in one turn leaves as one socket write:
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

// 4. A stream's write completes only when its connection has room again, so
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

// Stream.prototype._write as spdy-transport has it (send the HEADERS
// first; wait behind pending control frames), with 2. and 4.
Stream.prototype._write = function (data, enc, callback) {
  const state = this._spdyState
  if (!state.sent) this.send()
  if (state.corked !== 0) {
    state.corkQueue.push(() => this._write(data, enc, callback))
    return
  }
  if (data.length === 0) return process.nextTick(callback)
  // The stream does not decode strings (spdy writes a few itself).
  const bytes = typeof data === 'string' ? Buffer.from(data, enc === 'buffer' ? 'utf8' : enc) : data
  sendWithinWindows(this, bytes, err => {
    if (err) return callback(err)
    whenRoom(this.connection, callback)
  })
}

module.exports = { MAX_QUEUED, MAX_CHUNK }

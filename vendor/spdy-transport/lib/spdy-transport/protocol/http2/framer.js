'use strict'

var transport = require('../../../spdy-transport')
var base = transport.protocol.base
var constants = require('./').constants

var assert = require('assert')
var util = require('util')
var debug = require('debug')('spdy:framer')
var debugExtra = require('debug')('spdy:framer:extra')

// h2bench: every frame is built in one Buffer of its final size (upstream
// built it in a WriteBuffer, wbuf, whose `new Buffer()` runs Node's
// deprecation check that walks the stack, and copied it out), and DATA
// frames reference the body instead of copying it (below). Header blocks
// are compressed synchronously (./hpack.js), so a HEADERS frame is
// scheduled before responseFrame() returns.

var FRAME_HEADER_SIZE = constants.FRAME_HEADER_SIZE

function Framer (options) {
  base.Framer.call(this, options)

  this.maxFrameSize = constants.INITIAL_MAX_FRAME_SIZE
}
util.inherits(Framer, base.Framer)
module.exports = Framer

Framer.create = function create (options) {
  return new Framer(options)
}

Framer.prototype.setMaxFrameSize = function setMaxFrameSize (size) {
  this.maxFrameSize = size
}

function writeHeader (buf, offset, length, type, flags, id) {
  buf[offset] = length >>> 16
  buf[offset + 1] = (length >>> 8) & 0xff
  buf[offset + 2] = length & 0xff
  buf[offset + 3] = type
  buf[offset + 4] = flags
  buf.writeUInt32BE(id & 0x7fffffff, offset + 5)
}

// A frame with a payload of `size` bytes, which `body(buf, offset)` writes.
// `frame.afterStream`: after the DATA its stream still has queued.
Framer.prototype._frame = function _frame (frame, size, body, callback) {
  if (debug.enabled) { debug('id=%d type=%s', frame.id, frame.type) }

  var buf = Buffer.allocUnsafe(FRAME_HEADER_SIZE + size)
  writeHeader(buf, 0, size, constants.frameType[frame.type], frame.flags, frame.id)
  if (body) { body(buf, FRAME_HEADER_SIZE) }

  this._resetTimeout()
  var item = {
    stream: frame.id,
    priority: frame.priority === undefined ? false : frame.priority,
    chunks: [ buf ],
    callback: callback
  }
  if (frame.afterStream) {
    this.scheduleAfterStream(item)
  } else {
    this.schedule(item)
  }

  return buf
}

// A header block (`block`, after `reserve` bytes that `body(buf, offset)`
// writes) as HEADERS or PUSH_PROMISE and the CONTINUATION frames it needs,
// in one buffer, so that no other frame can come between them.
Framer.prototype._continuationFrame = function _continuationFrame (frame,
  body,
  callback) {
  var block = frame.block
  var reserve = frame.reserve
  var max = this.maxFrameSize
  var first = Math.min(block.length, max - reserve)
  var rest = block.length - first
  var count = 1 + Math.ceil(rest / max)

  var buf = Buffer.allocUnsafe(count * FRAME_HEADER_SIZE + reserve + block.length)
  var flags = frame.flags | (count === 1 ? constants.flags.END_HEADERS : 0)
  writeHeader(buf, 0, reserve + first, constants.frameType[frame.type], flags, frame.id)
  var offset = FRAME_HEADER_SIZE
  if (reserve !== 0) { body(buf, offset) }
  offset += reserve
  block.copy(buf, offset, 0, first)
  offset += first

  for (var from = first; from < block.length; from += max) {
    var size = Math.min(max, block.length - from)
    var last = from + size === block.length
    writeHeader(buf, offset, size, constants.frameType.CONTINUATION,
      last ? constants.flags.END_HEADERS : 0, frame.id)
    offset += FRAME_HEADER_SIZE
    block.copy(buf, offset, from, from + size)
    offset += size
  }

  this._resetTimeout()
  var item = {
    stream: frame.id,
    priority: false,
    chunks: [ buf ],
    callback: callback
  }
  if (frame.afterStream) {
    this.scheduleAfterStream(item)
  } else {
    this.schedule(item)
  }
}

// Header fields → an HPACK block (a view of the encoder's scratch buffer:
// copied into its frame before anything else is encoded).
Framer.prototype._compressHeaders = function _compressHeaders (headers, pairs) {
  if (headers) {
    var names = Object.keys(headers)
    for (var n = 0; n < names.length; n++) {
      var name = names[n]
      var lowName = name.toLowerCase()

      // Not allowed in HTTP2
      switch (lowName) {
        case 'host':
        case 'connection':
        case 'keep-alive':
        case 'proxy-connection':
        case 'transfer-encoding':
        case 'upgrade':
          continue
      }

      // Should be in `pairs`
      if (lowName.charCodeAt(0) === 0x3a /* : */) {
        continue
      }

      // Do not compress, or index Cookie field (for security reasons)
      var neverIndex = lowName === 'cookie' || lowName === 'set-cookie'

      var value = headers[name]
      if (Array.isArray(value)) {
        for (var i = 0; i < value.length; i++) {
          pairs.push([ lowName, value[i] + '', neverIndex ])
        }
      } else {
        pairs.push([ lowName, value + '', neverIndex ])
      }
    }
  }

  assert(this.compress !== null, 'Framer version not initialized')
  if (debugExtra.enabled) { debugExtra('compressing headers=%j', pairs) }
  return this.compress.encode(pairs)
}

Framer.prototype._isDefaultPriority = function _isDefaultPriority (priority) {
  if (!priority) { return true }

  return !priority.parent &&
         priority.weight === constants.DEFAULT &&
         !priority.exclusive
}

Framer.prototype._defaultHeaders = function _defaultHeaders (frame, pairs) {
  if (!frame.path) {
    throw new Error('`path` is required frame argument')
  }

  pairs.push([ ':method', frame.method || base.constants.DEFAULT_METHOD, false ])
  pairs.push([ ':path', frame.path, false ])
  pairs.push([ ':scheme', frame.scheme || 'https', false ])
  pairs.push([ ':authority', frame.host ||
           (frame.headers && frame.headers.host) ||
           base.constants.DEFAULT_HOST, false ])
}

// h2bench: synchronous; a failure (a header the encoder cannot take) goes
// to the callback, or is emitted, on the next tick as before.
Framer.prototype._headersFrame = function _headersFrame (kind, frame, callback) {
  // A request before the peer's preface set the version (and the HPACK
  // context) waits for it (upstream's asynchronous framing let it through).
  if (this.compress === null) {
    this.once('version', function () {
      this._headersFrame(kind, frame, callback)
    })
    return
  }

  var pairs = []

  var block
  try {
    if (kind === 'request') {
      this._defaultHeaders(frame, pairs)
    } else if (kind === 'response') {
      pairs.push([ ':status', (frame.status || 200) + '', false ])
    }

    block = this._compressHeaders(frame.headers, pairs)
  } catch (err) {
    var self = this
    process.nextTick(function () {
      if (callback) {
        callback(err)
      } else {
        self.emit('error', err)
      }
    })
    return
  }

  var reserve = 0

  // If priority info is present, and the values are not default ones
  // reserve space for the priority info and add PRIORITY flag
  var priority = frame.priority
  if (!this._isDefaultPriority(priority)) { reserve = 5 }

  var flags = reserve === 0 ? 0 : constants.flags.PRIORITY

  // Mostly for testing
  if (frame.fin) {
    flags |= constants.flags.END_STREAM
  }

  this._continuationFrame({
    id: frame.id,
    type: 'HEADERS',
    flags: flags,
    reserve: reserve,
    block: block,
    // Trailers go after the stream's DATA.
    afterStream: kind === 'headers'
  }, function (buf, offset) {
    buf.writeUInt32BE(((priority.exclusive ? 0x80000000 : 0) |
                       priority.parent) >>> 0, offset)
    buf[offset + 4] = (priority.weight | 0) - 1
  }, callback)
}

Framer.prototype.requestFrame = function requestFrame (frame, callback) {
  return this._headersFrame('request', frame, callback)
}

Framer.prototype.responseFrame = function responseFrame (frame, callback) {
  return this._headersFrame('response', frame, callback)
}

Framer.prototype.headersFrame = function headersFrame (frame, callback) {
  return this._headersFrame('headers', frame, callback)
}

Framer.prototype.pushFrame = function pushFrame (frame, callback) {
  var self = this

  function sendPromise (block) {
    self._continuationFrame({
      id: frame.id,
      type: 'PUSH_PROMISE',
      flags: 0,
      reserve: 4,
      block: block
    }, function (buf, offset) {
      buf.writeUInt32BE(frame.promisedId, offset)
    })
  }

  function sendResponse (block, callback) {
    var priority = frame.priority
    var isDefaultPriority = self._isDefaultPriority(priority)
    var flags = isDefaultPriority ? 0 : constants.flags.PRIORITY

    // Mostly for testing
    if (frame.fin) {
      flags |= constants.flags.END_STREAM
    }

    self._continuationFrame({
      id: frame.promisedId,
      type: 'HEADERS',
      flags: flags,
      reserve: isDefaultPriority ? 0 : 5,
      block: block
    }, function (buf, offset) {
      buf.writeUInt32BE(((priority.exclusive ? 0x80000000 : 0) |
                        priority.parent) >>> 0, offset)
      buf[offset + 4] = (priority.weight | 0) - 1
    }, callback)
  }

  this._checkPush(function (err) {
    if (err) {
      return callback(err)
    }

    var promise = []
    var response = []
    try {
      self._defaultHeaders(frame, promise)
      response.push([ ':status', (frame.status || 200) + '', false ])

      sendPromise(self._compressHeaders(frame.headers, promise))
      if (frame.response === false) {
        return callback(null)
      }
      sendResponse(self._compressHeaders(frame.response, response), callback)
    } catch (err) {
      if (callback) {
        return callback(err)
      }
      self.emit('error', err)
    }
  })
}

Framer.prototype.priorityFrame = function priorityFrame (frame, callback) {
  var priority = frame.priority
  this._frame({
    id: frame.id,
    priority: false,
    type: 'PRIORITY',
    flags: 0
  }, 5, function (buf, offset) {
    buf.writeUInt32BE(((priority.exclusive ? 0x80000000 : 0) |
                      priority.parent) >>> 0, offset)
    buf[offset + 4] = (priority.weight | 0) - 1
  }, callback)
}

// h2bench: DATA frames reference the body instead of copying it: a 9-byte
// header and a view of the payload, the same frames on the wire. Upstream
// copied every frame's payload into a new buffer (WriteBuffer.copyFrom) and
// charged the connection window here, waiting when it was already empty;
// the caller now charges both windows before it calls this
// (../../stream.js _write), so this never waits. (This was
// server/compat/spdy-send.js part 1.)
//
// h2bench: an empty DATA frame that ends a stream (what Stream _onFinish
// sends after the body) sets END_STREAM on the stream's last DATA frame
// instead when that is still queued: one frame less per response, as
// node:http2 sends it.
Framer.prototype.dataFrame = function dataFrame (frame, callback) {
  var data = frame.data.length === 0 ? null : frame.data
  var priority = frame.priority === undefined ? false : frame.priority
  var size = data === null ? 0 : data.length
  var offset = 0
  this._resetTimeout()
  if (size === 0 && frame.fin) {
    var queued = this.lastQueuedData(frame.id)
    if (queued !== null) {
      queued.dataHeader[4] |= constants.flags.END_STREAM
      if (callback) {
        var before = queued.callback
        queued.callback = before ? function (err) { before(err); callback(err) } : callback
      }
      return
    }
  }
  do {
    var length = Math.min(size - offset, this.maxFrameSize)
    var last = offset + length === size
    var header = Buffer.allocUnsafe(FRAME_HEADER_SIZE)
    writeHeader(header, 0, length, constants.frameType.DATA,
      last && frame.fin ? constants.flags.END_STREAM : 0, frame.id)
    this.schedule({
      stream: frame.id,
      priority: priority,
      chunks: length === 0 ? [ header ] : [ header, data.subarray(offset, offset + length) ],
      callback: last ? callback : null,
      dataHeader: header
    })
    offset += length
  } while (offset < size)
}

Framer.prototype.pingFrame = function pingFrame (frame, callback) {
  var opaque = frame.opaque
  this._frame({
    id: 0,
    type: 'PING',
    flags: frame.ack ? constants.flags.ACK : 0
  }, opaque.length, function (buf, offset) {
    opaque.copy(buf, offset)
  }, callback)
}

Framer.prototype.rstFrame = function rstFrame (frame, callback) {
  var code = typeof frame.code === 'number' ? frame.code : constants.error[frame.code]
  this._frame({
    id: frame.id,
    type: 'RST_STREAM',
    flags: 0
  }, 4, function (buf, offset) {
    buf.writeUInt32BE(code, offset)
  }, callback)
}

Framer.prototype.prefaceFrame = function prefaceFrame (callback) {
  debug('preface')
  this._resetTimeout()
  this.schedule({
    stream: 0,
    priority: false,
    chunks: [ constants.PREFACE_BUFFER ],
    callback: callback
  })
}

Framer.prototype.settingsFrame = function settingsFrame (options, callback) {
  var params = []
  for (var i = 0; i < constants.settingsIndex.length; i++) {
    var name = constants.settingsIndex[i]
    if (!name) {
      continue
    }

    // value: Infinity
    if (!isFinite(options[name])) {
      continue
    }

    if (options[name] !== undefined) {
      params.push({ key: i, value: options[name] })
    }
  }

  this._frame({
    id: 0,
    type: 'SETTINGS',
    flags: 0
  }, params.length * 6, function (buf, offset) {
    for (var i = 0; i < params.length; i++) {
      buf.writeUInt16BE(params[i].key, offset + i * 6)
      buf.writeUInt32BE(params[i].value, offset + i * 6 + 2)
    }
  }, callback)
}

Framer.prototype.ackSettingsFrame = function ackSettingsFrame (callback) {
  this._frame({
    id: 0,
    type: 'SETTINGS',
    flags: constants.flags.ACK
  }, 0, null, callback)
}

Framer.prototype.windowUpdateFrame = function windowUpdateFrame (frame,
  callback) {
  this._frame({
    id: frame.id,
    type: 'WINDOW_UPDATE',
    flags: 0
  }, 4, function (buf, offset) {
    buf.writeInt32BE(frame.delta, offset)
  }, callback)
}

// h2bench: the code may be a name or a number (a ProtocolError's code is a
// number; upstream looked it up by name only, so such a GOAWAY said
// undefined, written as 0, NO_ERROR).
Framer.prototype.goawayFrame = function goawayFrame (frame, callback) {
  var code = typeof frame.code === 'number' ? frame.code : constants.goaway[frame.code]
  var extra = frame.extra ? Buffer.from(String(frame.extra)) : null
  this._frame({
    type: 'GOAWAY',
    id: 0,
    flags: 0
  }, 8 + (extra ? extra.length : 0), function (buf, offset) {
    // Last-good-stream-ID
    buf.writeUInt32BE(frame.lastId & 0x7fffffff, offset)
    // Code
    buf.writeUInt32BE(code, offset + 4)

    // Extra debugging information
    if (extra) { extra.copy(buf, offset + 8) }
  }, callback)
}

Framer.prototype.xForwardedFor = function xForwardedFor (frame, callback) {
  var host = Buffer.from(frame.host)
  this._frame({
    type: 'X_FORWARDED_FOR',
    id: 0,
    flags: 0
  }, host.length, function (buf, offset) {
    host.copy(buf, offset)
  }, callback)
}

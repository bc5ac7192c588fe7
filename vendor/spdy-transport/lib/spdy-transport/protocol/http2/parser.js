'use strict'

var parser = exports

var transport = require('../../../spdy-transport')
var base = transport.protocol.base
var utils = base.utils
var constants = require('./').constants

var assert = require('assert')
var util = require('util')

// h2bench: synchronous (see ../base/parser.js): each on*Frame(header, body)
// returns the frame for the connection (or null) and throws a ProtocolError;
// `body` is a Buffer. Upstream passed both to a callback, and an OffsetBuffer.

// h2bench: CONTINUATION flood (CVE-2024-28182, fixed in nghttp2 1.61.0 and so
// in Node's April 2024 security releases, beside CVE-2024-27983, a crash on
// the same frames; Envoy's was CVE-2024-27919): spdy-transport bounds a
// header block only by its bytes (80 KiB, queueHeaderBlock), which empty
// CONTINUATION frames never grow, so a HEADERS without END_HEADERS followed
// by zero-length CONTINUATIONs held the connection, burning CPU, forever
// (100,000 frames in half a second, no error). nghttp2 answers the 9th
// CONTINUATION of a block with GOAWAY (its max_continuations, default 8:
// envoyproxy/envoy#33513, icing/mod_h2#279); the same limit here, GOAWAY
// ENHANCE_YOUR_CALM. Eight 16 KiB frames are more than the 80 KiB the block
// may hold anyway. Test: test/server/integration/abuse.test.js,
// "CONTINUATION flood" (this was server/compat/spdy.js fix 8).
var MAX_CONTINUATIONS = 8

function Parser (options) {
  base.Parser.call(this, options)

  this.isServer = options.isServer

  this.waiting = constants.PREFACE_SIZE
  this.state = 'preface'
  this.pendingHeader = null

  // Header Block queue
  this._lastHeaderBlock = null
  this.maxFrameSize = constants.INITIAL_MAX_FRAME_SIZE
  this.maxHeaderListSize = constants.DEFAULT_MAX_HEADER_LIST_SIZE
}
util.inherits(Parser, base.Parser)

parser.create = function create (options) {
  return new Parser(options)
}

Parser.prototype.MAX_CONTINUATIONS = MAX_CONTINUATIONS

Parser.prototype.setMaxFrameSize = function setMaxFrameSize (size) {
  this.maxFrameSize = size
}

Parser.prototype.setMaxHeaderListSize = function setMaxHeaderListSize (size) {
  this.maxHeaderListSize = size
}

// Only for testing
Parser.prototype.skipPreface = function skipPreface () {
  // Just some number bigger than 3.1, doesn't really matter for HTTP2
  this.setVersion(4)

  // Parse frame header!
  this.state = 'frame-head'
  this.waiting = constants.FRAME_HEADER_SIZE
}

Parser.prototype.execute = function execute (buffer) {
  if (this.state === 'preface') { return this.onPreface(buffer) }

  if (this.state === 'frame-head') {
    return this.onFrameHead(buffer)
  }

  assert(this.state === 'frame-body' && this.pendingHeader !== null)

  var header = this.pendingHeader
  this.pendingHeader = null

  var frame = this.onFrameBody(header, buffer)
  this.state = 'frame-head'
  this.partial = false
  this.waiting = constants.FRAME_HEADER_SIZE
  this.push(frame)
}

Parser.prototype.executePartial = function executePartial (buffer) {
  var header = this.pendingHeader

  assert.strictEqual(header.flags & constants.flags.PADDED, 0)

  if (this.window) { this.window.recv.update(-buffer.length) }

  this.push({
    type: 'DATA',
    id: header.id,

    // Partial DATA can't be FIN
    fin: false,
    data: buffer
  })
}

Parser.prototype.onPreface = function onPreface (buffer) {
  if (buffer.latin1Slice(0, buffer.length) !== constants.PREFACE) {
    throw this.error(constants.error.PROTOCOL_ERROR, 'Invalid preface')
  }

  this.skipPreface()
}

Parser.prototype.onFrameHead = function onFrameHead (buffer) {
  var header = {
    length: (buffer[0] << 16) | (buffer[1] << 8) | buffer[2],
    control: true,
    type: buffer[3],
    flags: buffer[4],
    id: buffer.readUInt32BE(5) & 0x7fffffff
  }

  if (header.length > this.maxFrameSize) {
    throw this.error(constants.error.FRAME_SIZE_ERROR, 'Frame length OOB')
  }

  // h2bench: RFC 9113 6.10: a header block is sent as one run of frames; any
  // frame but a CONTINUATION of the same stream in between is a connection
  // error (upstream only refused unknown frame types there). h2spec 4.3,
  // 6.2 and 6.10.
  var block = this._lastHeaderBlock
  if (block !== null &&
      (header.type !== constants.frameType.CONTINUATION || header.id !== block.id)) {
    throw this.error(constants.error.PROTOCOL_ERROR,
      'Expected CONTINUATION of stream ' + block.id)
  }

  header.control = header.type !== constants.frameType.DATA

  this.state = 'frame-body'
  this.pendingHeader = header
  this.waiting = header.length
  this.partial = !header.control

  // TODO(indutny): eventually support partial padded DATA
  if (this.partial) {
    if (header.id === 0) {
      throw this.error(constants.error.PROTOCOL_ERROR,
        'Received DATA frame with stream=0')
    }
    this.partial = (header.flags & constants.flags.PADDED) === 0
  }
}

Parser.prototype.onFrameBody = function onFrameBody (header, buffer) {
  var frameType = constants.frameType

  if (header.type === frameType.DATA) {
    return this.onDataFrame(header, buffer)
  } else if (header.type === frameType.HEADERS) {
    return this.onHeadersFrame(header, buffer)
  } else if (header.type === frameType.CONTINUATION) {
    return this.onContinuationFrame(header, buffer)
  } else if (header.type === frameType.WINDOW_UPDATE) {
    return this.onWindowUpdateFrame(header, buffer)
  } else if (header.type === frameType.RST_STREAM) {
    return this.onRSTFrame(header, buffer)
  } else if (header.type === frameType.SETTINGS) {
    return this.onSettingsFrame(header, buffer)
  } else if (header.type === frameType.PUSH_PROMISE) {
    return this.onPushPromiseFrame(header, buffer)
  } else if (header.type === frameType.PING) {
    return this.onPingFrame(header, buffer)
  } else if (header.type === frameType.GOAWAY) {
    return this.onGoawayFrame(header, buffer)
  } else if (header.type === frameType.PRIORITY) {
    return this.onPriorityFrame(header, buffer)
  } else if (header.type === frameType.X_FORWARDED_FOR) {
    return this.onXForwardedFrame(header, buffer)
  } else {
    return this.onUnknownFrame(header, buffer)
  }
}

Parser.prototype.onUnknownFrame = function onUnknownFrame (header, buffer) {
  if (this._lastHeaderBlock !== null) {
    throw this.error(constants.error.PROTOCOL_ERROR,
      'Received unknown frame in the middle of a header block')
  }
  return { type: 'unknown: ' + header.type }
}

// The body without its padding.
Parser.prototype.unpadData = function unpadData (header, body) {
  var isPadded = (header.flags & constants.flags.PADDED) !== 0

  if (!isPadded) { return body }

  if (body.length < 1) {
    throw this.error(constants.error.FRAME_SIZE_ERROR,
      'Not enough space for padding')
  }

  var pad = body[0]
  if (body.length - 1 < pad) {
    throw this.error(constants.error.PROTOCOL_ERROR,
      'Invalid padding size')
  }

  return body.subarray(1, body.length - pad)
}

Parser.prototype.onDataFrame = function onDataFrame (header, body) {
  var isEndStream = (header.flags & constants.flags.END_STREAM) !== 0

  if (header.id === 0) {
    throw this.error(constants.error.PROTOCOL_ERROR,
      'Received DATA frame with stream=0')
  }

  // Count received bytes
  if (this.window) {
    this.window.recv.update(-body.length)
  }

  return {
    type: 'DATA',
    id: header.id,
    fin: isEndStream,
    data: this.unpadData(header, body)
  }
}

Parser.prototype.initHeaderBlock = function initHeaderBlock (header,
  frame,
  block) {
  if (this._lastHeaderBlock) {
    throw this.error(constants.error.PROTOCOL_ERROR,
      'Duplicate Stream ID')
  }

  this._lastHeaderBlock = {
    id: header.id,
    frame: frame,
    queue: [],
    size: 0,
    continuations: 0
  }

  return this.queueHeaderBlock(header, block)
}

Parser.prototype.queueHeaderBlock = function queueHeaderBlock (header, block) {
  var item = this._lastHeaderBlock
  if (!this._lastHeaderBlock || item.id !== header.id) {
    throw this.error(constants.error.PROTOCOL_ERROR,
      'No matching stream for continuation')
  }

  var fin = (header.flags & constants.flags.END_HEADERS) !== 0

  item.queue.push(block)
  item.size += block.length

  if (item.size >= this.maxHeaderListSize) {
    throw this.error(constants.error.PROTOCOL_ERROR,
      'Compressed header list is too large')
  }

  if (!fin) { return null }
  this._lastHeaderBlock = null

  var list
  try {
    list = this.decompress.decode(item.queue.length === 1
      ? item.queue[0]
      : Buffer.concat(item.queue, item.size))
  } catch (err) {
    throw this.error(constants.error.COMPRESSION_ERROR, err.message)
  }

  var headers = {}
  var size = 0
  for (var i = 0; i < list.length; i++) {
    var name = list[i][0]
    var value = list[i][1]

    size += name.length + value.length + 32
    if (size >= this.maxHeaderListSize) {
      throw this.error(constants.error.PROTOCOL_ERROR,
        'Header list is too large')
    }

    if (/[A-Z]/.test(name)) {
      throw this.error(constants.error.PROTOCOL_ERROR,
        'Header name must be lowercase')
    }

    utils.addHeaderLine(name, value, headers)
  }

  item.frame.headers = headers
  item.frame.path = headers[':path']

  return item.frame
}

Parser.prototype.onHeadersFrame = function onHeadersFrame (header, body) {
  if (header.id === 0) {
    throw this.error(constants.error.PROTOCOL_ERROR,
      'Invalid stream id for HEADERS')
  }

  var data = this.unpadData(header, body)

  var isPriority = (header.flags & constants.flags.PRIORITY) !== 0
  if (data.length < (isPriority ? 5 : 0)) {
    throw this.error(constants.error.FRAME_SIZE_ERROR,
      'Not enough data for HEADERS')
  }

  var exclusive = false
  var dependency = 0
  var weight = constants.DEFAULT_WEIGHT
  if (isPriority) {
    dependency = data.readUInt32BE(0)
    exclusive = (dependency & 0x80000000) !== 0
    dependency &= 0x7fffffff

    // Weight's range is [1, 256]
    weight = data[4] + 1
    data = data.subarray(5)
  }

  if (dependency === header.id) {
    throw this.error(constants.error.PROTOCOL_ERROR,
      'Stream can\'t dependend on itself')
  }

  var streamInfo = {
    type: 'HEADERS',
    id: header.id,
    priority: {
      parent: dependency,
      exclusive: exclusive,
      weight: weight
    },
    fin: (header.flags & constants.flags.END_STREAM) !== 0,
    writable: true,
    headers: null,
    path: null
  }

  return this.initHeaderBlock(header, streamInfo, data)
}

Parser.prototype.onContinuationFrame = function onContinuationFrame (header, body) {
  var block = this._lastHeaderBlock
  // Every HEADERS starts a new block object, so the count is per block.
  if (block && block.id === header.id && ++block.continuations > MAX_CONTINUATIONS) {
    throw this.error(constants.error.ENHANCE_YOUR_CALM,
      'more than ' + MAX_CONTINUATIONS + ' CONTINUATION frames in one header block')
  }
  return this.queueHeaderBlock(header, body)
}

Parser.prototype.onRSTFrame = function onRSTFrame (header, body) {
  if (body.length !== 4) {
    throw this.error(constants.error.FRAME_SIZE_ERROR,
      'RST_STREAM length not 4')
  }

  if (header.id === 0) {
    throw this.error(constants.error.PROTOCOL_ERROR,
      'Invalid stream id for RST_STREAM')
  }

  return {
    type: 'RST',
    id: header.id,
    code: constants.errorByCode[body.readUInt32BE(0)]
  }
}

Parser.prototype._validateSettings = function _validateSettings (settings) {
  if (settings['enable_push'] !== undefined &&
      settings['enable_push'] !== 0 &&
      settings['enable_push'] !== 1) {
    return this.error(constants.error.PROTOCOL_ERROR,
      'SETTINGS_ENABLE_PUSH must be 0 or 1')
  }

  if (settings['initial_window_size'] !== undefined &&
      (settings['initial_window_size'] > constants.MAX_INITIAL_WINDOW_SIZE ||
       settings['initial_window_size'] < 0)) {
    return this.error(constants.error.FLOW_CONTROL_ERROR,
      'SETTINGS_INITIAL_WINDOW_SIZE is OOB')
  }

  if (settings['max_frame_size'] !== undefined &&
      (settings['max_frame_size'] > constants.ABSOLUTE_MAX_FRAME_SIZE ||
       settings['max_frame_size'] < constants.INITIAL_MAX_FRAME_SIZE)) {
    return this.error(constants.error.PROTOCOL_ERROR,
      'SETTINGS_MAX_FRAME_SIZE is OOB')
  }

  return undefined
}

Parser.prototype.onSettingsFrame = function onSettingsFrame (header, body) {
  if (header.id !== 0) {
    throw this.error(constants.error.PROTOCOL_ERROR,
      'Invalid stream id for SETTINGS')
  }

  var isAck = (header.flags & constants.flags.ACK) !== 0
  if (isAck && body.length !== 0) {
    throw this.error(constants.error.FRAME_SIZE_ERROR,
      'SETTINGS with ACK and non-zero length')
  }

  if (isAck) {
    return { type: 'ACK_SETTINGS' }
  }

  if (body.length % 6 !== 0) {
    throw this.error(constants.error.FRAME_SIZE_ERROR,
      'SETTINGS length not multiple of 6')
  }

  var settings = {}
  for (var off = 0; off < body.length; off += 6) {
    var id = body.readUInt16BE(off)
    var value = body.readUInt32BE(off + 2)
    var name = constants.settingsIndex[id]

    if (name) {
      settings[name] = value
    }
  }

  var err = this._validateSettings(settings)
  if (err !== undefined) {
    throw err
  }

  return {
    type: 'SETTINGS',
    settings: settings
  }
}

Parser.prototype.onPushPromiseFrame = function onPushPromiseFrame (header, body) {
  if (header.id === 0) {
    throw this.error(constants.error.PROTOCOL_ERROR,
      'Invalid stream id for PUSH_PROMISE')
  }

  var data = this.unpadData(header, body)

  if (data.length < 4) {
    throw this.error(constants.error.FRAME_SIZE_ERROR,
      'PUSH_PROMISE length less than 4')
  }

  var streamInfo = {
    type: 'PUSH_PROMISE',
    id: header.id,
    fin: false,
    promisedId: data.readUInt32BE(0) & 0x7fffffff,
    headers: null,
    path: null
  }

  return this.initHeaderBlock(header, streamInfo, data.subarray(4))
}

Parser.prototype.onPingFrame = function onPingFrame (header, body) {
  if (body.length !== 8) {
    throw this.error(constants.error.FRAME_SIZE_ERROR,
      'PING length != 8')
  }

  if (header.id !== 0) {
    throw this.error(constants.error.PROTOCOL_ERROR,
      'Invalid stream id for PING')
  }

  var ack = (header.flags & constants.flags.ACK) !== 0
  return { type: 'PING', opaque: body, ack: ack }
}

Parser.prototype.onGoawayFrame = function onGoawayFrame (header, body) {
  if (body.length < 8) {
    throw this.error(constants.error.FRAME_SIZE_ERROR,
      'GOAWAY length < 8')
  }

  if (header.id !== 0) {
    throw this.error(constants.error.PROTOCOL_ERROR,
      'Invalid stream id for GOAWAY')
  }

  var frame = {
    type: 'GOAWAY',
    lastId: body.readUInt32BE(0),
    code: constants.goawayByCode[body.readUInt32BE(4)]
  }

  if (body.length !== 8) { frame.debug = body.subarray(8) }

  return frame
}

Parser.prototype.onPriorityFrame = function onPriorityFrame (header, body) {
  if (body.length !== 5) {
    throw this.error(constants.error.FRAME_SIZE_ERROR,
      'PRIORITY length != 5')
  }

  if (header.id === 0) {
    throw this.error(constants.error.PROTOCOL_ERROR,
      'Invalid stream id for PRIORITY')
  }

  var dependency = body.readUInt32BE(0)

  // Again the range is from 1 to 256
  var weight = body[4] + 1

  if (dependency === header.id) {
    throw this.error(constants.error.PROTOCOL_ERROR,
      'Stream can\'t dependend on itself')
  }

  return {
    type: 'PRIORITY',
    id: header.id,
    priority: {
      exclusive: (dependency & 0x80000000) !== 0,
      parent: dependency & 0x7fffffff,
      weight: weight
    }
  }
}

Parser.prototype.onWindowUpdateFrame = function onWindowUpdateFrame (header, body) {
  if (body.length !== 4) {
    throw this.error(constants.error.FRAME_SIZE_ERROR,
      'WINDOW_UPDATE length != 4')
  }

  var delta = body.readInt32BE(0)
  if (delta === 0) {
    throw this.error(constants.error.PROTOCOL_ERROR,
      'WINDOW_UPDATE delta == 0')
  }

  return {
    type: 'WINDOW_UPDATE',
    id: header.id,
    delta: delta
  }
}

Parser.prototype.onXForwardedFrame = function onXForwardedFrame (header, body) {
  return {
    type: 'X_FORWARDED_FOR',
    host: body.toString()
  }
}

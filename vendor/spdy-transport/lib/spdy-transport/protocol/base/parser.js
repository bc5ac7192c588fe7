'use strict'

var util = require('util')
var EventEmitter = require('events').EventEmitter
var utils = require('./').utils

// h2bench: the parser is a plain EventEmitter fed by the socket's 'data'
// events, and parses every complete frame of a read synchronously. Upstream
// it was a readable-stream Transform that copied each read into an
// OffsetBuffer and went round process.nextTick for every frame header and
// every frame body, with header blocks decompressed asynchronously through
// a stream. Events are the same: 'data' (a frame), 'error', 'version'.
// A frame's body is a Buffer (a view of the read), not an OffsetBuffer.
function Parser (options) {
  EventEmitter.call(this)

  // Bytes of the read before the last that were not a whole frame yet.
  this.pending = null
  this.partial = false
  this.waiting = 0

  this.window = options.window

  this.version = null
  this.decompress = null
  this.dead = false
}
module.exports = Parser
util.inherits(Parser, EventEmitter)

Parser.prototype.error = utils.error

Parser.prototype.kill = function kill () {
  this.dead = true
  this.pending = null
}

// A frame for the connection (null and arrays as the callbacks had them).
Parser.prototype.push = function push (frame) {
  if (frame === null || frame === undefined) {
    return
  }
  if (Array.isArray(frame)) {
    for (var i = 0; i < frame.length; i++) {
      this.emit('data', frame[i])
    }
    return
  }
  this.emit('data', frame)
}

// Everything the socket read, in order. Returns true (no backpressure, as
// with the Transform, whose output was always consumed at once).
Parser.prototype.write = function write (data) {
  if (this.dead) {
    return true
  }
  if (this.pending !== null) {
    data = Buffer.concat([this.pending, data])
    this.pending = null
  }

  var off = 0
  var len = data.length
  try {
    while (!this.dead) {
      var avail = len - off
      if (avail < this.waiting) {
        // Partial DATA frame or something that we can process partially
        if (this.partial && avail > 0) {
          this.waiting -= avail
          this.executePartial(data.subarray(off, len))
          off = len
        }
        break
      }

      var content = data.subarray(off, off + this.waiting)
      off += this.waiting
      this.execute(content)
      if (off === len && this.waiting !== 0) {
        break
      }
    }
  } catch (err) {
    if (!(err instanceof utils.ProtocolError)) {
      throw err
    }
    this.kill()
    this.emit('error', err)
    return true
  }

  if (!this.dead && off < len) {
    // The socket's reads are buffers of their own: a view is enough.
    this.pending = data.subarray(off)
  }
  return true
}

Parser.prototype.end = function end () {}

Parser.prototype.setVersion = function setVersion (version) {
  this.version = version
  this.emit('version', version)
}

// h2bench: `pair.decompress` is a synchronous HPACK decoder (../http2/hpack.js).
Parser.prototype.setCompression = function setCompresion (pair) {
  this.decompress = pair.decompress
}

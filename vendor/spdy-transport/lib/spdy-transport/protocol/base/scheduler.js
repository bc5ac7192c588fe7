'use strict'

var transport = require('../../../spdy-transport')
var utils = transport.utils

var util = require('util')
var EventEmitter = require('events').EventEmitter
var debug = require('debug')('spdy:scheduler')

/*
 * We create following structure in `pending`:
 * [ [ id = 0 ], [ id = 1 ], [ id = 2 ], [ id = 0 ] ]
 *     chunks      chunks      chunks      chunks
 *     chunks                  chunks
 *     chunks
 *
 * Then on the `.tick()` pass we pick one chunks from each item and remove the
 * item if it is empty:
 *
 * [ [ id = 0 ], [ id = 2 ] ]
 *     chunks      chunks
 *     chunks
 *
 * Writing out: chunks for 0, chunks for 1, chunks for 2, chunks for 0
 *
 * This way data is interleaved between the different streams.
 */

// h2bench: the scheduler writes to its socket itself. Upstream it was a
// readable-stream Readable piped into the socket: every frame's chunks were
// pushed into the Readable's buffer on a nextTick, and the pipe wrote them to
// the socket one chunk at a time on later ticks, so a 16 KiB DATA frame was
// one socket write and often one TLS record per 9-byte frame header
// (measured: 100 write(2) calls per MiB of body, a third of them 31-byte
// records; spdy-transport#60, open: the scheduler ignores push()'s return,
// the only backpressure it had). Now everything scheduled until the tick
// runs (setImmediate: all the streams one event-loop turn answered) is
// written in one corked write, so TLS cuts it into full records and the
// kernel gets a few large writes (node:http2 does the same per session).
// Backpressure is the writers' (stream.js _write waits while the socket holds
// more than `maxQueued`), not the scheduler's: it never holds frames back.
function Scheduler (options) {
  EventEmitter.call(this)

  // Pretty big window by default
  this.window = 0.25

  if (options && options.window) { this.window = options.window }

  this.sync = []
  this.list = []
  this.count = 0
  // Bytes scheduled and not yet written.
  this.bytes = 0
  this.pendingTick = false

  // The socket (see pipe()); null drops what is scheduled.
  this.dest = null
  // Bytes per socket write at most (a frame more): the tick uncorks after
  // this many, so TLS copies and encrypts a bounded piece at a time (it
  // copies a write of many buffers into one before it encrypts it).
  this.maxWrite = (options && options.maxWrite) || 256 * 1024
  this.corkedBytes = 0

  var self = this
  this._onTick = function () {
    self.pendingTick = false
    self.tick()
  }
}
util.inherits(Scheduler, EventEmitter)
module.exports = Scheduler

// Just for testing, really
Scheduler.create = function create (options) {
  return new Scheduler(options)
}

// Where frames go, as Readable.pipe() did.
Scheduler.prototype.pipe = function pipe (dest) {
  this.dest = dest
  return dest
}

// From now on frames are dropped (their callbacks still run).
Scheduler.prototype.unpipe = function unpipe () {
  this.dest = null
}

// Upstream's Readable flowed into nowhere after unpipe(); here unpipe() alone
// does that.
Scheduler.prototype.resume = function resume () {}

// Bytes scheduled and not yet written (Readable's readableLength before).
Object.defineProperty(Scheduler.prototype, 'readableLength', {
  get: function () { return this.bytes }
})

function insertCompare (a, b) {
  return a.priority === b.priority
    ? a.stream - b.stream
    : b.priority - a.priority
}

Scheduler.prototype.schedule = function schedule (data) {
  var priority = data.priority
  var stream = data.stream
  var chunks = data.chunks

  for (var i = 0; i < chunks.length; i++) this.bytes += chunks[i].length
  this.count += chunks.length

  // Synchronous frames should not be interleaved
  if (priority === false) {
    this.sync.push(data)
    this._scheduleTick()
    return
  }

  var item = new SchedulerItem(stream, priority)
  var index = utils.binaryLookup(this.list, item, insertCompare)

  // Push new item
  if (index >= this.list.length || insertCompare(this.list[index], item) !== 0) {
    this.list.splice(index, 0, item)
  } else { // Coalesce
    item = this.list[index]
  }

  item.push(data)

  this._scheduleTick()
}

// A control frame of a stream (trailing HEADERS) goes after the DATA of that
// stream still queued, not before it as a frame of the sync queue would.
Scheduler.prototype.scheduleAfterStream = function scheduleAfterStream (data) {
  var list = this.list
  for (var i = 0; i < list.length; i++) {
    if (list[i].stream === data.stream) {
      var chunks = data.chunks
      for (var j = 0; j < chunks.length; j++) this.bytes += chunks[j].length
      this.count += chunks.length
      list[i].push(data)
      this._scheduleTick()
      return
    }
  }
  this.schedule(data)
}

// Drops the frames `stream` has queued in the async list (its DATA: the
// stream is being reset) and returns the DATA payload bytes dropped. Their
// callbacks run. Upstream wrote them after the RST_STREAM that went ahead
// of them in the sync queue, where the peer takes them for DATA on a closed
// stream.
Scheduler.prototype.dropStream = function dropStream (stream) {
  var dropped = 0
  var callbacks = []
  var list = this.list
  for (var i = list.length - 1; i >= 0; i--) {
    if (list[i].stream !== stream) { continue }
    var queue = list[i].queue
    for (var j = 0; j < queue.length; j++) {
      var chunks = queue[j].chunks
      for (var k = 0; k < chunks.length; k++) {
        this.count--
        this.bytes -= chunks[k].length
        if (queue[j].dataHeader && k !== 0) { dropped += chunks[k].length }
      }
      if (queue[j].callback) { callbacks.push(queue[j].callback) }
    }
    list.splice(i, 1)
  }
  for (var c = 0; c < callbacks.length; c++) { callbacks[c](null) }
  return dropped
}

// The last frame `stream` has queued, if it is a DATA frame (its `dataHeader`)
// not yet written, and nothing else of the stream is queued elsewhere.
Scheduler.prototype.lastQueuedData = function lastQueuedData (stream) {
  var found = null
  var list = this.list
  for (var i = 0; i < list.length; i++) {
    if (list[i].stream === stream) {
      if (found !== null) { return null }
      found = list[i]
    }
  }
  if (found === null) { return null }
  var last = found.queue[found.queue.length - 1]
  return last !== undefined && last.dataHeader ? last : null
}

Scheduler.prototype._scheduleTick = function _scheduleTick () {
  if (this.count === 0 || this.pendingTick) {
    return
  }
  this.pendingTick = true
  setImmediate(this._onTick)
}

// Writes what is scheduled. A callback that schedules more (a stream's next
// write) is written in the same corked write.
Scheduler.prototype.tick = function tick () {
  var dest = this.dest
  // (A destination without cork(), as in tests, gets the writes one by one.)
  var cork = dest !== null && !dest.destroyed && typeof dest.cork === 'function'
  if (cork) { dest.cork() }
  this.corkedBytes = 0
  try {
    for (var round = 0; this.count > 0 && round < 16; round++) {
      this.tickSync()
      this.tickAsync()
    }
  } finally {
    if (cork) { dest.uncork() }
  }
  this._scheduleTick()
  // Writers waiting for the framer and the socket to hold less
  // (Connection _whenRoom) look again.
  this.emit('drain')
  return true
}

Scheduler.prototype._write = function _write (item) {
  var dest = this.dest
  var chunks = item.chunks
  var writable = dest !== null && !dest.destroyed && !dest.writableEnded
  for (var i = 0; i < chunks.length; i++) {
    this.count--
    this.bytes -= chunks[i].length
    if (writable) {
      dest.write(chunks[i])
      this.corkedBytes += chunks[i].length
    }
  }
  if (writable && this.corkedBytes >= this.maxWrite && dest.writableCorked) {
    this.corkedBytes = 0
    dest.uncork()
    dest.cork()
  }
  if (debug.enabled) { debug('wrote stream=%d chunks=%d pending=%d', item.stream, chunks.length, this.count) }

  if (item.callback) {
    item.callback(null)
  }
}

Scheduler.prototype.tickSync = function tickSync () {
  // Empty sync queue first
  var sync = this.sync
  this.sync = []
  for (var i = 0; i < sync.length; i++) {
    this._write(sync[i])
  }
  return true
}

Scheduler.prototype.tickAsync = function tickAsync () {
  var list = this.list
  if (list.length === 0) {
    return true
  }

  var startPriority = list[0].priority
  for (var index = 0; list.length > 0; index++) {
    // Loop index
    index %= list.length
    if (startPriority - list[index].priority > this.window) { index = 0 }

    var current = list[index]
    var item = current.shift()

    if (current.isEmpty()) {
      list.splice(index, 1)
      if (index === 0 && list.length > 0) {
        startPriority = list[0].priority
      }
      index--
    }

    this._write(item)
  }

  return true
}

// Everything scheduled, written now.
Scheduler.prototype.dump = function dump () {
  this.tick()
}

function SchedulerItem (stream, priority) {
  this.stream = stream
  this.priority = priority
  this.queue = []
}

SchedulerItem.prototype.push = function push (chunks) {
  this.queue.push(chunks)
}

SchedulerItem.prototype.shift = function shift () {
  return this.queue.shift()
}

SchedulerItem.prototype.isEmpty = function isEmpty () {
  return this.queue.length === 0
}

'use strict'

var transport = exports

// Exports utils
transport.utils = require('./spdy-transport/utils')

// Export parser&framer
transport.protocol = {}
transport.protocol.base = require('./spdy-transport/protocol/base')
// h2bench: HTTP/2 only. The SPDY/2, 3 and 3.1 protocol (protocol/spdy/) is
// left out: its parser and framer were built on the stream-based base
// classes this copy replaced, h2bench's lane offers only h2 in ALPN, and no
// browser has spoken SPDY since 2016. Connection.create() says so when asked.
transport.protocol.http2 = require('./spdy-transport/protocol/http2')

// Window
transport.Window = require('./spdy-transport/window')

// Priority Tree
transport.Priority = require('./spdy-transport/priority')

// Export Connection and Stream
transport.Stream = require('./spdy-transport/stream').Stream
transport.Connection = require('./spdy-transport/connection').Connection

// Just for `transport.connection.create()`
transport.connection = transport.Connection

'use strict'

var constants = require('./').constants

// h2bench: a connection's HPACK encoder and decoder (./hpack.js, synchronous;
// upstream: hpack.js's stream-based compressor and decompressor).
var hpack = require('./hpack')

function Pool () {
}
module.exports = Pool

Pool.create = function create () {
  return new Pool()
}

Pool.prototype.get = function get (version) {
  return {
    version: version,

    compress: new hpack.Encoder({ maxSize: constants.HEADER_TABLE_SIZE, limit: constants.HEADER_TABLE_SIZE }),
    decompress: new hpack.Decoder({ maxSize: constants.HEADER_TABLE_SIZE })
  }
}

Pool.prototype.put = function put () {
}

'use strict'

// A module of spdy-transport, the copy that spdy itself loads (the compat
// patches must change the classes spdy uses, not another copy's).
const path = require('node:path')

const spdyDir = path.dirname(require.resolve('spdy'))

function transportFile (file) {
  return require(require.resolve(`spdy-transport/lib/spdy-transport/${file}`, { paths: [spdyDir] }))
}

module.exports = { transportFile }

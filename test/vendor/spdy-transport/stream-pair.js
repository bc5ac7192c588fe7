'use strict'

// Two Duplex streams joined back to back, as the npm package stream-pair
// (a devDependency of spdy-transport's own tests) gives them: what one
// writes, the other reads; ending one ends the other's readable side.
const { Duplex } = require('node:stream')

class Pair extends Duplex {
  constructor (other) {
    super()
    this.other = other || new Pair(this)
    this.once('finish', () => this.other.push(null))
  }

  _write (chunk, encoding, callback) {
    this.other.push(chunk)
    callback()
  }

  _read () {}
}

exports.create = () => new Pair()

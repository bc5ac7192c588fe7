'use strict'

// Builds h3get (main.go: an HTTP/3 client on quic-go's http3 package, the
// tests' client for the h3 lane) into .cache/h3get/<hash>/h3get: see
// tools/go-build.js. The first build takes about 45 s on 2 cores.
const { goBuilder, findGo } = require('../go-build')

// quic-go v0.65 declares `go 1.26.0`.
const ensureH3get = goBuilder({ name: 'h3get', dir: __dirname, what: 'tools/h3get, the tests\' HTTP/3 client', goNeeded: '1.26' })

module.exports = { ensureH3get, findGo, binaryPath: ensureH3get.binaryPath }

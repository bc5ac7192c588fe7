'use strict'

// Builds h2spec (main.go: github.com/summerwind/h2spec's HTTP/2 conformance
// tests, the tests' check of lane h2) into .cache/h2spec/<hash>/h2spec: see
// tools/go-build.js. The first build takes about 30 s on 2 cores.
const { goBuilder } = require('../go-build')

const ensureH2spec = goBuilder({ name: 'h2spec', dir: __dirname, what: 'tools/h2spec, the tests\' HTTP/2 conformance check', goNeeded: '1.26' })

module.exports = { ensureH2spec, binaryPath: ensureH2spec.binaryPath }

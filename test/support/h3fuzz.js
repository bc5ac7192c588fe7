'use strict'

// The fuzz test's HTTP/3 client (test/server/integration/h3fuzz/: quic-go's http3, the module versions of
// tools/h3get), built once with Go. test/run.js builds it before the tests' namespace, which has no network.
const path = require('node:path')
const { goBuilder } = require('../../tools/go-build')

const ensureH3fuzz = goBuilder({ name: 'h3fuzz', dir: path.join(__dirname, '..', 'server', 'integration', 'h3fuzz'), what: 'the fuzz test\'s HTTP/3 client', goNeeded: '1.26' })

module.exports = { ensureH3fuzz }

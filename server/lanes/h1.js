'use strict'

const https = require('node:https')
const { sendPaced } = require('../send-body')

// Lane h1: Node's https, ALPN offering only http/1.1.
module.exports = {
  name: 'h1',
  label: 'HTTP/1.1 (node:https)',
  protocol: 'http/1.1',
  defaultPort: 3001,
  createServer (app, tls) {
    return https.createServer({ ...tls, ALPNProtocols: ['http/1.1'] }, app)
  },
  sendBody: sendPaced,
  pushSupport: () => 'unsupported',
  push () { throw new Error('lane h1 cannot push') }
}

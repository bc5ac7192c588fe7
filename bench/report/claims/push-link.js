'use strict'

// The source's push table answered through the packet-level link with a client that accepts push (Node's http2).
const { pushClaim } = require('./push')

module.exports = [pushClaim('request')]

'use strict'

const { generateCertificate, spkiHash } = require('../../server/certs')

let pending = null

// One in-memory certificate for the whole test run; tests never touch certs/.
function testCertificate () {
  if (!pending) {
    pending = generateCertificate().then(pair => ({ ...pair, spki: spkiHash(pair.cert) }))
  }
  return pending
}

module.exports = { testCertificate }

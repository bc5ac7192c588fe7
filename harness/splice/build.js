'use strict'

// Builds the TCP splice of a site behind the link (./splice.c, the C standard
// library only; why it exists: its header comment, harness/site-nat.js) once
// per version of its source, into .cache/splice/<hash>/ (common/c-build.js,
// as the link's forwarder is built). Built on first use: a second of cc.
const path = require('node:path')
const { cBuilder } = require('../../common/c-build')

const builder = cBuilder({
  name: 'splice',
  binary: 'h2bench-splice',
  sources: [path.join(__dirname, 'splice.c')],
  needs: 'a site behind the link',
  what: 'its TCP splice (harness/splice/splice.c)'
})

// The path of a built splice, building it when missing.
const ensureSplice = builder.ensure

module.exports = { ensureSplice }

'use strict'

// Builds the forwarder (forwarder.c, its queue disciplines aqm.c, its NAT
// nat.c and their table.c; the C standard library only) once per version of
// its sources, into .cache/forwarder/<hash>/ (common/c-build.js). `npm install`
// runs this (postinstall); the link builds it on first use if that did not.
// Why C: measured against a Python forwarder of the same design (docs/link-bench.md,
// "Why C"), it is the one that keeps its added delay under a
// millisecond at 1 Gbit/s offered load.
const path = require('node:path')
const { cBuilder } = require('../../common/c-build')

const builder = cBuilder({
  name: 'forwarder',
  binary: 'h2bench-forwarder',
  sources: ['forwarder.c', 'aqm.c', 'nat.c', 'table.c'].map(f => path.join(__dirname, f)),
  headers: ['aqm.h', 'nat.h', 'table.h'].map(f => path.join(__dirname, f)),
  libs: ['-lm'],
  needs: 'the packet-level link',
  what: 'its forwarder (link/forwarder/*.c)'
})

// The path of a built forwarder, building it when missing.
const ensureForwarder = builder.ensure

module.exports = { ensureForwarder }

#!/usr/bin/env node
'use strict'

// Builds a program h2bench runs, once per version of its sources, into .cache/:
//   node bin/h2bench-build.js forwarder            the packet-level link's forwarder (C); npm install runs it
//   node bin/h2bench-build.js caddy [--optional]   the edge lanes' pinned Caddy (Go); npm run build:caddy
//   node bin/h2bench-build.js h3get                the tests' HTTP/3 client (Go)
//   node bin/h2bench-build.js oha                  h2bench load's HTTP/3 client (Rust); npm run build:oha
// --optional (npm install's postinstall): a failure is a warning saying what
// works without the program, and the install goes on. The forwarder's is
// always optional: only the link needs it.
const { ensureForwarder } = require('../link/forwarder/build')
const { buildFromCommandLine } = require('../tools/go-build')
const { ensureCaddy } = require('../tools/caddy/build')
const { ensureH3get } = require('../tools/h3get/build')
const { ensureOha } = require('../tools/oha/build')

const PROGRAMS = {
  forwarder () {
    try {
      console.log(`h2bench forwarder: ${ensureForwarder()}`)
    } catch (err) {
      // An install must not fail for want of a compiler: only the link needs it.
      console.warn(`h2bench: ${err.message}; everything but the packet-level link works without it`)
    }
  },
  caddy (argv) {
    buildFromCommandLine('caddy', ensureCaddy, { argv, without: 'the h3 and h2e lanes use a system Caddy if there is one (npm start says which), every other lane works without it' })
  },
  h3get (argv) {
    buildFromCommandLine('h3get', ensureH3get, { argv })
  },
  oha () {
    const t0 = Date.now()
    ensureOha({ log: console.log }).then(out => console.log(`oha: ${out} (${((Date.now() - t0) / 1000).toFixed(1)} s)`), err => {
      console.error(`oha: ${err.message}`)
      process.exitCode = 1
    })
  }
}

const [name, ...rest] = process.argv.slice(2)
if (!PROGRAMS[name]) {
  console.error(`h2bench-build: name a program to build: ${Object.keys(PROGRAMS).join(', ')}; got ${name === undefined ? 'none' : `"${name}"`}`)
  process.exitCode = 2
} else {
  PROGRAMS[name](rest)
}

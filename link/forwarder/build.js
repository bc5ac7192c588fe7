'use strict'

// Builds the forwarder (forwarder.c, its queue disciplines aqm.c, its NAT
// nat.c and their table.c; the C standard library only) once per version of its sources, into
// .cache/forwarder/<hash>/. `npm install`
// runs this (postinstall); the link builds it on first use if that did not.
// Why C: measured against a Python forwarder of the same design (docs/link-bench.md,
// "Why C"), it is the one that keeps its added delay under a
// millisecond at 1 Gbit/s offered load.

const fs = require('node:fs')
const path = require('node:path')
const crypto = require('node:crypto')
const { execFileSync } = require('node:child_process')
const { BuildError } = require('../../common/errors')

const SOURCES = ['forwarder.c', 'aqm.c', 'nat.c', 'table.c'].map(f => path.join(__dirname, f))
const HEADERS = ['aqm.h', 'nat.h', 'table.h'].map(f => path.join(__dirname, f))
const CACHE = path.join(__dirname, '..', '..', '.cache', 'forwarder')


function findCompiler (env = process.env) {
  for (const cc of [env.CC, 'cc', 'gcc', 'clang'].filter(Boolean)) {
    try {
      execFileSync(cc, ['--version'], { stdio: 'ignore' })
      return cc
    } catch { /* not this one */ }
  }
  return null
}

function binaryPath () {
  const hash = crypto.createHash('sha256')
  for (const file of [...SOURCES, ...HEADERS]) hash.update(path.basename(file)).update('\0').update(fs.readFileSync(file))
  return path.join(CACHE, hash.digest('hex').slice(0, 12), 'h2bench-forwarder')
}

// The path of a built forwarder, building it when missing.
function ensureForwarder () {
  const out = binaryPath()
  if (fs.existsSync(out)) return out
  const cc = findCompiler()
  if (!cc) {
    throw new BuildError('the packet-level link needs a C compiler to build its forwarder (link/forwarder/*.c): ' +
      'install one (Debian/Ubuntu: apt-get install gcc) or set CC', { missing: true })
  }
  fs.mkdirSync(path.dirname(out), { recursive: true })
  const tmp = `${out}.${process.pid}.tmp`
  try {
    execFileSync(cc, ['-O2', '-Wall', '-Wextra', '-o', tmp, ...SOURCES, '-lm'], { stdio: ['ignore', 'ignore', 'pipe'] })
  } catch (err) {
    throw new BuildError(`building the forwarder with ${cc} failed: ${String(err.stderr || err.message).trim()}`, { cause: err })
  }
  fs.renameSync(tmp, out) // atomic: a second build at the same time is harmless
  return out
}

module.exports = { ensureForwarder, findCompiler }

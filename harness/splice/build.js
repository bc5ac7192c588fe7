'use strict'

// Builds the TCP splice of a site behind the link (./splice.c, the C standard
// library only; why it exists: its header comment, harness/site-nat.js) once
// per version of its source, into .cache/splice/<hash>/, with the compiler the
// link's forwarder is built with (link/forwarder/build.js). Built on first use:
// a second of cc.
const fs = require('node:fs')
const path = require('node:path')
const crypto = require('node:crypto')
const { execFileSync } = require('node:child_process')
const { BuildError } = require('../../common/errors')
const { findCompiler } = require('../../link/forwarder/build')

const SOURCE = path.join(__dirname, 'splice.c')
const CACHE = path.join(__dirname, '..', '..', '.cache', 'splice')

function binaryPath () {
  const hash = crypto.createHash('sha256').update(fs.readFileSync(SOURCE)).digest('hex').slice(0, 12)
  return path.join(CACHE, hash, 'h2bench-splice')
}

// The path of a built splice, building it when missing.
function ensureSplice () {
  const out = binaryPath()
  if (fs.existsSync(out)) return out
  const cc = findCompiler()
  if (!cc) {
    throw new BuildError('a site behind the link needs a C compiler to build its TCP splice (harness/splice/splice.c): ' +
      'install one (Debian/Ubuntu: apt-get install gcc) or set CC', { missing: true })
  }
  fs.mkdirSync(path.dirname(out), { recursive: true })
  const tmp = `${out}.${process.pid}.tmp`
  try {
    execFileSync(cc, ['-O2', '-Wall', '-Wextra', '-o', tmp, SOURCE], { stdio: ['ignore', 'ignore', 'pipe'] })
  } catch (err) {
    throw new BuildError(`building the TCP splice with ${cc} failed: ${String(err.stderr || err.message).trim()}`, { cause: err })
  }
  fs.renameSync(tmp, out) // atomic: a second build at the same time is harmless
  return out
}

module.exports = { ensureSplice }

'use strict'

// Builds a small C program of h2bench's (the C standard library only) once per
// version of its sources, into .cache/<name>/<hash>/: the link's forwarder
// (link/forwarder/build.js) and the TCP splice of a site behind the link
// (harness/splice/build.js). The hash covers every source and header, so an
// edited file builds anew; a build goes to a temporary file renamed into place,
// so two builds at the same time are harmless.
const fs = require('node:fs')
const path = require('node:path')
const crypto = require('node:crypto')
const { execFileSync } = require('node:child_process')
const { BuildError } = require('./errors')

const CACHE = path.join(__dirname, '..', '.cache')

// The first C compiler that answers: $CC, then cc, gcc, clang; null when none.
function findCompiler (env = process.env) {
  for (const cc of [env.CC, 'cc', 'gcc', 'clang'].filter(Boolean)) {
    try {
      execFileSync(cc, ['--version'], { stdio: 'ignore' })
      return cc
    } catch { /* not this one */ }
  }
  return null
}

// A builder of one program: { name, binary, sources, headers, libs, needs, what }.
// Errors say "<needs> needs a C compiler to build <what>"; `cache` is the
// folder the builds go under (.cache/ of the checkout unless a test says).
// Returns { binaryPath(), ensure() }: ensure() is the path of a built binary,
// building it when missing.
function cBuilder ({ name, binary, sources, headers = [], libs = [], needs, what, cache = CACHE }) {
  function binaryPath () {
    const hash = crypto.createHash('sha256')
    for (const file of [...sources, ...headers]) hash.update(path.basename(file)).update('\0').update(fs.readFileSync(file))
    return path.join(cache, name, hash.digest('hex').slice(0, 12), binary)
  }

  function ensure () {
    const out = binaryPath()
    if (fs.existsSync(out)) return out
    const cc = findCompiler()
    if (!cc) {
      throw new BuildError(`${needs} needs a C compiler to build ${what}: ` +
        'install one (Debian/Ubuntu: apt-get install gcc) or set CC', { missing: true })
    }
    fs.mkdirSync(path.dirname(out), { recursive: true })
    const tmp = `${out}.${process.pid}.tmp`
    try {
      execFileSync(cc, ['-O2', '-Wall', '-Wextra', '-o', tmp, ...sources, ...libs], { stdio: ['ignore', 'ignore', 'pipe'] })
    } catch (err) {
      throw new BuildError(`building ${what} with ${cc} failed: ${String(err.stderr || err.message).trim()}`, { cause: err })
    }
    fs.renameSync(tmp, out) // atomic: a second build at the same time is harmless
    return out
  }

  return { binaryPath, ensure }
}

module.exports = { cBuilder, findCompiler }

#!/usr/bin/env node
'use strict'

// Builds h3get (main.go: an HTTP/3 client on quic-go's http3 package, the
// tests' client for the h3 lane) once per version of its sources, into
// .cache/h3get/<hash>/h3get, with `go build` and the module versions pinned
// in go.mod and go.sum (GOFLAGS=-mod=readonly: a build never changes them).
// The first build downloads those modules through Go's module proxy (about
// 45 s on 2 cores); later ones reuse the binary as long as the hash matches.
// Async (execFile), so servers running in the same process keep serving.

const fs = require('node:fs')
const path = require('node:path')
const crypto = require('node:crypto')
const { execFile } = require('node:child_process')
const { promisify } = require('node:util')

const run = promisify(execFile)
const DIR = __dirname
const CACHE = path.join(DIR, '..', '..', '.cache', 'h3get')
// quic-go v0.65 declares `go 1.26.0`; a go command since 1.21 fetches that
// toolchain itself (GOTOOLCHAIN=auto), an older one cannot build it at all.
const GO_NEEDED = '1.26'
const GO_SWITCHES = [1, 21]
const INSTALL_HINT = `h3get (tools/h3get, the tests' HTTP/3 client) needs Go >= ${GO_NEEDED}: install it from go.dev ` +
  '(Debian\'s golang-go is too old: 1.19 in Debian 12) or set GO to its go command'
const BUILD_TIMEOUT_MS = 10 * 60 * 1000
const LOCK_STALE_MS = BUILD_TIMEOUT_MS + 60 * 1000

class BuildError extends Error {}

function sources () {
  return fs.readdirSync(DIR).filter(f => f.endsWith('.go') || f === 'go.mod' || f === 'go.sum').sort()
}

function binaryPath () {
  const hash = crypto.createHash('sha256')
  for (const f of sources()) hash.update(f).update('\0').update(fs.readFileSync(path.join(DIR, f))).update('\0')
  return path.join(CACHE, hash.digest('hex').slice(0, 12), 'h3get')
}

// GO, else `go` on the PATH, else Go's default install folder; with its
// version, or null when there is none.
async function findGo (env = process.env) {
  for (const go of [env.GO, 'go', '/usr/local/go/bin/go'].filter(Boolean)) {
    try {
      const { stdout } = await run(go, ['env', 'GOVERSION'], { timeout: 30000 })
      const m = /^go(\d+)\.(\d+)/.exec(stdout.trim())
      return { go, version: stdout.trim(), major: m ? Number(m[1]) : 0, minor: m ? Number(m[2]) : 0 }
    } catch { /* not this one */ }
  }
  return null
}

const sleep = ms => new Promise(resolve => setTimeout(resolve, ms))

// A lock folder beside the binary (mkdir is atomic): one build at a time
// across processes; a lock older than any build is a dead builder's.
async function withLock (out, fn) {
  const lock = `${out}.lock`
  for (;;) {
    try {
      fs.mkdirSync(lock)
      break
    } catch (err) {
      if (err.code !== 'EEXIST') throw err
      if (fs.existsSync(out)) return out // built by the holder meanwhile
      try {
        if (Date.now() - fs.statSync(lock).mtimeMs > LOCK_STALE_MS) fs.rmSync(lock, { recursive: true, force: true })
      } catch { /* removed meanwhile */ }
      await sleep(250)
    }
  }
  try {
    return await fn()
  } finally {
    fs.rmSync(lock, { recursive: true, force: true })
  }
}

async function build (out) {
  if (fs.existsSync(out)) return out
  const found = await findGo()
  if (!found) throw new BuildError(`${INSTALL_HINT}; no go command found`)
  if (found.major < GO_SWITCHES[0] || (found.major === GO_SWITCHES[0] && found.minor < GO_SWITCHES[1])) {
    throw new BuildError(`${INSTALL_HINT}; found ${found.version} (${found.go})`)
  }
  const tmp = `${out}.${process.pid}.tmp`
  try {
    await run(found.go, ['build', '-trimpath', '-o', tmp, '.'], {
      cwd: DIR,
      timeout: BUILD_TIMEOUT_MS,
      maxBuffer: 16 * 1024 * 1024,
      env: { ...process.env, GOFLAGS: '-mod=readonly', CGO_ENABLED: '0' }
    })
  } catch (err) {
    fs.rmSync(tmp, { force: true })
    const why = String(err.stderr || err.message).trim()
    throw new BuildError(`building h3get with ${found.go} (${found.version}) failed: ${why}` +
      (/proxy|dial tcp|lookup|toolchain/.test(why) ? ` (the first build needs Go's module proxy, and Go >= ${GO_NEEDED} or the means to fetch it)` : ''), { cause: err })
  }
  fs.renameSync(tmp, out)
  return out
}

let pending = null

// The path of a built h3get, building it when missing (once per process).
function ensureH3get () {
  if (!pending) {
    pending = (async () => {
      const out = binaryPath()
      if (fs.existsSync(out)) return out
      fs.mkdirSync(path.dirname(out), { recursive: true })
      return withLock(out, () => build(out))
    })()
    pending.catch(() => { pending = null }) // a later call may try again
  }
  return pending
}

if (require.main === module) {
  const t0 = Date.now()
  ensureH3get().then(
    out => console.log(`h3get: ${out} (${((Date.now() - t0) / 1000).toFixed(1)} s)`),
    err => { console.error(`h3get: ${err.message}`); process.exitCode = 1 }
  )
}

module.exports = { ensureH3get, findGo, binaryPath, BuildError }

'use strict'

// Builds a Go program of tools/ (tools/h3get: the tests' HTTP/3 client;
// tools/caddy: the h3 lane's server) once per version of its sources, into
// .cache/<name>/<hash>/<name>, with `go build` and the module versions pinned
// in its go.mod and go.sum (GOFLAGS=-mod=readonly: a build never changes
// them). The first build downloads those modules through Go's module proxy;
// later ones reuse the binary as long as the hash matches. Async (execFile),
// so servers running in the same process keep serving.

const fs = require('node:fs')
const path = require('node:path')
const crypto = require('node:crypto')
const { execFile } = require('node:child_process')
const { promisify } = require('node:util')
const { BuildError } = require('../common/errors')
const { withLock } = require('./build-lock')

const run = promisify(execFile)
const CACHE = path.join(__dirname, '..', '.cache')
// A go command since 1.21 fetches the toolchain a go.mod asks for itself
// (GOTOOLCHAIN=auto); an older one cannot build these at all.
const GO_SWITCHES = [1, 21]
const BUILD_TIMEOUT_MS = 15 * 60 * 1000
const LOCK_STALE_MS = BUILD_TIMEOUT_MS + 60 * 1000


function sources (dir) {
  return fs.readdirSync(dir).filter(f => f.endsWith('.go') || f === 'go.mod' || f === 'go.sum').sort()
}

function binaryPath (name, dir) {
  const hash = crypto.createHash('sha256')
  for (const f of sources(dir)) hash.update(f).update('\0').update(fs.readFileSync(path.join(dir, f))).update('\0')
  return path.join(CACHE, name, hash.digest('hex').slice(0, 12), name)
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

async function build (out, { name, dir, what, goNeeded }) {
  if (fs.existsSync(out)) return out
  const hint = `${name} (${what}) needs Go >= ${goNeeded}: install it from go.dev ` +
    '(Debian\'s golang-go is too old: 1.19 in Debian 12) or set GO to its go command'
  const found = await findGo()
  if (!found) throw new BuildError(`${hint}; no go command found`, { missing: true })
  if (found.major < GO_SWITCHES[0] || (found.major === GO_SWITCHES[0] && found.minor < GO_SWITCHES[1])) {
    throw new BuildError(`${hint}; found ${found.version} (${found.go})`, { missing: true })
  }
  const tmp = `${out}.${process.pid}.tmp`
  try {
    await run(found.go, ['build', '-trimpath', '-o', tmp, '.'], {
      cwd: dir,
      timeout: BUILD_TIMEOUT_MS,
      maxBuffer: 16 * 1024 * 1024,
      env: { ...process.env, GOFLAGS: '-mod=readonly', CGO_ENABLED: '0' }
    })
  } catch (err) {
    fs.rmSync(tmp, { force: true })
    const why = String(err.stderr || err.message).trim()
    throw new BuildError(`building ${name} with ${found.go} (${found.version}) failed: ${why}` +
      (/proxy|dial tcp|lookup|toolchain/.test(why) ? ` (the first build needs Go's module proxy, and Go >= ${goNeeded} or the means to fetch it)` : ''), { cause: err })
  }
  fs.renameSync(tmp, out)
  return out
}

// goBuilder({ name, dir, what, goNeeded }) → ensure(): the path of the
// built program, building it when missing (once per process; a failed
// build may be tried again by a later call).
function goBuilder (program) {
  let pending = null
  const ensure = () => {
    if (!pending) {
      pending = (async () => {
        const out = binaryPath(program.name, program.dir)
        if (fs.existsSync(out)) return out
        fs.mkdirSync(path.dirname(out), { recursive: true })
        return withLock(out, () => build(out, program), { what: program.name, staleMs: LOCK_STALE_MS })
      })()
      pending.catch(() => { pending = null })
    }
    return pending
  }
  ensure.binaryPath = () => binaryPath(program.name, program.dir)
  return ensure
}

// `node bin/h2bench-build.js <name> [--optional]`: build it now (saying so first
// when it is not built yet), say where and how long it took. --optional
// (npm install's postinstall): a failure is a warning naming `without`,
// what still works, and the install goes on.
function buildFromCommandLine (name, ensure, { without = '', argv = process.argv.slice(2) } = {}) {
  const optional = argv.includes('--optional')
  const t0 = Date.now()
  if (!fs.existsSync(ensure.binaryPath())) console.log(`${name}: building (once, with Go; this can take a few minutes)…`)
  ensure().then(
    out => console.log(`${name}: ${out} (${((Date.now() - t0) / 1000).toFixed(1)} s)`),
    err => {
      if (optional) return console.warn(`h2bench: ${err.message}${without ? `; ${without}` : ''}`)
      console.error(`${name}: ${err.message}`)
      process.exitCode = 1
    }
  )
}

module.exports = { goBuilder, buildFromCommandLine, findGo, CACHE }

'use strict'

// Builds oha (h2bench load's HTTP/3 load client, load/tools/oha.js) with
// Rust's cargo from crates.io: the version pinned here, its own Cargo.lock
// (--locked), the `http3` feature, into .cache/oha/<version>/bin/oha. About
// 5 minutes on 2 cores the first time. OHA_PATH names another build instead.
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { execFile } = require('node:child_process')
const { promisify } = require('node:util')
const { CACHE } = require('../go-build')
const { withLock } = require('../build-lock')
const { BuildError } = require('../../common/errors')

const run = promisify(execFile)
const OHA_VERSION = '1.16.0'
const BUILD_TIMEOUT_MS = 30 * 60 * 1000
const ROOT = path.join(CACHE, 'oha', OHA_VERSION)
const BUILT = path.join(ROOT, 'bin', 'oha')

// OHA_PATH, else the pinned build (built or not: callers ensure it first).
function ohaPath (env = process.env) {
  return env.OHA_PATH || BUILT
}

async function findCargo (env = process.env) {
  for (const cargo of [env.CARGO, 'cargo', path.join(os.homedir(), '.cargo', 'bin', 'cargo')].filter(Boolean)) {
    try {
      const { stdout } = await run(cargo, ['--version'], { timeout: 30000 })
      return { cargo, version: stdout.trim() }
    } catch { /* not this one */ }
  }
  return null
}

const pending = new Map() // root → the build of it under way in this process
// → the oha to run, building the pinned one when it is missing (once per
// process). A build takes minutes and says so through `log`, terminal or not:
// before it starts and when it is done (and while it waits for another's).
// `root`: where it is built (the tests build a stand-in elsewhere).
function ensureOha ({ log = line => process.stderr.write(line + '\n'), root = ROOT } = {}) {
  if (process.env.OHA_PATH) return Promise.resolve(process.env.OHA_PATH)
  const built = path.join(root, 'bin', 'oha')
  if (!pending.has(root)) {
    const building = (async () => {
      if (fs.existsSync(built)) return built
      fs.mkdirSync(path.dirname(built), { recursive: true })
      return withLock(built, async () => {
        if (fs.existsSync(built)) return built
        const found = await findCargo()
        if (!found) {
          throw new BuildError(`oha (h2bench load's HTTP/3 client) needs Rust's cargo to build: install it from rustup.rs, or set OHA_PATH to an oha built with --features http3`, { missing: true })
        }
        const tmp = `${root}.${process.pid}.tmp`
        const t0 = Date.now()
        log(`oha: building the pinned oha ${OHA_VERSION} with cargo (once, about 5 minutes)…`)
        try {
          await run(found.cargo, ['install', 'oha', '--version', OHA_VERSION, '--locked', '--features', 'http3', '--root', tmp], { timeout: BUILD_TIMEOUT_MS, maxBuffer: 64 << 20 })
          fs.renameSync(path.join(tmp, 'bin', 'oha'), built)
        } catch (err) {
          const why = String(err.stderr || err.message).trim().split('\n').slice(-6).join('\n')
          throw new BuildError(`building oha ${OHA_VERSION} with ${found.version} failed: ${why}`, { cause: err })
        } finally {
          fs.rmSync(tmp, { recursive: true, force: true })
        }
        log(`oha: built ${built} in ${Math.round((Date.now() - t0) / 1000)} s`)
        return built
      }, { what: 'oha', staleMs: BUILD_TIMEOUT_MS + 60 * 1000, log })
    })()
    pending.set(root, building)
    building.catch(() => pending.delete(root))
  }
  return pending.get(root)
}

module.exports = { ensureOha, ohaPath, findCargo, OHA_VERSION }

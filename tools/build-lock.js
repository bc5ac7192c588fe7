'use strict'

// One build of a program at a time across processes: a lock folder beside
// the program being built (mkdir is atomic), holding owner.json, which names
// the process that builds (pid, host, what, since when). A lock whose owner
// is gone (a build interrupted by Ctrl-C or a timeout) is taken over at once,
// saying so; while a live owner builds, a waiter says once what it waits for
// and for whom. A lock without an owner file (an older h2bench's) is taken
// over when it is older than any build could be.
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')

const OWNER_FILE = 'owner.json'
const POLL_MS = 250

const sleep = ms => new Promise(resolve => setTimeout(resolve, ms))

function readOwner (lock) {
  try {
    return JSON.parse(fs.readFileSync(path.join(lock, OWNER_FILE), 'utf8'))
  } catch {
    return null
  }
}

// Whether the process `pid` of this host still runs (EPERM: it runs, as another user).
function alive (owner) {
  if (!owner || owner.host !== os.hostname() || !Number.isInteger(owner.pid)) return true // not ours to judge
  try {
    process.kill(owner.pid, 0)
    return true
  } catch (err) {
    return err.code === 'EPERM'
  }
}

// Runs `fn` holding the lock of `out`; resolves `out` without running it
// when another process built it meanwhile. `what` names the build in the
// lines `log` gets; `staleMs`: the age of an owner-less lock that is a dead
// builder's.
async function withLock (out, fn, { what = path.basename(out), log = line => process.stderr.write(line + '\n'), staleMs } = {}) {
  const lock = `${out}.lock`
  let told = false
  for (;;) {
    try {
      fs.mkdirSync(lock)
      fs.writeFileSync(path.join(lock, OWNER_FILE), JSON.stringify({ pid: process.pid, host: os.hostname(), what, since: new Date().toISOString() }))
      break
    } catch (err) {
      if (err.code !== 'EEXIST') throw err
      if (fs.existsSync(out)) return out // built by the holder meanwhile
      const owner = readOwner(lock)
      let stale = false
      if (owner) stale = !alive(owner)
      else {
        try {
          stale = staleMs !== undefined && Date.now() - fs.statSync(lock).mtimeMs > staleMs
        } catch { /* removed meanwhile */ }
      }
      if (stale) {
        log(`${what}: taking over the build lock ${lock}: ${owner ? `its owner, process ${owner.pid} (since ${owner.since}), is gone` : 'it is older than any build'}`)
        fs.rmSync(lock, { recursive: true, force: true })
        continue
      }
      if (!told) {
        told = true
        log(`${what}: waiting for ${owner ? `process ${owner.pid}, which builds it since ${owner.since}` : 'another build'} (lock ${lock})`)
      }
      await sleep(POLL_MS)
    }
  }
  try {
    return await fn()
  } finally {
    fs.rmSync(lock, { recursive: true, force: true })
  }
}

module.exports = { withLock, OWNER_FILE }

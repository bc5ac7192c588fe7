'use strict'

// Throw-away folders named for the process that made them
// (<prefix><pid>-XXXXXX in the system's temp folder), and the sweep of those
// whose process is gone: one killed with SIGKILL never ran its cleanup, and
// its folder may hold keys, so each maker sweeps its own prefix before it
// makes a new one. Caddy's (server/edge/caddy.js), the QUIC cross flow's
// (harness/cross-traffic/quic.js), the tests' static site's.
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')

// Removes every `<prefix><pid>-…` folder whose process `pid` no longer exists.
function removeStaleFolders (prefix) {
  const named = new RegExp(`^${prefix.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(\\d+)-`)
  for (const name of fs.readdirSync(os.tmpdir())) {
    const m = named.exec(name)
    if (!m) continue
    try {
      process.kill(Number(m[1]), 0)
    } catch (err) {
      if (err.code === 'ESRCH') fs.rmSync(path.join(os.tmpdir(), name), { recursive: true, force: true })
    }
  }
}

// The stale ones swept, a new folder of this process: → its path.
function makeTempFolder (prefix) {
  removeStaleFolders(prefix)
  return fs.mkdtempSync(path.join(os.tmpdir(), `${prefix}${process.pid}-`))
}

module.exports = { removeStaleFolders, makeTempFolder }

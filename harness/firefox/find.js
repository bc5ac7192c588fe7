'use strict'

// Where the local Firefox is (FIREFOX_PATH, else firefox-esr or firefox on
// PATH), whether it can be launched here (and certutil, for the local CA),
// and its version.
const fs = require('node:fs')
const path = require('node:path')
const { execFileSync } = require('node:child_process')
const { FIREFOX_INSTALL_HINT } = require('./error')

function onPath (name, env = process.env) {
  for (const dir of (env.PATH || '/usr/local/bin:/usr/bin:/bin').split(path.delimiter)) {
    if (!dir) continue
    const file = path.join(dir, name)
    try {
      fs.accessSync(file, fs.constants.X_OK)
      if (fs.statSync(file).isFile()) return file
    } catch { /* not here */ }
  }
  return null
}

// FIREFOX_PATH (null when it does not exist), else firefox-esr or firefox on
// PATH; null when there is none.
function findFirefox (env = process.env) {
  if (env.FIREFOX_PATH) return fs.existsSync(env.FIREFOX_PATH) ? env.FIREFOX_PATH : null
  return onPath('firefox-esr', env) || onPath('firefox', env)
}

// Why launchFirefox cannot work here (no Firefox; no certutil when the CA is
// to be trusted), or null.
function firefoxUnavailableReason ({ trustCa = true } = {}) {
  if (!findFirefox()) {
    return process.env.FIREFOX_PATH
      ? `FIREFOX_PATH=${process.env.FIREFOX_PATH} does not exist`
      : `no Firefox found (firefox-esr or firefox on PATH, or FIREFOX_PATH): ${FIREFOX_INSTALL_HINT}`
  }
  if (trustCa && !onPath('certutil')) return `no certutil, which puts the local CA into Firefox's profile (package libnss3-tools): ${FIREFOX_INSTALL_HINT}`
  return null
}

// "Firefox 153.7.0esr" from `firefox-esr --version` ("Mozilla Firefox …").
function firefoxVersion (executablePath) {
  try {
    const text = execFileSync(executablePath, ['--version'], { encoding: 'utf8', timeout: 10000, stdio: ['ignore', 'pipe', 'ignore'] }).trim()
    return text.replace(/^Mozilla\s+/, '') || null
  } catch {
    return null
  }
}

module.exports = { findFirefox, firefoxUnavailableReason, firefoxVersion }

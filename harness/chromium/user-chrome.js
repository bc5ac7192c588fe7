'use strict'

// The user's own Chrome/Chromium, with a window, on the h2bench page (`npm
// run chrome`, `h2bench --chrome`): started for them, detached, or the
// command line printed for them to start it themself.
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { spawn } = require('node:child_process')
const { findChrome, INSTALL_HINT } = require('./find')
const { chromeArgs } = require('./flags')

function shellQuote (s) {
  return /^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, "'\\''")}'`
}

// A copy-pasteable command line for the user.
function chromeCommand ({ spki, url, lanes = [], executable = findChrome() || 'google-chrome' }) {
  const args = chromeArgs({ spki, url, lanes, userDataDir: '"$(mktemp -d)"' })
  return [shellQuote(executable), ...args.map(a => a.includes('$(mktemp') ? a : shellQuote(a))].join(' ')
}

// Starts the local Chrome/Chromium on `url`, detached from this process,
// its output in chrome.log of its throw-away profile. Resolves once it has
// run for `watchMs`; rejects, with the last thing it said, when it fails or
// exits with an error before that (no display, refused to run as root, …).
// `spawnInside`: a packet-level link's (link/namespace.js), to start it in
// the link's client namespace, where it lives only as long as the link.
function launchChrome ({ spki, url, lanes = [], watchMs = 2000, spawnInside = null }) {
  const executable = findChrome()
  if (!executable) return Promise.reject(new Error(`no Chrome or Chromium found: ${INSTALL_HINT}`))
  const userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'h2bench-chrome-'))
  const log = path.join(userDataDir, 'chrome.log')
  const out = fs.openSync(log, 'w')
  const args = chromeArgs({ spki, userDataDir, url, lanes })
  const child = spawnInside
    ? spawnInside(executable, args, { stdio: ['ignore', out, out] })
    : spawn(executable, args, { detached: true, stdio: ['ignore', out, out] })
  fs.closeSync(out)
  return new Promise((resolve, reject) => {
    const lastWords = () => {
      const lines = fs.readFileSync(log, 'utf8').split('\n').map(l => l.trim()).filter(Boolean)
      return lines.length ? `: ${lines.slice(-2).join(' / ')}` : ''
    }
    const timer = setTimeout(() => {
      child.removeAllListeners()
      if (!spawnInside) child.unref()
      resolve({ executable, userDataDir, log })
    }, watchMs)
    child.once('error', err => {
      clearTimeout(timer)
      reject(new Error(`could not start ${executable}: ${err.message}`))
    })
    child.once('exit', (code, signal) => {
      clearTimeout(timer)
      if (code === 0) return resolve({ executable, userDataDir, log }) // handed over to a running Chrome
      reject(new Error(`${executable} exited at once (${signal || `code ${code}`})${lastWords()}; its log: ${log}`))
    })
  })
}

module.exports = { chromeCommand, launchChrome }

'use strict'

const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { spawn } = require('node:child_process')

const CANDIDATES = {
  linux: ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome', '/usr/bin/google-chrome-stable',
    '/opt/google/chrome/chrome', '/snap/bin/chromium'],
  darwin: ['/Applications/Google Chrome.app/Contents/MacOS/Google Chrome', '/Applications/Chromium.app/Contents/MacOS/Chromium'],
  win32: [path.join(process.env.PROGRAMFILES || 'C:\\Program Files', 'Google\\Chrome\\Application\\chrome.exe'),
    path.join(process.env.LOCALAPPDATA || '', 'Google\\Chrome\\Application\\chrome.exe')]
}

const INSTALL_HINT = 'install one (Debian/Ubuntu: `sudo apt-get install -y chromium`) or set CHROME_PATH to its executable' +
  (process.env.CHROME_PATH ? ` (CHROME_PATH=${process.env.CHROME_PATH} does not exist)` : '')

// CHROME_PATH, else the usual install paths; null when none is found.
function findChrome (env = process.env) {
  if (env.CHROME_PATH) return fs.existsSync(env.CHROME_PATH) ? env.CHROME_PATH : null
  return (CANDIDATES[process.platform] || []).find(p => fs.existsSync(p)) || null
}

// Flags that make Chrome treat our self-signed certificate as valid (so it
// caches, and shows no interstitial) in a throw-away profile.
function chromeArgs ({ spki, userDataDir, url }) {
  return [
    `--ignore-certificate-errors-spki-list=${spki}`,
    `--user-data-dir=${userDataDir}`,
    '--no-first-run',
    '--no-default-browser-check',
    url
  ]
}

function shellQuote (s) {
  return /^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, "'\\''")}'`
}

// A copy-pasteable command line for the user.
function chromeCommand ({ spki, url, executable = findChrome() || 'google-chrome' }) {
  const args = chromeArgs({ spki, url, userDataDir: '"$(mktemp -d)"' })
  return [shellQuote(executable), ...args.map(a => a.includes('$(mktemp') ? a : shellQuote(a))].join(' ')
}

// Starts the local Chrome/Chromium on `url`, detached from this process.
function launchChrome ({ spki, url }) {
  const executable = findChrome()
  if (!executable) throw new Error(`no Chrome or Chromium found: ${INSTALL_HINT}`)
  const userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'h2bench-chrome-'))
  const child = spawn(executable, chromeArgs({ spki, userDataDir, url }), { detached: true, stdio: 'ignore' })
  child.on('error', err => console.error(`h2bench: could not start ${executable}: ${err.message}`))
  child.unref()
  return { executable, userDataDir }
}

module.exports = { findChrome, chromeArgs, chromeCommand, launchChrome, INSTALL_HINT }

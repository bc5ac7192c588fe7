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

// Chrome refuses to start as root unless its sandbox is off.
const isRoot = () => typeof process.getuid === 'function' && process.getuid() === 0

// The origins (host:port) of the HTTP/3 lanes, which Chrome is told to
// reach over QUIC from the first request: without it Chrome would first ask
// over TCP and switch only after an Alt-Svc answer (and never for an IP
// address it has no QUIC record of).
function quicOrigins (lanes = []) {
  return lanes.filter(l => l.protocol === 'h3' && l.url).map(l => new URL(l.url).host)
}

// --origin-to-force-quic-on for those origins; [] when there are none.
function quicArgs (lanes) {
  const origins = quicOrigins(lanes)
  return origins.length ? [`--origin-to-force-quic-on=${origins.join(',')}`] : []
}

// Flags that make Chrome treat our self-signed certificate as valid (so it
// caches, and shows no interstitial; QUIC needs it too) in a throw-away
// profile, and use QUIC for the HTTP/3 lanes among `lanes`.
function chromeArgs ({ spki, userDataDir, url, lanes = [], root = isRoot() }) {
  return [
    `--ignore-certificate-errors-spki-list=${spki}`,
    ...quicArgs(lanes),
    `--user-data-dir=${userDataDir}`,
    '--no-first-run',
    '--no-default-browser-check',
    ...(root ? ['--no-sandbox'] : []),
    url
  ]
}

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

module.exports = { findChrome, chromeArgs, quicArgs, quicOrigins, chromeCommand, launchChrome, isRoot, INSTALL_HINT }

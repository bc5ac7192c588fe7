'use strict'

// Where the local Chrome/Chromium is (CHROME_PATH, else the usual install
// paths of this platform), and what to tell the user when there is none.
const fs = require('node:fs')
const path = require('node:path')

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

module.exports = { findChrome, INSTALL_HINT }

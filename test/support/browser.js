'use strict'

const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { chromium } = require('playwright-core')
const { findChrome, INSTALL_HINT } = require('../../server/chrome')

// Launches the system Chromium headless, trusting the test certificate the
// same way the printed Chrome command does (SPKI list). The flags after it
// keep Chromium off the network this machine does not have.
async function launchBrowser ({ spki }) {
  const executablePath = findChrome()
  if (!executablePath) throw new Error(`browser tests need Chrome or Chromium: ${INSTALL_HINT}`)
  const userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'h2bench-test-chrome-'))
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath,
    headless: true,
    args: [
      `--ignore-certificate-errors-spki-list=${spki}`,
      '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'
    ]
  })
  const close = async () => {
    await context.close()
    fs.rmSync(userDataDir, { recursive: true, force: true })
  }
  return { context, close }
}

module.exports = { launchBrowser }

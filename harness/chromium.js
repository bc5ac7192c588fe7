'use strict'

const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { chromium } = require('playwright-core')
const { findChrome, quicArgs, INSTALL_HINT } = require('./chrome-command')

// Launches the local Chrome/Chromium headless through playwright-core,
// trusting the lanes' certificate the way the printed Chrome command does
// (SPKI list), in a throw-away profile. The flags after it keep the browser
// off networks the benchmark does not ask for. handleSignals: false leaves
// Ctrl-C/SIGTERM to the caller (Playwright's own handler would close the
// browser and exit the process with code 130 before the caller could report).
//
// `link`: an open packet-level link (link/namespace.js): the browser then
// runs in its client namespace, through a small wrapper script that enters it
// (Playwright talks to Chromium over a pipe, which crosses namespaces), and
// dies with this process (parent-death signal).
//
// `lanes` (startAll's): its HTTP/3 lanes are reached over QUIC from the first
// request (--origin-to-force-quic-on); without any, QUIC is off altogether,
// so no lane is ever upgraded behind the benchmark's back.
// What both launchers share: the executable (through a wrapper script that
// enters the link's namespace when there is a link, written into `dir`) and
// the flags (`extra` after them). → { executablePath, launchPath, args }
function chromiumLaunch ({ spki, link = null, lanes = [], dir, extra = [] }) {
  const executablePath = findChrome()
  if (!executablePath) throw new Error(`no Chrome or Chromium found: ${INSTALL_HINT}`)
  let launchPath = executablePath
  if (link) {
    launchPath = path.join(dir, 'chromium-in-link.sh')
    const quote = s => `'${String(s).replace(/'/g, "'\\''")}'`
    fs.writeFileSync(launchPath, `#!/bin/sh\nexec setpriv --pdeathsig KILL -- ${link.nsenterPrefix.map(quote).join(' ')} ${quote(executablePath)} "$@"\n`, { mode: 0o755 })
  }
  const args = [
    `--ignore-certificate-errors-spki-list=${spki}`,
    ...(quicArgs(lanes).length ? quicArgs(lanes) : ['--disable-quic']),
    '--no-sandbox', '--disable-gpu', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync',
    ...extra
  ]
  return { executablePath, launchPath, args }
}

async function launchBrowser ({ spki, headless = true, handleSignals = true, link = null, lanes = [] }) {
  const userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'h2bench-chrome-'))
  let launch
  try {
    // chrome.benchmarking.closeConnections(): site-page cells load every page on new connections (bench/site-page.js)
    launch = chromiumLaunch({ spki, link, lanes, dir: userDataDir, extra: ['--enable-net-benchmarking'] })
  } catch (err) {
    fs.rmSync(userDataDir, { recursive: true, force: true })
    throw err
  }
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: launch.launchPath,
    headless,
    handleSIGINT: handleSignals,
    handleSIGTERM: handleSignals,
    handleSIGHUP: handleSignals,
    args: launch.args
  })
  const close = async () => {
    await context.close()
    fs.rmSync(userDataDir, { recursive: true, force: true })
  }
  return { context, close, executablePath: launch.executablePath, userDataDir }
}

module.exports = { launchBrowser, chromiumLaunch, findChrome, INSTALL_HINT }

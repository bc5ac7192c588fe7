'use strict'

// The headless Chromium every measurement runs in, launched through
// playwright-core: the runner's, the tests', limits', soak's and the link
// bench's (a persistent profile, one context), and the h3 study's (incognito
// contexts, with the net-log).
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { chromium } = require('playwright-core')
const { findChrome, INSTALL_HINT } = require('./find')
const { measurementArgs, netLogArgs } = require('./flags')

// What both kinds of launch share: the executable (through a wrapper script
// that enters the link's namespace when there is a link, written into `dir`)
// and the flags (`extra` after them). → { executablePath, launchPath, args }
function chromiumLaunch ({ spki, link = null, lanes = [], dir, extra = [], protocolArgs = null }) {
  const executablePath = findChrome()
  if (!executablePath) throw new Error(`no Chrome or Chromium found: ${INSTALL_HINT}`)
  let launchPath = executablePath
  if (link) {
    launchPath = path.join(dir, 'chromium-in-link.sh')
    const quote = s => `'${String(s).replace(/'/g, "'\\''")}'`
    fs.writeFileSync(launchPath, `#!/bin/sh\nexec setpriv --pdeathsig KILL -- ${link.nsenterPrefix.map(quote).join(' ')} ${quote(executablePath)} "$@"\n`, { mode: 0o755 })
  }
  const args = measurementArgs({ spki, lanes, extra, protocolArgs })
  return { executablePath, launchPath, args }
}

// Launches the local Chrome/Chromium headless through playwright-core,
// trusting the lanes' certificate the way the printed Chrome command does
// (SPKI list), in a throw-away profile (flags: ./flags.js measurementArgs).
// handleSignals: false leaves Ctrl-C/SIGTERM to the caller (Playwright's own
// handler would close the browser and exit the process with code 130 before
// the caller could report).
//
// `link`: an open packet-level link (link/namespace.js): the browser then
// runs in its client namespace, through a small wrapper script that enters it
// (Playwright talks to Chromium over a pipe, which crosses namespaces), and
// dies with this process (parent-death signal).
//
// `lanes` (startAll's): its HTTP/3 lanes are reached over QUIC from the first
// request (--origin-to-force-quic-on); without any, QUIC is off altogether,
// so no lane is ever upgraded behind the benchmark's back.
//
// `incognito`: a launched browser rather than a persistent profile (the h3
// study: every cold sample needs a fresh incognito context, which only a
// launched browser gives); resolves { browser, close, executablePath, dir }
// (`dir`: the wrapper script's), else { context, close, executablePath,
// userDataDir }. `netLog`: a file for Chromium's net-log. `netBenchmarking`:
// --enable-net-benchmarking (the h3 study goes without). `tmpPrefix`: the
// name of the throw-away directory (the h3 study's: h2bench-h3study-).
// `protocolArgs`: one protocol forced (harness/force-protocol.js; the site
// experiment), in place of the lanes' QUIC flags.
async function launchBrowser ({ spki, headless = true, handleSignals = true, link = null, lanes = [], incognito = false, netLog = null, netBenchmarking = true, tmpPrefix = 'h2bench-chrome-', protocolArgs = null }) {
  const userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), tmpPrefix))
  let launch
  try {
    const extra = [
      // chrome.benchmarking.closeConnections(): site-page cells load every page on new connections (bench/cells/site-page.js)
      ...(netBenchmarking ? ['--enable-net-benchmarking'] : []),
      ...(netLog ? netLogArgs(netLog) : [])
    ]
    launch = chromiumLaunch({ spki, link, lanes, dir: userDataDir, extra, protocolArgs })
  } catch (err) {
    fs.rmSync(userDataDir, { recursive: true, force: true })
    throw err
  }
  const options = {
    executablePath: launch.launchPath,
    headless,
    handleSIGINT: handleSignals,
    handleSIGTERM: handleSignals,
    handleSIGHUP: handleSignals,
    args: launch.args
  }
  if (incognito) {
    const browser = await chromium.launch(options)
    return {
      browser,
      dir: userDataDir,
      executablePath: launch.executablePath,
      async close () {
        await browser.close()
        fs.rmSync(userDataDir, { recursive: true, force: true })
      }
    }
  }
  const context = await chromium.launchPersistentContext(userDataDir, options)
  const close = async () => {
    await context.close()
    fs.rmSync(userDataDir, { recursive: true, force: true })
  }
  return { context, close, executablePath: launch.executablePath, userDataDir }
}

module.exports = { launchBrowser, chromiumLaunch }

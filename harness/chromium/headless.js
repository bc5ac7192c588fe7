'use strict'

// The headless Chromium every measurement runs in, launched through
// puppeteer-core over CDP: the runner's, the tests', limits', soak's and the
// link bench's (a persistent profile, its default context), and the h3
// study's (incognito contexts, with the net-log).
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const puppeteer = require('puppeteer-core')
const { findChrome, INSTALL_HINT } = require('./find')
const { measurementArgs, driverArgs, netLogArgs } = require('./flags')
const { trustCaInNssDb, chromiumNssDir } = require('../nss-trust')

// What the driver before puppeteer-core (playwright-core) gave every page, kept: a 1280 × 720 viewport (puppeteer's
// default is 800 × 600; a viewport decides which lazy images a page loads; screen.width and the window stay
// Chromium's 800 × 600, where playwright made them the viewport's), no limit on how long a DevTools command may
// take (puppeteer's protocolTimeout is 180 s by default; a page cell's window.h2bench.run() is one
// Runtime.callFunctionOn and may run longer: each wait that must end has a timeout of its own), and 180 s for
// the browser to start.
const VIEWPORT = { width: 1280, height: 720 }
const LAUNCH_TIMEOUT_MS = 180000

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

// The name the CA goes by in a launch's NSS database (certutil -L shows it).
const CA_NICKNAME = 'h2bench trusted CA'

// The throw-away home of a launch (inside its throw-away directory `dir`): Chromium's $HOME, so that what it
// keeps under $HOME (its NSS database, ~/.pki/nssdb, which Chromium on Linux reads the user's own roots from
// and creates when it is missing; ~/.config/chromium/Crash Reports; ~/.cache) is its own and goes with it, and
// the user's own home is never read or written. `ca` (PEM text or a file's name): that CA trusted there for
// every origin it signed (harness/nss-trust.js: certutil; the machine's trust store untouched). → { home,
// caSubject (null without a CA) }.
function throwAwayHome (dir, ca) {
  const home = path.join(dir, 'home')
  fs.mkdirSync(home, { recursive: true, mode: 0o700 })
  if (!ca) return { home, caSubject: null }
  const trusted = trustCaInNssDb(chromiumNssDir(home), { ca, nickname: CA_NICKNAME, forWhom: "Chromium's throw-away NSS database ($HOME/.pki/nssdb of its own home)" })
  return { home, caSubject: trusted.subject }
}

// Launches the local Chrome/Chromium headless through puppeteer-core,
// trusting the lanes' certificate the way the printed Chrome command does
// (SPKI list), in a throw-away profile (flags: ./flags.js driverArgs, then
// measurementArgs; puppeteer's own defaults are off) and a throw-away home
// (throwAwayHome: HOME is a directory inside the launch's throw-away directory,
// the profile's, removed with it).
//
// `ca` (a CA's PEM text, or the name of its PEM file): that CA trusted for every origin whose chain ends at it
// (a site with several origins, each with a leaf of its own: `site --ca`, `record --ca`, the replay's own CA),
// through the NSS database of the throw-away home, as the user's own CA in ~/.pki/nssdb would be. Over QUIC
// Chromium (156, net/quic/crypto/proof_verifier_chromium.cc) refuses any chain that does not end at a root of
// its own store (is_issued_by_known_root) unless the host is one of --origin-to-force-quic-on's: the forced
// origins (a site's or replay's h3 runs) speak HTTP/3 trusted by this CA; an origin reached over QUIC after an
// Alt-Svc answer does not (the QUIC handshake fails, "certificate unknown", and the request goes over TCP),
// with the CA or with SPKI hashes alike (measured: docs/site.md, "A site of your own CA").
// handleSignals: false leaves Ctrl-C/SIGTERM/SIGHUP to the caller
// (puppeteer's own handlers would kill the browser and exit the process with
// code 130 before the caller could report).
//
// `link`: an open packet-level link (link/namespace.js): the browser then
// runs in its client namespace, through a small wrapper script that enters it
// (puppeteer talks to Chromium over a pipe, `pipe: true`, which crosses
// namespaces), and dies with this process (parent-death signal).
//
// `lanes` (startAll's): its HTTP/3 lanes are reached over QUIC from the first
// request (--origin-to-force-quic-on); without any, QUIC is off altogether,
// so no lane is ever upgraded behind the benchmark's back.
//
// `incognito`: a browser with no window of its own and the driver's
// throw-away profile (the h3 study: every cold sample gets a fresh incognito
// context, browser.createBrowserContext()); resolves { browser, close,
// executablePath, dir } (`dir`: the wrapper script's), else { browser,
// context (its default context, the profile's), close, executablePath,
// userDataDir }: puppeteer's Browser and BrowserContext; both with `home` (the
// throw-away home) and `caSubject` (the trusted CA's subject, null without `ca`). `netLog`: a file for
// Chromium's net-log. `netBenchmarking`: --enable-net-benchmarking (the h3
// study goes without). `tmpPrefix`: the
// name of the throw-away directory (the h3 study's: h2bench-h3study-).
// `protocolArgs`: one protocol forced (harness/force-protocol.js; the site
// experiment), in place of the lanes' QUIC flags. `network: false`: puppeteer's own DevTools Network domain off (no
// page.on('request'|'response'|'requestfailed'), no request interception): that domain reports every request and
// every chunk of every body to the driver and cost Chromium 1.4–1.5× the CPU of the same fetch()es without it
// (docs/page-cost.md); the runner and the benchmarks measure without it (net errors come from the console instead,
// harness/net-errors.js).
async function launchBrowser ({ spki = null, ca = null, headless = true, handleSignals = true, link = null, lanes = [], incognito = false, netLog = null, netBenchmarking = true, tmpPrefix = 'h2bench-chrome-', protocolArgs = null, network = true }) {
  const userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), tmpPrefix))
  let launch
  let home
  try {
    home = throwAwayHome(userDataDir, ca)
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
  // The command line the driver before gave it: its switches, ours, the profile, the pipe, then a first tab
  // (about:blank) or, incognito, none (--no-startup-window; the profile puppeteer's own throw-away one, as it was the
  // driver's: puppeteer adds it after these and removes it on exit).
  const args = [
    ...driverArgs({ headless }),
    ...launch.args,
    ...(incognito ? ['--remote-debugging-pipe', '--no-startup-window'] : [`--user-data-dir=${userDataDir}`, '--remote-debugging-pipe', 'about:blank'])
  ]
  let browser
  try {
    browser = await puppeteer.launch({
      executablePath: launch.launchPath,
      pipe: true,
      ignoreDefaultArgs: true,
      args,
      waitForInitialPage: !incognito,
      defaultViewport: VIEWPORT,
      timeout: LAUNCH_TIMEOUT_MS,
      protocolTimeout: 0,
      env: { ...process.env, HOME: home.home },
      handleSIGINT: handleSignals,
      handleSIGTERM: handleSignals,
      handleSIGHUP: handleSignals,
      networkEnabled: network
    })
  } catch (err) {
    fs.rmSync(userDataDir, { recursive: true, force: true })
    throw err
  }
  // A page whose renderer crashed is closed: puppeteer would leave the calls it has waiting for an answer waiting
  // for ever (puppeteer#5846; no DevTools command times out here), where playwright failed them ("Target crashed").
  // Closed, they fail ("Target closed"), and so does anything asked of it after. Its 'error' event still says it
  // crashed, to whoever listens.
  const closeOnCrash = page => page.on('error', () => page.close().catch(() => {}))
  browser.on('targetcreated', target => {
    if (target.type() === 'page') target.page().then(page => page && closeOnCrash(page), () => {})
  })
  for (const page of await browser.pages()) closeOnCrash(page)
  // Once, however often it is called: puppeteer's second close() would return before the browser has exited.
  let closing = null
  const close = () => {
    closing = closing || (async () => {
      await browser.close()
      fs.rmSync(userDataDir, { recursive: true, force: true, maxRetries: 3 })
    })()
    return closing
  }
  const trusted = { home: home.home, caSubject: home.caSubject }
  if (incognito) return { browser, dir: userDataDir, executablePath: launch.executablePath, ...trusted, close }
  return { browser, context: browser.defaultBrowserContext(), close, executablePath: launch.executablePath, userDataDir, ...trusted }
}

module.exports = { launchBrowser, chromiumLaunch }

'use strict'

// launchFirefox: Firefox headless in a throw-away profile (./profile.js),
// started under its relay (./start-relay.js), reached by puppeteer-core over
// WebDriver BiDi, its h3 lanes learnt (./h3-plan.js), sent to chosen
// addresses for chosen names by a hosts file of its own (./hosts.js); and its
// close(), which always ends every process of it and removes the profile.
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const puppeteer = require('puppeteer-core')
const debug = require('debug')('h2bench:firefox')
const { FirefoxError } = require('./error')
const { findFirefox, firefoxUnavailableReason, firefoxVersion } = require('./find')
const { fillProfile } = require('./profile')
const { h3Plan, learnH3 } = require('./h3-plan')
const { startRelay } = require('./start-relay')
const { hostsFileText, mountNamespaceUnavailableReason } = require('./hosts')

const START_TIMEOUT_MS = 30000

// Launches the local Firefox headless in a throw-away profile that trusts the
// local CA `caFile` (server/certs.js's ca.pem; or `ca`, its PEM text),
// inside `link`'s client namespace when there is a link (link/namespace.js
// openLink's result), with HTTP/3 for the h3 lanes among `lanes` (startAll's
// running.lanes; see h3Plan) and off otherwise. `trustCa: false` leaves the CA out (every lane then fails: proof
// that the trust is real). `network: false`: no BiDi network events (no
// page.on('request'), goto resolves null; a little less work per request).
// `prefs`: more Firefox preferences. `timeoutMs`: for Firefox to start.
// `hosts`: [{ address, names }], the names Firefox resolves to those addresses
// (every other name as the machine does): a hosts file in the profile, over
// /etc/hosts in a mount namespace of Firefox's own (./hosts.js; a FirefoxError
// where none can be made).
// `onBidiMessage`: called with every WebDriver BiDi message from Firefox
// (parsed JSON), before puppeteer handles it: the raw events puppeteer does
// not pass on (harness/har/bidi-har.js records HAR from them); events of
// modules puppeteer subscribed to only (network: true for network.*).
// Resolves { browser (a puppeteer Browser), page (its first Page), newPage(),
// close(), name: 'firefox', version ("Firefox 153.7.0esr"), executablePath,
// userAgent, profile, pid (Firefox's, the leader of its process group), h3
// ({ lane: protocol } of the h3 lanes learnt from Alt-Svc), launchMs }.
// close() always ends Firefox (every process of it) and removes the profile.
async function launchFirefox ({
  caFile = null, ca = null, link = null, lanes = [], trustCa = true, network = true, prefs = {}, timeoutMs = START_TIMEOUT_MS, onBidiMessage = null,
  hosts = null
} = {}) {
  const t0 = Date.now()
  const why = firefoxUnavailableReason({ trustCa })
  if (why) throw new FirefoxError(why)
  const executablePath = findFirefox()
  if (trustCa && !caFile && !ca) throw new FirefoxError('launchFirefox needs the local CA (caFile: server/certs.js ca.pem) unless trustCa is false')
  const hostsText = hosts ? hostsFileText(hosts) : null
  const noMount = hosts ? mountNamespaceUnavailableReason() : null
  if (noMount) throw new FirefoxError(`Firefox cannot be sent to the given addresses by a hosts file of its own: ${noMount}`)
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'h2bench-firefox-'))
  let relay = null
  let browser = null
  const removeProfile = () => fs.rmSync(profile, { recursive: true, force: true, maxRetries: 3 })
  const killFirefox = () => { // the relay, and Firefox's process group
    if (!relay) return
    try {
      process.kill(-relay.pid, 'SIGKILL')
    } catch { /* gone */ }
    relay.child.kill('SIGKILL')
  }
  try {
    await fillProfile(profile, { trustCa, caFile, ca, lanes, prefs })
    const hostsFile = hostsText === null ? null : path.join(profile, 'h2bench-hosts')
    if (hostsFile) fs.writeFileSync(hostsFile, hostsText)
    relay = await startRelay({ executablePath, profile, link, timeoutMs, onMessage: onBidiMessage, hostsFile })
    browser = await puppeteer.connect({ transport: relay.transport, protocol: 'webDriverBiDi', defaultViewport: null, protocolTimeout: 10 * 60 * 1000, networkEnabled: network })
  } catch (err) {
    killFirefox()
    if (relay) await Promise.race([relay.exited, new Promise(resolve => setTimeout(resolve, 5000))])
    removeProfile()
    throw err
  }
  let closing = null
  const close = () => {
    closing = closing || (async () => {
      try {
        await Promise.race([browser.close(), new Promise(resolve => setTimeout(resolve, 10000).unref())])
      } catch (err) {
        debug('browser.close: %s', err.message)
      }
      // The two waits' timers unref'd: left pending, they held every command that used Firefox open 15 s after it had done.
      relay.transport.close() // the relay's stdin: it waits for Firefox to exit, then ends
      const ended = await Promise.race([relay.exited.then(() => true), new Promise(resolve => setTimeout(() => resolve(false), 15000).unref())])
      if (!ended) debug('the relay did not end within 15 s: killed')
      killFirefox() // whatever is left of Firefox's process group
      await relay.exited
      removeProfile()
    })()
    return closing
  }
  try {
    const pages = await browser.pages()
    const page = pages[0] || await browser.newPage()
    const h3 = await learnH3(page, h3Plan(lanes).learn)
    const userAgent = await browser.userAgent()
    const version = firefoxVersion(executablePath) || (await browser.version()).replace(/^firefox\//, 'Firefox ')
    debug('%s up in %d ms (profile %s)', version, Date.now() - t0, profile)
    return {
      browser,
      page,
      newPage: () => browser.newPage(),
      close,
      name: 'firefox',
      version,
      executablePath,
      userAgent,
      profile,
      pid: relay.pid,
      h3,
      launchMs: Date.now() - t0
    }
  } catch (err) {
    await close()
    throw err
  }
}

module.exports = { launchFirefox }

'use strict'

const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { spawn, execFileSync } = require('node:child_process')
const readline = require('node:readline')
const puppeteer = require('puppeteer-core')
const { createProfile, Browser } = require('@puppeteer/browsers')
const debug = require('debug')('h2bench:firefox')

// Firefox as a second browser, driven through puppeteer-core over WebDriver
// BiDi. It trusts the lanes the way a user's Firefox would trust a site: its
// throw-away profile's NSS database holds the local CA (server/certs.js
// ca.pem), imported with certutil; no certificate error is overridden, so
// Firefox caches and uses HTTP/3 as it would for any site. (A self-signed
// leaf cannot work: Firefox refuses a CA certificate as an end entity.)
// Behind a packet-level link the lanes' leaf names the link's address too
// (bench/start-lanes.js startLanesBehindLink), so nothing is overridden there either.
//
// Firefox runs under bench/firefox-relay.js, which starts it and relays its
// BiDi WebSocket over pipes: the same path on this machine and inside a
// packet-level link's client namespace, where Firefox's BiDi server listens
// on the namespace's own loopback.

const FIREFOX_INSTALL_HINT = 'apt-get install -y firefox-esr libnss3-tools'
const RELAY = path.join(__dirname, 'firefox-relay.js')
const START_TIMEOUT_MS = 30000
const CA_NICKNAME = 'h2bench local CA'
const LEARN_TRIES = 6

class FirefoxError extends Error {}

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

// Firefox's way to reach an origin over QUIC from its first request is the
// pref network.http.http3.alt-svc-mapping-for-testing ("host;h3=:port"), but
// it maps a host, every port of it: with other lanes on the same address it
// would send those over HTTP/3 to the h3 lane's port too (Caddy answers them).
// So an h3 lane is mapped only when no other lane shares its host; the
// others learn HTTP/3 from the lane's own Alt-Svc (its TCP answers carry
// it), which launchFirefox fetches once before handing the browser over.
// → { mapping (the pref's value, '' for none), learn: [lanes] }
function h3Plan (lanes = []) {
  const hostOf = lane => new URL(lane.url).hostname
  const h3 = lanes.filter(l => l.protocol === 'h3' && l.url)
  const shared = host => lanes.some(l => l.url && l.protocol !== 'h3' && hostOf(l) === host)
  const mapped = h3.filter(l => !shared(hostOf(l)))
  return {
    mapping: mapped.map(l => `${hostOf(l)};h3=:${new URL(l.url).port || 443}`).join(','),
    learn: h3.filter(l => shared(hostOf(l)))
  }
}

// The profile's preferences beyond @puppeteer/browsers' defaults (which keep
// Firefox from updates, safebrowsing, normandy and most other traffic).
function firefoxPreferences (lanes = []) {
  const { mapping } = h3Plan(lanes)
  const h3 = lanes.some(l => l.protocol === 'h3')
  return {
    // puppeteer's FirefoxLauncher.getPreferences: one content process
    'fission.webContentIsolationStrategy': 0,
    'network.proxy.type': 0,
    // no OCSP, CRLite, intermediate preloading or DNS over HTTPS requests
    'security.OCSP.enabled': 0,
    'security.OCSP.require': false,
    'security.pki.crlite_mode': 0,
    'security.remote_settings.crlite_filters.enabled': false,
    'security.remote_settings.intermediates.enabled': false,
    'network.trr.mode': 5,
    // HTTP/3 only when there is an h3 lane (see h3Plan). Firefox otherwise
    // refuses HTTP/3 when a root from outside its own store (our local CA)
    // is in the profile.
    'network.http.http3.enable': h3,
    ...(h3 ? { 'network.http.http3.disable_when_third_party_roots_found': false } : {}),
    ...(mapping ? { 'network.http.http3.alt-svc-mapping-for-testing': mapping } : {}),
    // the page server is plain HTTP on purpose (no HTTPS-First upgrade)
    'dom.security.https_first': false,
    'dom.security.https_first_schemeless': false,
    'dom.security.https_only_mode': false,
    // full-precision performance.now() and Resource Timing, like Chromium's
    'privacy.reduceTimerPrecision': false,
    // nothing but the benchmark's own requests
    'network.captive-portal-service.enabled': false,
    'network.connectivity-service.enabled': false,
    'network.dns.disablePrefetch': true,
    'network.prefetch-next': false,
    'network.predictor.enabled': false,
    'browser.urlbar.speculativeConnect.enabled': false,
    'app.update.enabled': false,
    'app.update.auto': false,
    'app.normandy.enabled': false,
    'app.shield.optoutstudies.enabled': false,
    'messaging-system.rsexperimentloader.enabled': false,
    'toolkit.telemetry.enabled': false,
    'toolkit.telemetry.unified': false,
    'toolkit.telemetry.archive.enabled': false,
    'toolkit.telemetry.server': '',
    'toolkit.telemetry.reportingpolicy.firstRun': false,
    'datareporting.policy.dataSubmissionEnabled': false,
    'browser.ping-centre.telemetry': false,
    'browser.region.network.url': '',
    'browser.region.update.enabled': false,
    'browser.safebrowsing.downloads.remote.enabled': false,
    'browser.safebrowsing.update.enabled': false,
    'browser.discovery.enabled': false,
    'browser.topsites.contile.enabled': false,
    'browser.newtabpage.activity-stream.feeds.section.topstories': false,
    'browser.newtabpage.activity-stream.feeds.snippets': false,
    'extensions.blocklist.enabled': false,
    'extensions.getAddons.cache.enabled': false,
    'media.gmp-manager.updateEnabled': false,
    'media.gmp-gmpopenh264.enabled': false,
    'services.settings.server': 'http://127.0.0.1:9/', // remote settings: nowhere (port 9, discard), never the network
    'browser.aboutwelcome.enabled': false
  }
}

function certutil (args) {
  try {
    execFileSync('certutil', args, { stdio: ['ignore', 'pipe', 'pipe'], timeout: 30000 })
  } catch (err) {
    if (err.code === 'ENOENT') throw new FirefoxError(`no certutil, which puts the local CA into Firefox's profile (package libnss3-tools): ${FIREFOX_INSTALL_HINT}`)
    throw new FirefoxError(`certutil ${args.join(' ')} failed: ${String(err.stderr || err.stdout || err.message).trim()}`)
  }
}

// Loads each of `lanes` (h3 lanes sharing their host with other lanes) until
// Firefox reaches it over HTTP/3, having learnt that from the lane's Alt-Svc
// (at most LEARN_TRIES loads), then leaves the page blank. → { lane name:
// the protocol of its last load } ('h3' when learnt).
async function learnH3 (page, lanes) {
  const learnt = {}
  for (const lane of lanes) {
    let protocol = null
    for (let i = 0; i < LEARN_TRIES && protocol !== 'h3'; i++) {
      if (i) await new Promise(resolve => setTimeout(resolve, 100 * i))
      try {
        await page.goto(`${lane.url}/`, { timeout: 30000 })
        protocol = await page.evaluate(() => performance.getEntriesByType('navigation')[0].nextHopProtocol)
      } catch (err) {
        protocol = `failed: ${err.message.split('\n')[0]}` // unreachable or untrusted: no use trying again
        break
      }
    }
    learnt[lane.name] = protocol
    debug('h3 lane %s: %s', lane.name, protocol)
  }
  if (lanes.length) await page.goto('about:blank').catch(() => {})
  return learnt
}

// Starts bench/firefox-relay.js (in the link's namespace when there is a
// link) and resolves once Firefox's BiDi WebSocket is open, with a puppeteer
// ConnectionTransport over the relay's pipes: { transport, child, pid, exited,
// stderrTail() }.
function startRelay ({ executablePath, profile, link, timeoutMs }) {
  const config = { executablePath, profile, timeoutMs, removeProfile: true, env: { MOZ_CRASHREPORTER_DISABLE: '1', MOZ_DISABLE_AUTO_SAFE_MODE: '1' } }
  const spawnWith = link ? link.spawnInside : spawn
  const child = spawnWith(process.execPath, [RELAY, JSON.stringify(config)], { stdio: ['pipe', 'pipe', 'pipe', 'ipc'] })
  let tail = ''
  child.stderr.setEncoding('utf8')
  child.stderr.on('data', chunk => {
    tail = (tail + chunk).slice(-4000)
    for (const line of chunk.split('\n')) if (line.trim()) debug('firefox: %s', line)
  })
  const stderrTail = () => tail.trim().split('\n').slice(-12).join('\n')
  // 'close': the relay has exited and its last lines are read
  const exited = new Promise(resolve => child.once('close', (code, signal) => resolve({ code, signal })))
  child.stdin.on('error', () => {}) // EPIPE once the relay is gone
  child.on('error', () => {})
  const transport = {
    onmessage: null,
    onclose: null,
    send (message) {
      if (child.stdin.writable) child.stdin.write(JSON.stringify(message) + '\n')
    },
    close () {
      if (!child.stdin.destroyed) child.stdin.end()
    }
  }
  let closed = false
  const closeTransport = () => {
    if (closed) return
    closed = true
    if (transport.onclose) transport.onclose()
  }
  exited.then(closeTransport)
  return new Promise((resolve, reject) => {
    let settled = false
    let firefoxPid = null
    // The relay is asked to end (it kills Firefox's process group and removes
    // the profile), killed after 6 s if it has not; Firefox's group too.
    const fail = async message => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      transport.close()
      const ended = await Promise.race([exited.then(() => true), new Promise(resolve => setTimeout(() => resolve(false), 6000))])
      if (!ended) child.kill('SIGKILL')
      if (firefoxPid) {
        try {
          process.kill(-firefoxPid, 'SIGKILL')
        } catch { /* gone */ }
      }
      reject(new FirefoxError(message))
    }
    const timer = setTimeout(() => fail(`Firefox did not start within ${timeoutMs / 1000 + 5} s; its output ended:\n${stderrTail() || '(nothing)'}`), timeoutMs + 5000)
    child.once('error', err => fail(`cannot start ${RELAY}: ${err.message}`))
    exited.then(({ code, signal }) => fail(`Firefox's relay ended (${signal || `code ${code}`}) before Firefox was ready; its output ended:\n${stderrTail() || '(nothing)'}`))
    readline.createInterface({ input: child.stdout }).on('line', line => {
      let value
      try {
        value = JSON.parse(line)
      } catch {
        debug('relay: not JSON: %s', line)
        return
      }
      if (typeof value === 'string') {
        if (transport.onmessage) transport.onmessage(value)
        return
      }
      if (value.pid) firefoxPid = value.pid
      if (value.h2bench === 'ready') {
        settled = true
        clearTimeout(timer)
        resolve({ transport, child, pid: value.pid, exited, stderrTail })
      } else if (value.h2bench === 'error') {
        fail(`${value.message}${/did not start/.test(value.message) ? '' : `\n${stderrTail()}`}`)
      } else if (value.h2bench === 'exit') {
        if (!settled) fail(`Firefox exited (${value.signal || `code ${value.code}`}) before it was ready; its output ended:\n${(value.tail || stderrTail()) || '(nothing)'}`)
        closeTransport()
      } else if (value.h2bench === 'closed') {
        closeTransport()
      }
    })
  })
}

// Launches the local Firefox headless in a throw-away profile that trusts the
// local CA `caFile` (server/certs.js's ca.pem; or `ca`, its PEM text),
// inside `link`'s client namespace when there is a link (link/namespace.js
// openLink's result), with HTTP/3 for the h3 lanes among `lanes` (startAll's
// running.lanes; see h3Plan) and off otherwise. `trustCa: false` leaves the CA out (every lane then fails: proof
// that the trust is real). `network: false`: no BiDi network events (no
// page.on('request'), goto resolves null; a little less work per request).
// `prefs`: more Firefox preferences. `timeoutMs`: for Firefox to start.
// Resolves { browser (a puppeteer Browser), page (its first Page), newPage(),
// close(), name: 'firefox', version ("Firefox 153.7.0esr"), executablePath,
// userAgent, profile, pid (Firefox's, the leader of its process group), h3
// ({ lane: protocol } of the h3 lanes learnt from Alt-Svc), launchMs }.
// close() always ends Firefox (every process of it) and removes the profile.
async function launchFirefox ({ caFile = null, ca = null, link = null, lanes = [], trustCa = true, network = true, prefs = {}, timeoutMs = START_TIMEOUT_MS } = {}) {
  const t0 = Date.now()
  const why = firefoxUnavailableReason({ trustCa })
  if (why) throw new FirefoxError(why)
  const executablePath = findFirefox()
  if (trustCa && !caFile && !ca) throw new FirefoxError('launchFirefox needs the local CA (caFile: server/certs.js ca.pem) unless trustCa is false')
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
    if (trustCa) {
      let file = caFile
      if (!file) {
        file = path.join(profile, 'h2bench-ca.pem')
        fs.writeFileSync(file, ca)
      }
      certutil(['-N', '-d', `sql:${profile}`, '--empty-password'])
      certutil(['-A', '-n', CA_NICKNAME, '-t', 'C,,', '-i', file, '-d', `sql:${profile}`])
    }
    await createProfile(Browser.FIREFOX, { path: profile, preferences: { ...firefoxPreferences(lanes), ...prefs } })
    relay = await startRelay({ executablePath, profile, link, timeoutMs })
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
        await Promise.race([browser.close(), new Promise(resolve => setTimeout(resolve, 10000))])
      } catch (err) {
        debug('browser.close: %s', err.message)
      }
      relay.transport.close() // the relay's stdin: it waits for Firefox to exit, then ends
      const ended = await Promise.race([relay.exited.then(() => true), new Promise(resolve => setTimeout(() => resolve(false), 15000))])
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

module.exports = { launchFirefox, findFirefox, firefoxUnavailableReason, firefoxPreferences, h3Plan, FIREFOX_INSTALL_HINT, FirefoxError }

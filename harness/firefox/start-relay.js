'use strict'

// This side of Firefox's relay (./relay.js, which starts Firefox and relays
// its WebDriver BiDi WebSocket on pipes): the relay started, here or in a
// link's namespace, and a puppeteer ConnectionTransport over its pipes.
const path = require('node:path')
const { spawn } = require('node:child_process')
const readline = require('node:readline')
const debug = require('debug')('h2bench:firefox')
const { FirefoxError } = require('./error')
const { profileHome } = require('./profile')

const RELAY = path.join(__dirname, 'relay.js')

// Starts harness/firefox/relay.js (in the link's namespace when there is a
// link) and resolves once Firefox's BiDi WebSocket is open, with a puppeteer
// ConnectionTransport over the relay's pipes: { transport, child, pid, exited,
// stderrTail() }. `onMessage`: called with every BiDi message from Firefox,
// parsed, before puppeteer sees it (a tap for raw events puppeteer does not
// expose, such as the network events' timings: harness/har/bidi-har.js); a
// tap that throws is logged and puppeteer still gets the message. `hostsFile`:
// Firefox started with that file over /etc/hosts in a mount namespace of its
// own (./hosts.js), inside the link's network namespace when there is a link.
function startRelay ({ executablePath, profile, link, timeoutMs, onMessage = null, hostsFile = null }) {
  // HOME: the profile's own (./profile.js profileHome), removed with it.
  const config = { executablePath, profile, timeoutMs, removeProfile: true, hostsFile, env: { MOZ_CRASHREPORTER_DISABLE: '1', MOZ_DISABLE_AUTO_SAFE_MODE: '1', HOME: profileHome(profile) } }
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
        if (onMessage) tap(onMessage, value)
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

function tap (onMessage, text) {
  try {
    onMessage(JSON.parse(text))
  } catch (err) {
    debug('onBidiMessage: %s', err.message)
  }
}

module.exports = { startRelay }

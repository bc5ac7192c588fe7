#!/usr/bin/env node
'use strict'

// Starts Firefox and relays its WebDriver BiDi WebSocket over this process's
// stdin and stdout, so that start-relay.js talks to a Firefox wherever this
// script runs: on this machine, or inside a packet-level link's client
// network namespace (link/namespace.js spawnInside), where Firefox's BiDi
// server listens on the namespace's own loopback, out of the host's reach.
// One code path for both.
//
// argv[2]: JSON { executablePath, profile, args, env, timeoutMs, removeProfile, hostsFile }.
// stdout, one JSON value a line: an object { h2bench: 'ready', ws, pid } once
// connected, { h2bench: 'error', message } when Firefox did not start,
// { h2bench: 'exit', code, signal } when it ended; a string for each BiDi
// message from Firefox. stdin: a JSON string a line, each a BiDi message for
// Firefox. Firefox's own output goes to stderr, as it comes.
//
// Firefox never outlives this script: it runs in a process group of its own
// (its content processes too), killed as a whole when this script ends, and
// with a parent-death signal (setpriv, where it exists) for a kill -9 of ours.
// This script ends when its stdin closes or its parent goes (IPC disconnect).
const fs = require('node:fs')
const { spawn, spawnSync } = require('node:child_process')
const readline = require('node:readline')
const WebSocket = require('ws')
const { withHostsFile } = require('./hosts')

const BIDI_LINE = /^WebDriver BiDi listening on (ws:\/\/\S+)/ // @puppeteer/browsers' WEBDRIVER_BIDI_WEBSOCKET_ENDPOINT_REGEX
const GRACE_MS = 5000 // for Firefox to exit after browser.close (or SIGTERM) before it gets SIGKILL
const TAIL_CHARS = 4000

const config = JSON.parse(process.argv[2])
const out = value => process.stdout.write(JSON.stringify(value) + '\n')

const hasSetpriv = process.platform === 'linux' && spawnSync('setpriv', ['--version'], { stdio: 'ignore' }).status === 0
const firefoxArgs = ['--headless', '--no-remote', '--profile', config.profile, '--remote-debugging-port=0', ...(config.args || []), 'about:blank']
// config.hostsFile: Firefox in a mount namespace of its own with that file over /etc/hosts (./hosts.js).
const [inner, innerArgs] = config.hostsFile ? withHostsFile(config.hostsFile, config.executablePath, firefoxArgs) : [config.executablePath, firefoxArgs]
const [cmd, argv] = hasSetpriv
  ? ['setpriv', ['--pdeathsig', 'KILL', '--', inner, ...innerArgs]]
  : [inner, innerArgs]
const firefox = spawn(cmd, argv, { env: { ...process.env, ...config.env }, stdio: ['ignore', 'pipe', 'pipe'], detached: true })

let tail = ''
let ws = null
let exited = null
let ending = null
let askedToClose = false // a browser.close command went through

function killGroup (signal) {
  try {
    process.kill(-firefox.pid, signal)
  } catch { /* already gone */ }
}

// Ends this script: Firefox first (given time to exit when it was asked to
// close over BiDi, else SIGTERM at once), then whatever is left of its
// process group.
function end (code = 0) {
  ending = ending || (async () => {
    if (ws) ws.close()
    if (!exited && firefox.pid) {
      const gone = new Promise(resolve => firefox.once('exit', resolve))
      const wait = ms => new Promise(resolve => setTimeout(resolve, ms).unref())
      if (askedToClose) await Promise.race([gone, wait(GRACE_MS)])
      if (!exited) {
        killGroup('SIGTERM')
        await Promise.race([gone, wait(GRACE_MS)])
      }
    }
    killGroup('SIGKILL')
    // the throw-away profile goes with Firefox, even when our parent could not see to it
    if (config.removeProfile) fs.rmSync(config.profile, { recursive: true, force: true, maxRetries: 3 })
    process.exit(code)
  })()
  return ending
}

const startTimer = setTimeout(() => {
  out({ h2bench: 'error', pid: firefox.pid, message: `Firefox did not start its WebDriver BiDi server within ${config.timeoutMs / 1000} s; its output ended: ${tail.trim().slice(-1500) || '(nothing)'}` })
  killGroup('SIGKILL')
  end(1)
}, config.timeoutMs || 30000)

function onOutput (stream) {
  stream.setEncoding('utf8')
  stream.on('data', chunk => {
    process.stderr.write(chunk)
    tail = (tail + chunk).slice(-TAIL_CHARS)
  })
  readline.createInterface({ input: stream }).on('line', line => {
    const m = BIDI_LINE.exec(line)
    if (m && !ws) connect(m[1])
  })
}
onOutput(firefox.stdout)
onOutput(firefox.stderr)

function connect (url) {
  ws = new WebSocket(`${url}/session`, [], { perMessageDeflate: false, maxPayload: 256 * 1024 * 1024 })
  ws.on('open', () => {
    clearTimeout(startTimer)
    out({ h2bench: 'ready', ws: url, pid: firefox.pid })
  })
  ws.on('message', data => out(String(data)))
  ws.on('error', err => {
    if (ws.readyState !== WebSocket.OPEN) {
      clearTimeout(startTimer)
      out({ h2bench: 'error', message: `cannot connect to Firefox's WebDriver BiDi server ${url}: ${err.message}` })
      end(1)
    }
  })
  ws.on('close', () => out({ h2bench: 'closed' }))
}

firefox.once('error', err => {
  clearTimeout(startTimer)
  out({ h2bench: 'error', message: `cannot start ${config.executablePath}: ${err.message}` })
  end(1)
})
firefox.once('exit', (code, signal) => {
  exited = { code, signal }
  clearTimeout(startTimer)
  out({ h2bench: 'exit', pid: firefox.pid, code, signal, ...(ws ? {} : { tail: tail.trim().slice(-1500) }) })
  end(0)
})

readline.createInterface({ input: process.stdin }).on('line', line => {
  if (!line) return
  if (line.includes('"browser.close"')) askedToClose = true
  if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.parse(line))
})
process.stdin.on('end', () => end(0))
process.stdin.on('error', () => end(0))
process.stdout.on('error', () => end(0)) // EPIPE: the parent is gone
process.on('disconnect', () => end(0))
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => end(0))

'use strict'

// The processes of the link's cross traffic (harness/cross-traffic/index.js): started
// on the lanes side (this network namespace) or in the client namespace
// (openLink's spawnInside), every one tracked so that stopping the flows kills
// what is left, and every one dying with this process (setpriv's parent-death
// signal, as link/namespace.js does for the namespace's): nothing outlives the
// link, whatever ends us.

const readline = require('node:readline')
const { spawn, spawnSync } = require('node:child_process')
const fs = require('node:fs')
const { UserError } = require('../../common/errors')

// Cross traffic cannot start here (a tool missing, a congestion control the kernel lacks) or failed to.
class CrossTrafficError extends UserError {
  constructor (message, options = {}) {
    super(message, { status: 503, code: 'H2B_CROSS_TRAFFIC', ...options })
  }
}

// A group of processes: spawnOutside / spawnInside add to it, killAll ends what is left.
function processGroup (opened) {
  const children = new Set()
  const track = child => {
    children.add(child)
    child.once('exit', () => children.delete(child))
    child.stderrTail = ''
    if (child.stderr) child.stderr.on('data', d => { child.stderrTail = (child.stderrTail + d).slice(-2000) })
    return child
  }
  return {
    spawnOutside: (cmd, args, options) => track(spawn('setpriv', ['--pdeathsig', 'KILL', '--', cmd, ...args], options)),
    spawnInside: (cmd, args, options) => track(opened.spawnInside(cmd, args, options)),
    pids: () => [...children].map(c => c.pid),
    killAll () {
      for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
    }
  }
}

const exited = child => child.exitCode !== null || child.signalCode !== null

// Resolves when `child` has exited (true), or after timeoutMs (false).
function waitExit (child, timeoutMs) {
  if (exited(child)) return Promise.resolve(true)
  return new Promise(resolve => {
    const timer = setTimeout(() => resolve(false), timeoutMs)
    child.once('exit', () => { clearTimeout(timer); resolve(true) })
  })
}

// Whether a TCP socket listens on `port` in the network namespace of process `pid` (its /proc/PID/net/tcp: state 0A).
function listening (pid, port) {
  const hex = `:${port.toString(16).toUpperCase().padStart(4, '0')}`
  try {
    return fs.readFileSync(`/proc/${pid}/net/tcp`, 'utf8').split('\n').some(line => {
      const f = line.trim().split(/\s+/)
      return f[1] && f[1].endsWith(hex) && f[3] === '0A'
    })
  } catch {
    return false
  }
}

// Waits until a server `child` listens on `port` in pid's namespace; rejects when it exits first or takes over timeoutMs.
async function waitListening (child, pid, port, what, timeoutMs = 5000) {
  const until = Date.now() + timeoutMs
  while (!listening(pid, port)) {
    if (exited(child)) throw new CrossTrafficError(`${what} exited before listening on port ${port}: ${(child.stderrTail || '').trim() || `code ${child.exitCode}`}`)
    if (Date.now() > until) throw new CrossTrafficError(`${what} did not listen on port ${port} within ${timeoutMs / 1000} s`)
    await new Promise(resolve => setTimeout(resolve, 20))
  }
}

// A port no TCP socket uses in pid's namespace, from `from` up (the client namespace holds only the link's own sockets).
function freePortIn (pid, from) {
  for (let port = from; port < 65536; port++) if (!listening(pid, port)) return port
  throw new CrossTrafficError(`no free TCP port from ${from} in the client namespace`)
}

// Whether a program runs here at all (`cmd --version`).
function installed (cmd) {
  const r = spawnSync(cmd, ['--version'], { stdio: 'ignore', timeout: 5000 })
  return !r.error
}

// A flow's client prints its counts as JSON lines, the last one `final` (or an `error`) when it stops:
// → { last () (the latest count, or null), finished (resolves at the final count or when its output ends) }.
function followCounts (child) {
  let last = null
  const finished = new Promise(resolve => {
    readline.createInterface({ input: child.stdout }).on('line', line => {
      try {
        last = JSON.parse(line)
      } catch { /* not a count */ }
      if (last && (last.final || last.error)) resolve()
    }).once('close', resolve)
  })
  return { last: () => last, finished }
}

module.exports = { followCounts, processGroup, waitExit, waitListening, listening, freePortIn, installed, exited, CrossTrafficError }

'use strict'

// A third-party server (Debian's nginx, lighttpd, Apache) as a child of this
// process, for the tests' sites (test/support/nginx.js,
// test/support/third-party-site.js): in the foreground, with a config file
// the caller wrote into a folder of its own, on a free port of 127.0.0.1,
// stopped by close() and killed with this process however it ends.
const fs = require('node:fs')
const net = require('node:net')
const { spawn, spawnSync } = require('node:child_process')
const { freePort } = require('../../server/edge/caddy')

const HOST = '127.0.0.1'
const START_TIMEOUT_MS = 15000
const STOP_GRACE_MS = 3000

// The pids whose parent is `pid` (a server's workers), from /proc.
function childPids (pid) {
  const out = []
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue
    try {
      const stat = fs.readFileSync(`/proc/${name}/stat`, 'utf8')
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid) out.push(Number(name))
    } catch {
      // gone meanwhile
    }
  }
  return out
}

function canConnect (port, host = HOST) {
  return new Promise(resolve => {
    const socket = net.connect(port, host)
    socket.once('connect', () => { socket.destroy(); resolve(true) })
    socket.once('error', () => resolve(false))
  })
}

const works = (cmd, args) => process.platform === 'linux' && spawnSync(cmd, args, { stdio: 'ignore' }).status === 0
let launcher = null
// How a server is started so that nothing of it outlives this process, even
// killed with SIGKILL (no exit hook then): setpriv's parent-death signal
// kills the master, but a server's workers (nginx's, Apache's children,
// lighttpd's CGI scripts) do not watch their master and would live on; so
// the master runs as PID 1 of a PID namespace of its own (unshare --pid
// --kill-child: killed when unshare is), and the kernel ends the rest with
// it. Without unshare or setpriv, the exit hook has to do.
function serverLauncher () {
  if (!launcher) {
    const setpriv = works('setpriv', ['--version']) ? ['setpriv', '--pdeathsig', 'KILL', '--'] : []
    const unshare = works('unshare', ['--pid', '--fork', '--kill-child', 'true']) ? ['unshare', '--pid', '--fork', '--kill-child', '--'] : []
    launcher = [...setpriv, ...unshare]
  }
  return launcher
}

function killAll (pids, signal = 'SIGKILL') {
  for (const pid of pids) {
    try {
      process.kill(pid, signal)
    } catch {
      // already gone
    }
  }
}

// Starts `name`'s server on a free port of 127.0.0.1: `configure(port)` writes its config for that port and
// returns [executable, ...arguments] that run it in the foreground. Resolves once the port accepts connections
// with { port, pid (the master), workers(), close(), kill() }; rejects with the server's own last line on stderr.
// The port is free when asked, then the server binds it: another process may take it in between, so a busy port
// (`busy`, a RegExp of the server's message) is tried again.
async function startForeground (name, configure, { busy = /Address already in use/ } = {}) {
  let lastError = ''
  for (let attempt = 0; attempt < 3; attempt++) {
    const port = await freePort(HOST)
    const [cmd, ...argv] = [...serverLauncher(), ...configure(port)]
    const child = spawn(cmd, argv, { stdio: ['ignore', 'ignore', 'pipe'] })
    let stderr = ''
    let exited = null
    const exitedPromise = new Promise(resolve => child.once('exit', (code, signal) => { exited = { code, signal }; resolve(exited) }))
    child.once('error', err => { stderr += `could not start ${cmd}: ${err.message}\n` })
    child.stderr.setEncoding('utf8')
    child.stderr.on('data', d => { stderr += d })
    const t0 = Date.now()
    while (!exited && !(await canConnect(port))) {
      if (Date.now() - t0 > START_TIMEOUT_MS) {
        child.kill('SIGKILL')
        await exitedPromise
        break
      }
      await new Promise(resolve => setTimeout(resolve, 50))
    }
    if (!exited) return foregroundHandle({ child, exitedPromise, isExited: () => exited, port, stderr: () => stderr })
    lastError = stderr.trim().split('\n').pop() || (exited.signal ? `killed by ${exited.signal}` : `exit code ${exited.code}`)
    if (!busy.test(stderr)) break
  }
  throw new Error(`${name} did not start: ${lastError}`)
}

function foregroundHandle ({ child, exitedPromise, isExited, port, stderr }) {
  // The master: the child itself, or unshare's one child.
  const master = serverLauncher().includes('unshare') ? childPids(child.pid)[0] || child.pid : child.pid
  let closing = null
  const handle = {
    port,
    pid: master,
    // Read while the master lives, so a pid is never one reused since.
    workers: () => isExited() ? [] : childPids(master),
    stderr,
    // SIGTERM: the server's own shutdown, the master waiting for its workers
    // before it exits; after STOP_GRACE_MS, SIGKILL for all.
    close () {
      if (!closing) {
        if (!isExited()) killAll([master], 'SIGTERM')
        const timer = setTimeout(() => handle.kill(), STOP_GRACE_MS)
        closing = exitedPromise.then(() => clearTimeout(timer))
      }
      return closing
    },
    // Synchronous, for process exit.
    kill () {
      if (!isExited()) killAll([...handle.workers(), master, child.pid])
    }
  }
  return handle
}

module.exports = { startForeground, serverLauncher, childPids, canConnect, killAll, HOST }

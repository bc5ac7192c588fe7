'use strict'

// The soak's server in a process of its own (soak-server.js): started, ready,
// stopped.
const path = require('node:path')
const { fork } = require('node:child_process')

function startServer (lanes, intervalSeconds, log) {
  const child = fork(path.join(__dirname, 'soak-server.js'), [lanes.join(','), String(Math.round(intervalSeconds * 1000))],
    { stdio: ['ignore', 'pipe', 'pipe', 'ipc'] })
  // Whatever the server prints goes to stderr (stdout may be --json).
  for (const stream of [child.stdout, child.stderr]) {
    stream.on('data', d => { for (const line of String(d).split('\n').filter(Boolean)) log(`server: ${line}`) })
  }
  return new Promise((resolve, reject) => {
    const onExit = code => reject(new Error(`the server process exited with code ${code} before it was ready`))
    child.once('exit', onExit)
    child.on('message', function ready (msg) {
      if (msg && msg.type === 'ready') {
        child.off('message', ready)
        child.off('exit', onExit)
        resolve({ child, info: msg })
      }
    })
  })
}

function stopServer (child) {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve()
  return new Promise(resolve => {
    const kill = setTimeout(() => child.kill('SIGKILL'), 8000)
    child.once('exit', () => { clearTimeout(kill); resolve() })
    if (child.connected) child.disconnect()
    else child.kill('SIGTERM')
  })
}

module.exports = { startServer, stopServer }

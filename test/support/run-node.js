'use strict'

const { spawn } = require('node:child_process')

// Runs a Node script of the project with this Node; resolves with its exit
// code and everything it wrote. `env`: its environment (default this process's);
// `via`: (command, args) → [command, args] that run it (a wrapper: a mount namespace of its own, say).
function runNode (script, args = [], { env = process.env, via = (cmd, argv) => [cmd, argv] } = {}) {
  const [cmd, argv] = via(process.execPath, [script, ...args])
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, argv, { stdio: ['ignore', 'pipe', 'pipe'], env })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', d => { stdout += d })
    child.stderr.on('data', d => { stderr += d })
    child.on('error', reject)
    child.on('close', code => resolve({ code, stdout, stderr }))
  })
}

module.exports = { runNode }

'use strict'

const { spawn } = require('node:child_process')

// Runs a Node script of the project with this Node; resolves with its exit
// code and everything it wrote. `env`: its environment (default this process's).
function runNode (script, args = [], { env = process.env } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', d => { stdout += d })
    child.stderr.on('data', d => { stderr += d })
    child.on('error', reject)
    child.on('close', code => resolve({ code, stdout, stderr }))
  })
}

module.exports = { runNode }

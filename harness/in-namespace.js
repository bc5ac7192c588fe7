#!/usr/bin/env node
'use strict'

// Runs one exported async function of a module in a child Node process,
// started where `spawn` says (a link's client namespace: link/namespace.js
// spawnInside), and resolves what it returned. Node cannot move a running
// process into another network namespace, so a client that must measure
// through the link (push at the protocol level, the load tools' adapters)
// runs as a child there. Arguments and result travel as JSON (stdin, stdout);
// the child's stderr is passed through.
const path = require('node:path')

function runInside (spawnInside, modulePath, exportName, args) {
  return new Promise((resolve, reject) => {
    const child = spawnInside(process.execPath, [__filename, path.resolve(modulePath), exportName], { stdio: ['pipe', 'pipe', 'inherit'] })
    let out = ''
    child.stdout.on('data', d => { out += d })
    child.once('error', reject)
    child.once('exit', (code, signal) => {
      if (code !== 0) return reject(new Error(`${exportName} in the link's namespace ended with ${signal || `code ${code}`}`))
      try {
        const answer = JSON.parse(out)
        if (answer.error) reject(new Error(answer.error))
        else resolve(answer.result)
      } catch (err) {
        reject(new Error(`${exportName} in the link's namespace printed no result: ${err.message}`))
      }
    })
    child.stdin.end(JSON.stringify(args))
  })
}

if (require.main === module) {
  const [modulePath, exportName] = process.argv.slice(2)
  let input = ''
  process.stdin.on('data', d => { input += d })
  process.stdin.on('end', async () => {
    try {
      const result = await require(modulePath)[exportName](JSON.parse(input))
      process.stdout.write(JSON.stringify({ result }))
    } catch (err) {
      process.stdout.write(JSON.stringify({ error: err.message }))
    }
  })
}

module.exports = { runInside }

'use strict'

const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { execFile, execFileSync } = require('node:child_process')
const { parseSummary, parseLog, hint } = require('../../load/tools/h2load')

const INSTALL_HINT = `h2load is not installed: ${hint}`

function checkH2load () {
  try {
    return execFileSync('h2load', ['--version']).toString().trim().split('\n')[0]
  } catch {
    throw new Error(INSTALL_HINT)
  }
}

// Runs h2load against `url`. `protocol` 'http/1.1' adds --h1. Returns the
// figures h2load prints plus latency percentiles from its per-request log.
function h2load ({ url, protocol, clients, streams, requests, duration, warmup }) {
  const log = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'h2bench-h2load-')), 'requests.tsv')
  const args = ['-t', '1', '-c', String(clients), '-m', String(streams), '--log-file', log]
  if (protocol === 'http/1.1') args.push('--h1')
  if (duration) args.push('-D', String(duration), '--warm-up-time', String(warmup || 1))
  else args.push('-n', String(requests))
  args.push(url)
  return new Promise((resolve, reject) => {
    execFile('h2load', args, { maxBuffer: 16 << 20 }, (err, stdout, stderr) => {
      let summary
      try {
        summary = parseSummary(`${stdout}\n${stderr}`)
      } catch (parseErr) {
        return reject(new Error(`h2load ${args.join(' ')} gave no result: ${err ? err.message : ''}\n${parseErr.message}`))
      }
      const latenciesMs = parseLog(fs.readFileSync(log, 'utf8')).sort((a, b) => a - b)
      fs.rmSync(path.dirname(log), { recursive: true, force: true })
      resolve({
        reqPerSec: summary.reqPerSec,
        bytesPerSec: summary.bytesPerSec,
        done: summary.done,
        succeeded: summary.succeeded,
        failed: summary.failed,
        latenciesMs,
        command: `h2load ${args.filter(a => a !== log && a !== '--log-file').join(' ')}`
      })
    })
  })
}

module.exports = { h2load, checkH2load, INSTALL_HINT }

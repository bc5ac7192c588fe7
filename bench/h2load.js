'use strict'

const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { execFile, execFileSync } = require('node:child_process')

const INSTALL_HINT = 'h2load is not installed: on Debian/Ubuntu `sudo apt-get install -y nghttp2-client`, on macOS `brew install nghttp2`'

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
      const text = String(stdout)
      const finished = /finished in ([\d.]+)(m?s), ([\d.]+) req\/s, ([\d.]+)([KMG]?B)\/s/.exec(text)
      const counts = /requests: (\d+) total, (\d+) started, (\d+) done, (\d+) succeeded, (\d+) failed, (\d+) errored/.exec(text)
      if (!finished || !counts) {
        return reject(new Error(`h2load ${args.join(' ')} gave no result: ${err ? err.message : ''}\n${text}${stderr}`))
      }
      const unit = { B: 1, KB: 1024, MB: 1024 ** 2, GB: 1024 ** 3 }[finished[5]]
      const latenciesMs = fs.readFileSync(log, 'utf8').trim().split('\n').filter(Boolean)
        .map(line => Number(line.split('\t')[2]) / 1000).sort((a, b) => a - b)
      fs.rmSync(path.dirname(log), { recursive: true, force: true })
      resolve({
        reqPerSec: Number(finished[3]),
        bytesPerSec: Number(finished[4]) * unit,
        done: Number(counts[3]),
        succeeded: Number(counts[4]),
        failed: Number(counts[5]) + Number(counts[6]),
        latenciesMs,
        command: `h2load ${args.filter(a => a !== log && a !== '--log-file').join(' ')}`
      })
    })
  })
}

module.exports = { h2load, checkH2load, INSTALL_HINT }

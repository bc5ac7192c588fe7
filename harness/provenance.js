'use strict'

// What a benchmark measured with: the code (version, commit), Node, the
// machine and the browser's version, for the record every bench script and
// h2bench load writes. One place reads them; each record names them alike.
const os = require('node:os')
const path = require('node:path')
const { execFileSync } = require('node:child_process')
const { version } = require('../package.json')

const ROOT = path.join(__dirname, '..')

// fn(), or `fallback` when it throws.
function quietly (fn, fallback) {
  try { return fn() } catch { return fallback }
}

function chromiumVersion (executablePath) {
  return quietly(() => execFileSync(executablePath, ['--version'], { encoding: 'utf8', timeout: 10000, stdio: ['ignore', 'pipe', 'ignore'] }).trim(), path.basename(executablePath))
}

// The rooms whose code a measurement runs (README, "How the code is laid out").
const MEASURED_CODE = ['bench', 'bin', 'client', 'common', 'harness', 'link', 'load', 'server', 'tools', 'views']

// The short commit, marked when the code measured has uncommitted changes;
// null outside a git checkout.
function gitCommit () {
  const git = args => execFileSync('git', args, { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim()
  const head = quietly(() => git(['rev-parse', '--short', 'HEAD']), null)
  if (!head) return null
  const dirty = quietly(() => git(['status', '--porcelain', '--', ...MEASURED_CODE]) !== '', false)
  return dirty ? `${head} (with uncommitted changes)` : head
}

// The code and the machine: { h2bench: '<version> <commit>', node, cpu, cpus, memoryGiB, os }.
function environmentRecord ({ commit = gitCommit() } = {}) {
  const cpus = os.cpus()
  return {
    h2bench: `${version}${commit ? ` ${commit}` : ''}`,
    node: process.version,
    cpu: cpus.length ? cpus[0].model.trim() : 'unknown',
    cpus: cpus.length,
    memoryGiB: +(os.totalmem() / 2 ** 30).toFixed(1),
    os: `${os.type()} ${os.release()} ${os.arch()}`
  }
}

module.exports = { quietly, chromiumVersion, gitCommit, environmentRecord, MEASURED_CODE }

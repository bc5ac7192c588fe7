'use strict'

// What a benchmark measured with: the commit of the code and the browser's
// version, for the record every bench script writes.
const path = require('node:path')
const { execFileSync } = require('node:child_process')

const ROOT = path.join(__dirname, '..')

// fn(), or `fallback` when it throws.
function quietly (fn, fallback) {
  try { return fn() } catch { return fallback }
}

function chromiumVersion (executablePath) {
  return quietly(() => execFileSync(executablePath, ['--version'], { encoding: 'utf8', timeout: 10000, stdio: ['ignore', 'pipe', 'ignore'] }).trim(), path.basename(executablePath))
}

// The short commit, marked when the code measured (bench, server, client,
// views) has uncommitted changes; null outside a git checkout.
function gitCommit () {
  const git = args => execFileSync('git', args, { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim()
  const head = quietly(() => git(['rev-parse', '--short', 'HEAD']), null)
  if (!head) return null
  const dirty = quietly(() => git(['status', '--porcelain', '--', 'bench', 'server', 'client', 'views']) !== '', false)
  return dirty ? `${head} (with uncommitted changes)` : head
}

module.exports = { quietly, chromiumVersion, gitCommit }

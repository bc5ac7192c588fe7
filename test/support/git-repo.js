'use strict'

// A throw-away git repository for the tests of what reads the history (bench/report/studies/):
// → { root, git(...args), write(file, text), commit(file, text) → the new commit's short hash, remove() }.
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { execFileSync } = require('node:child_process')

function throwawayRepo () {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'h2bench-git-'))
  const git = (...args) => execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd: root, encoding: 'utf8' }).trim()
  const write = (file, text) => {
    fs.mkdirSync(path.join(root, path.dirname(file)), { recursive: true })
    fs.writeFileSync(path.join(root, file), text)
  }
  const commit = (file, text) => {
    write(file, text)
    git('add', '-A')
    git('commit', '-q', '-m', `change ${file}`)
    return git('rev-parse', '--short', 'HEAD')
  }
  git('init', '-q')
  return { root, git, write, commit, remove: () => fs.rmSync(root, { recursive: true, force: true }) }
}

module.exports = { throwawayRepo }

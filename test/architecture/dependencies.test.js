'use strict'

// Every package the code requires is declared in package.json: a package
// found only because another one brought it (ws through puppeteer-core) can
// vanish with that one's next release. Runtime code needs a dependency; the
// tests and the lint config may use a devDependency.
const assert = require('node:assert/strict')
const fs = require('node:fs')
const path = require('node:path')
const { builtinModules } = require('node:module')

const ROOT = path.join(__dirname, '..', '..')
const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'))
const SKIP = new Set(['node_modules', '.cache', '.git', 'results'])

function jsFiles (dir, out = []) {
  for (const e of fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
    const rel = path.join(dir, e.name)
    if (e.isDirectory() && !SKIP.has(e.name)) jsFiles(rel, out)
    else if (e.isFile() && /\.(c|m)?js$/.test(e.name)) out.push(rel)
  }
  return out
}

// The packages a file's code names in require('…') or require.resolve('…'), comments left out.
function packagesOf (text) {
  const code = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`\\])\/\/.*$/gm, '$1')
  const names = [...code.matchAll(/require(?:\.resolve)?\(\s*'([^'.$][^'$]*)'/g)].map(m => m[1])
  return names
    .filter(n => !n.startsWith('node:') && !builtinModules.includes(n.split('/')[0]))
    .map(n => n.startsWith('@') ? n.split('/').slice(0, 2).join('/') : n.split('/')[0])
}

describe('declared dependencies', () => {
  const files = jsFiles('.').filter(f => f !== path.join('test', 'architecture', 'dependencies.test.js'))

  it('reads the code of every room', () => {
    assert.ok(files.length > 200, `${files.length} files`)
  })

  it('every package the code requires is in package.json (runtime code: in dependencies)', () => {
    const runtime = new Set(Object.keys(pkg.dependencies || {}))
    const dev = new Set(Object.keys(pkg.devDependencies || {}))
    const problems = []
    for (const file of files) {
      const forTests = file.startsWith('test' + path.sep) || file === 'eslint.config.js'
      for (const name of new Set(packagesOf(fs.readFileSync(path.join(ROOT, file), 'utf8')))) {
        if (runtime.has(name) || (forTests && dev.has(name))) continue
        problems.push(`${file} requires '${name}', which package.json does not declare${dev.has(name) ? ' as a dependency (only as a devDependency)' : ''}`)
      }
    }
    assert.deepEqual(problems, [])
  })

  it('finds an undeclared package, and leaves comments and Node\'s own modules alone', () => {
    assert.deepEqual(packagesOf("const a = require('left-pad')\nconst b = require('node:fs')\nrequire('fs')\n// require('commented')\nrequire.resolve('@scope/pkg/sub')"), ['left-pad', '@scope/pkg'])
  })
})

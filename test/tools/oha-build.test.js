'use strict'

// tools/oha/build.js says when it builds, terminal or not: `npm run load` built
// oha for five minutes with nothing on a piped stderr. A stand-in cargo (a
// script that makes the binary at once) builds into a folder of the test's.
const assert = require('node:assert/strict')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { spawnSync } = require('node:child_process')

const BUILD = path.join(__dirname, '..', '..', 'tools', 'oha', 'build.js')

describe('tools/oha/build.js: a build says so, on a stderr that is no terminal', () => {
  let dir, env
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'h2bench-oha-'))
    const cargo = path.join(dir, 'cargo')
    // A Node script run by this Node (no shell, no coreutils: the unit tier runs with only node on the PATH).
    fs.writeFileSync(cargo, [
      `#!${process.execPath}`,
      "const fs = require('node:fs')",
      'const args = process.argv.slice(2)',
      "if (args[0] === '--version') { console.log('cargo 0.0.0 (stand-in)'); process.exit(0) }",
      "const bin = require('node:path').join(args[args.indexOf('--root') + 1], 'bin')",
      'fs.mkdirSync(bin, { recursive: true })',
      "fs.writeFileSync(require('node:path').join(bin, 'oha'), '', { mode: 0o755 })",
      ''
    ].join('\n'), { mode: 0o755 })
    env = { ...process.env, CARGO: cargo }
    delete env.OHA_PATH
  })
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }))

  const ensure = root => spawnSync(process.execPath, ['-e',
    `require(${JSON.stringify(BUILD)}).ensureOha({ root: ${JSON.stringify(root)} }).then(p => console.log(p), e => { console.error(e.message); process.exitCode = 1 })`
  ], { env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] })

  it('one line before the build and one after it; nothing when it is built already', () => {
    const root = path.join(dir, 'oha', '1.16.0')
    const first = ensure(root)
    assert.equal(first.status, 0, first.stderr)
    assert.equal(first.stdout.trim(), path.join(root, 'bin', 'oha'))
    const lines = first.stderr.trim().split('\n')
    assert.equal(lines.length, 2, first.stderr)
    assert.match(lines[0], /^oha: building the pinned oha 1\.16\.0 with cargo \(once, about 5 minutes\)…$/)
    assert.match(lines[1], new RegExp(`^oha: built ${path.join(root, 'bin', 'oha').replace(/[.]/g, '\\.')} in \\d+ s$`))
    const again = ensure(root)
    assert.equal(again.status, 0, again.stderr)
    assert.equal(again.stderr, '')
  })
})

'use strict'

const assert = require('node:assert/strict')
const path = require('node:path')
const { spawn } = require('node:child_process')
const { ensureNode, MAJORS } = require('../../support/node-versions')

const ROOT = path.join(__dirname, '..', '..', '..')
const MOCHA = path.join(ROOT, 'node_modules', 'mocha', 'bin', 'mocha.js')
// The protocol suites, rerun under each other supported Node major.
const SUITES = ['test/server/integration/lanes.test.js', 'test/server/integration/push.test.js', 'test/server/integration/spdy-compat.test.js', 'test/server/integration/flow-control.test.js', 'test/server/integration/abuse.test.js', 'test/server/slow/torture.test.js', 'test/link/spec.test.js', 'test/server/integration/ledger.test.js', 'test/load/integration/load-args.test.js', 'test/load/slow/tools.test.js', 'test/load/slow/load-run.test.js', 'test/server/integration/api.test.js', 'test/server/integration/certs.test.js']

function run (node, args) {
  return new Promise(resolve => {
    const child = spawn(node, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] })
    let out = ''
    child.stdout.on('data', d => { out += d })
    child.stderr.on('data', d => { out += d })
    child.on('exit', code => resolve({ code, out }))
  })
}

describe('protocol tests on every supported Node', function () {
  this.timeout(480000)
  for (const major of MAJORS) {
    it(`pass on Node ${major}`, async () => {
      const node = ensureNode(major)
      const { code, out } = await run(node, ['--version'])
      assert.equal(code, 0)
      assert.match(out, new RegExp(`^v${major}\\.`))
      const result = await run(node, [MOCHA, '--reporter', 'dot', ...SUITES])
      const summary = out.trim() + ': ' + (/(\d+ passing[^\n]*)/.exec(result.out) || ['no summary'])[0]
      process.stdout.write(`      ${summary}\n`)
      assert.equal(result.code, 0, `Node ${major}:\n${result.out.slice(-4000)}`)
      assert.doesNotMatch(result.out, /\d+ failing/)
    })
  }
})

'use strict'

// h2spec (github.com/summerwind/h2spec, its 145 tests of RFC 7540 and 7541)
// against lane h2, spdy on its vendored transport (vendor/spdy-transport),
// and lane h2n beside it for comparison. spdy passes fewer than nghttp2: what
// fails is validation it never did (idle and closed stream states, malformed
// pseudo-headers, content-length against DATA: the list is printed). The
// count must not fall: 116 passed before vendor/spdy-transport, 120 since
// (it refuses any frame inside a header block, and HPACK table size updates
// after a header field).
// h2spec comes from tools/h2spec (built with Go by test/run.js, or here),
// else H2SPEC, else an h2spec on the PATH or in ~/go/bin; without one the
// test says so and is skipped.
const assert = require('node:assert/strict')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { execFile, spawnSync } = require('node:child_process')
const { useServers } = require('../../support/servers')
const { laneByName } = require('../../../server/lanes')
const { ensureH2spec } = require('../../../tools/h2spec/build')

const MIN_PASSED_H2 = 120

async function findH2spec () {
  if (process.env.H2SPEC) return process.env.H2SPEC
  try {
    return await ensureH2spec()
  } catch (err) {
    const onPath = spawnSync('h2spec', ['--help'], { encoding: 'utf8' })
    if (!onPath.error) return 'h2spec'
    const home = path.join(os.homedir(), 'go', 'bin', 'h2spec')
    if (fs.existsSync(home)) return home
    throw new Error(`no h2spec: ${err.message.split('\n')[0]}; or set H2SPEC, or go install github.com/summerwind/h2spec/cmd/h2spec@latest`, { cause: err })
  }
}

// → { total, passed, skipped, failed, failures: [names], output }
function h2spec (bin, port) {
  return new Promise((resolve, reject) => {
    execFile(bin, ['-h', '127.0.0.1', '-p', String(port), '-t', '-k', '-o', '2'], { maxBuffer: 64 << 20, timeout: 10 * 60 * 1000 }, (err, stdout, stderr) => {
      const m = /(\d+) tests, (\d+) passed, (\d+) skipped, (\d+) failed/.exec(stdout)
      if (!m) return reject(new Error(`h2spec gave no summary${err ? ` (${err.message})` : ''}: ${(stdout + stderr).slice(-2000)}`))
      // The failures are listed once more after the run, under "Failures:".
      const tail = stdout.slice(stdout.indexOf('Failures:'))
      const failures = [...tail.matchAll(/^\s+× (.+)$/gm)].map(f => f[1].trim())
      resolve({ total: +m[1], passed: +m[2], skipped: +m[3], failed: +m[4], failures, output: stdout })
    })
  })
}

describe('h2spec: HTTP/2 conformance of lane h2 (spdy), beside h2n', function () {
  this.timeout(15 * 60 * 1000)
  const servers = useServers({ lanes: [laneByName('h2'), laneByName('h2n')] })
  let bin = null
  const results = {}

  before(async function () {
    try {
      bin = await findH2spec()
    } catch (err) {
      console.log(`    h2spec: skipped, ${err.message}`)
      this.skip()
    }
  })

  after(() => {
    for (const [lane, r] of Object.entries(results)) {
      console.log(`    ${lane}: ${r.passed} of ${r.total} passed, ${r.skipped} skipped, ${r.failed} failed`)
      if (lane === 'h2') for (const f of r.failures) console.log(`      × ${f}`)
    }
  })

  it(`lane h2 passes at least ${MIN_PASSED_H2} of h2spec's tests`, async () => {
    const port = new URL(servers.lane('h2').url).port
    const r = results.h2 = await h2spec(bin, port)
    assert.ok(r.total >= 145, `h2spec ran ${r.total} tests`)
    assert.ok(r.passed >= MIN_PASSED_H2, `lane h2 passed ${r.passed} of ${r.total}, fewer than ${MIN_PASSED_H2}:\n${r.failures.join('\n')}`)
  })

  it('lane h2n (node:http2), for comparison, passes more', async () => {
    const port = new URL(servers.lane('h2n').url).port
    const r = results.h2n = await h2spec(bin, port)
    assert.ok(r.passed >= (results.h2 ? results.h2.passed : 0), `h2n passed ${r.passed}`)
  })
})

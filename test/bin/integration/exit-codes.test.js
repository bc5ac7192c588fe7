'use strict'

// Every command line by the one convention of common/cli.js: usage 2, a run
// that failed 1, a signal 128 + n; a user's error is one line naming the command.
const assert = require('node:assert/strict')
const fs = require('node:fs')
const net = require('node:net')
const os = require('node:os')
const path = require('node:path')
const { spawn } = require('node:child_process')
const { unavailableReason } = require('../../../link/namespace')

const BIN = path.join(__dirname, '..', '..', '..', 'bin')

function run (script, args, { env = process.env, until = null, signal = null, afterMs = null } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(BIN, script), ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    const check = () => {
      if (until && signal && until.test(stdout + stderr)) {
        until = null
        setTimeout(() => child.kill(signal), 300) // its last line written, then its handlers set
      }
    }
    if (afterMs !== null) setTimeout(() => child.kill(signal), afterMs)
    child.stdout.on('data', d => { stdout += d; check() })
    child.stderr.on('data', d => { stderr += d; check() })
    child.on('error', reject)
    child.on('close', (code, sig) => resolve({ code, sig, stdout, stderr, lines: stderr.trim().split('\n').filter(l => l && !/Deprecation|trace-deprecation|WARNING/.test(l)) }))
  })
}

describe('exit codes of every command line (bin/)', function () {
  this.timeout(120000)
  let tmp
  before(() => { tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'h2bench-exit-')) })
  after(() => fs.rmSync(tmp, { recursive: true, force: true }))

  it('a usage error: one line naming the command, exit 2', async () => {
    const cases = [
      ['h2bench.js', ['--port', 'abc'], /^h2bench: --port \(H2BENCH_PORT\) must be a port/],
      ['h2bench.js', ['load', '-n', '0'], /^h2bench load: -n\/--requests must be 1…/],
      ['h2bench-load.js', ['--bogus'], /^h2bench load: Unknown option '--bogus'/],
      ['h2bench-run.js', ['--bogus'], /^h2bench-run: Unknown option '--bogus'/],
      ['h2bench-run.js', ['no-such-experiment'], /^h2bench-run: unknown experiment "no-such-experiment"/],
      ['h2bench-link.js', ['rtt=fast'], /^h2bench-link: rtt: "fast" is not a time/],
      ['h2bench-link.js', [], /^h2bench-link: a link spec or preset is required/],
      ['h2bench-server-bench.js', ['--duration', '0'], /^bench:server: --duration must be 1…600 seconds; got "0"$/],
      ['h2bench-server-bench.js', ['--bogus'], /^bench:server: Unknown option '--bogus'/],
      ['h2bench-link-bench.js', ['--paths', 'zz'], /^bench:link: --paths: unknown path "zz"/],
      ['h2bench-link-bench.js', ['--effects', 'zz'], /^bench:link: --effects: unknown effect "zz"; effects are none, /],
      ['h2bench-link-bench.js', ['--effects', 'all', '--paths', 'veth'], /^bench:link: --effects measures the C forwarder only/],
      ['h2bench-verdict-calibration.js', ['--trials', '10'], /^bench:verdict: --trials must be an integer 50…100000; got "10"$/],
      ['h2bench-studies.js', ['--bogus'], /^studies: Unknown option '--bogus'/],
      ['h2bench-verdict-calibration.js', ['--bogus'], /^bench:verdict: Unknown option '--bogus'/],
      ['h2bench-link-bench.js', ['--repeats', '0'], /^bench:link: --repeats must be an integer 1…20; got "0"$/],
      ['h2bench-soak.js', ['--minutes', '0'], /^soak: --minutes must be/],
      ['h2bench-qlog-cost.js', ['--repeats', '0'], /^bench:qlog-cost: --repeats must be a whole number from 1 to 50; got "0"$/],
      ['h2bench-qlog-cost.js', ['--bogus'], /^bench:qlog-cost: Unknown option '--bogus'/],
      ['h2bench-limits.js', ['--only', '3'], /^h2bench limits: --only takes N×size as Nxsize/],
      ['h2bench-limits.js', ['--lanes', 'h9'], /^h2bench limits: --lanes: unknown lane "h9"/],
      ['h2bench-link-screenshots.js', ['--bogus'], /^link-screenshots: unknown argument "--bogus"/],
      ['h2bench-build.js', ['nothing'], /^h2bench-build: name a program to build: forwarder, caddy, h3get, oha; got "nothing"$/]
    ]
    for (const [script, args, message] of cases) {
      const r = await run(script, args)
      assert.equal(r.code, 2, `${script} ${args.join(' ')}: ${r.stderr}`)
      assert.equal(r.lines.length, 1, r.stderr)
      assert.match(r.lines[0], message)
    }
  })

  it('a run that failed (a port in use, a tool or browser missing, no certificate folder): one line, exit 1', async () => {
    const blocker = net.createServer().listen(0, '127.0.0.1')
    await new Promise(resolve => blocker.once('listening', resolve))
    const port = blocker.address().port
    const empty = path.join(tmp, 'empty-path')
    fs.mkdirSync(empty)
    try {
      const cases = [
        ['h2bench.js', ['--port', '0', '--h1-port', String(port), '--certs-dir', path.join(tmp, 'certs')], {}, /^h2bench: port \d+ is in use \(lane h1\)/],
        ['h2bench-load.js', ['--lanes', 'h1', '--tool', 'h1=ab', '-n', '10', '-c', '2'], { PATH: empty }, /^h2bench load: ab is not installed/],
        ['h2bench-run.js', ['delay', '--smoke', '--out', path.join(tmp, 'run')], { CHROME_PATH: '/nonexistent/chrome' }, /^h2bench-run: no Chrome or Chromium found/],
        ['h2bench-server-bench.js', ['--smoke'], { PATH: empty }, /^bench:server: h2load is not installed/],
        ['h2bench-link-bench.js', ['--smoke', '--paths', 'python'], { PATH: empty }, /^bench:link: /],
        ['h2bench-limits.js', ['--smoke'], { CHROME_PATH: '/nonexistent/chrome' }, /^h2bench limits: no Chrome or Chromium found/]
      ]
      if (!unavailableReason()) {
        cases.push(['h2bench-link.js', ['none', '--', 'true'], { H2BENCH_CERTS_DIR: '/dev/null/certs' }, /^h2bench-link: .*\/dev\/null\/certs/])
      }
      for (const [script, args, env, message] of cases) {
        const r = await run(script, args, { env: { ...process.env, ...env } })
        assert.equal(r.code, 1, `${script} ${args.join(' ')}: ${r.stderr}`)
        assert.equal(r.lines.length, 1, r.stderr)
        assert.match(r.lines[0], message)
      }
    } finally {
      blocker.close()
    }
  })

  it('stopped by a signal: 128 + its number (h2bench load, h2bench-link); the server closes its lanes and exits 0', async () => {
    // Its tool waits 20 s for the server's delay: stopped 3 s in, while the tool runs.
    const load = await run('h2bench-load.js', ['--lanes', 'h1', '-n', '4', '-c', '1', '--delay', '20000', '--timeout', '60'], { afterMs: 3000, signal: 'SIGTERM' })
    assert.equal(load.code, 143, load.stderr)
    assert.match(load.stderr, /h2bench load: SIGTERM: stopped/)
    const server = await run('h2bench.js', ['--port', '0', '--h1-port', '0', '--h2-port', '0', '--h2n-port', '0', '--h3-port', '0', '--h2e-port', '0', '--certs-dir', path.join(tmp, 'certs')], { until: /SPKI/, signal: 'SIGTERM' })
    assert.equal(server.code, 0, server.stderr)
    if (unavailableReason()) return
    const link = await run('h2bench-link.js', ['none', '--', 'sleep', '60'], { until: /H2BENCH_H1_URL/, signal: 'SIGTERM' })
    assert.equal(link.code, 143, link.stderr)
  })
})

'use strict'

const assert = require('node:assert/strict')
const fs = require('node:fs')
const os = require('node:os')
const net = require('node:net')
const path = require('node:path')
const { spawn } = require('node:child_process')
const http = require('node:http')
const { h1Get } = require('../../support/clients')
const { getJson } = require('../../../harness/lane-json')

const ENTRY = path.join(__dirname, '..', '..', '..', 'bin', 'h2bench.js')

// Runs the CLI; resolves once `until` matches stdout (then the caller
// stops it) or when it exits.
const children = new Set()

function runCli (args, { until, env = {} } = {}) {
  const child = spawn(process.execPath, [ENTRY, ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] })
  children.add(child)
  child.on('exit', () => children.delete(child))
  const out = { stdout: '', stderr: '', code: null, child }
  const exited = new Promise(resolve => child.on('exit', (code, signal) => { out.code = code; out.signal = signal; resolve(out) }))
  const ready = new Promise(resolve => {
    child.stdout.on('data', d => { out.stdout += d; if (until && until.test(out.stdout)) resolve(out) })
    child.stderr.on('data', d => { out.stderr += d })
    exited.then(resolve)
  })
  return { ready, exited, child }
}

// The page server's plain-HTTP answer, as text.
const httpGet = url => new Promise((resolve, reject) => http.get(url, res => {
  let body = ''
  res.setEncoding('utf8')
  res.on('data', d => { body += d })
  res.on('end', () => resolve(body))
}).once('error', reject))

describe('npm start (bin/h2bench.js)', function () {
  this.timeout(30000)
  let certsDir
  before(() => { certsDir = fs.mkdtempSync(path.join(os.tmpdir(), 'h2bench-cli-')) })
  after(() => fs.rmSync(certsDir, { recursive: true, force: true }))
  // A failed test must not leave a server running (mocha would never exit).
  afterEach(() => { for (const child of children) child.kill('SIGKILL') })
  // Every server on a free port: a test must not depend on 3000…3005 being
  // free (h3 and h2e: Caddy's ports, TCP and, for h3, UDP).
  const ports = ['--port', '0', '--h1-port', '0', '--h2-port', '0', '--h2n-port', '0', '--h3-port', '0', '--h2e-port', '0', '--certs-dir']

  it('prints --help and exits 0', async () => {
    const out = await runCli(['--help']).exited
    assert.equal(out.code, 0)
    assert.match(out.stdout, /Usage: npm start/)
    assert.match(out.stdout, /--h2-port/)
  })

  it('starts, prints every URL, the SPKI hash and a Chrome command, serves, and closes on SIGINT', async () => {
    const run = runCli([...ports, certsDir], { until: /--ignore-certificate-errors-spki-list=\S+/ })
    const out = await run.ready
    assert.equal(out.code, null, out.stderr)
    const page = /h2bench page +(http:\/\/127\.0\.0\.1:\d+)\//.exec(out.stdout)[1]
    const h1 = /lane h1 +(https:\/\/127\.0\.0\.1:\d+)\//.exec(out.stdout)[1]
    assert.match(out.stdout, /lane h2 +https:\/\/127\.0\.0\.1:\d+\//)
    assert.match(out.stdout, /Created a certificate signed by a new local CA in \S+ \(cert\.pem, key\.pem, ca\.pem\)/)
    const spki = /SPKI sha256: (\S+)/.exec(out.stdout)[1]
    assert.ok(out.stdout.includes(`--ignore-certificate-errors-spki-list=${spki}`))
    assert.match(out.stdout, /--user-data-dir=/)
    assert.ok(out.stdout.includes(`${page}/`))
    const res = await h1Get(`${h1}/option?size=3`, { ca: fs.readFileSync(path.join(certsDir, 'cert.pem')) })
    assert.equal(res.body.length, 3)
    run.child.kill('SIGINT')
    const done = await run.exited
    assert.equal(done.code, 0)
    assert.match(done.stdout, /SIGINT: closing servers/)
  })

  it('reuses the certificate on the next start', async () => {
    const run = runCli([...ports, certsDir], { until: /SPKI/ })
    const out = await run.ready
    run.child.kill('SIGTERM')
    await run.exited
    assert.doesNotMatch(out.stdout, /Created a certificate/)
  })

  it('names a port in use and the flag to change it, in one line, exit 1', async () => {
    const blocker = net.createServer().listen(0, '127.0.0.1')
    await new Promise(resolve => blocker.once('listening', resolve))
    const port = blocker.address().port
    try {
      const out = await runCli(['--port', '0', '--h1-port', '0', '--h2-port', String(port), '--certs-dir', certsDir]).exited
      assert.equal(out.code, 1)
      const lines = out.stderr.trim().split('\n').filter(l => !/Deprecation|trace-deprecation/.test(l))
      assert.deepEqual(lines, [`h2bench: port ${port} is in use (lane h2): choose another with --h2-port or H2BENCH_H2_PORT, or 0 for any free port`])
    } finally {
      blocker.close()
    }
  })

  it('rejects a bad flag value with a clear message, exit 2', async () => {
    const out = await runCli(['--port', 'abc']).exited
    assert.equal(out.code, 2)
    assert.match(out.stderr, /h2bench: --port \(H2BENCH_PORT\) must be a port 0…65535/)
  })

  it('--chrome starts the local Chrome (CHROME_PATH) on the page, trusting the certificate in a throw-away profile', async () => {
    const fake = path.join(certsDir, 'fake-chrome.sh')
    const argsFile = path.join(certsDir, 'chrome-args.txt')
    fs.writeFileSync(fake, `#!/bin/sh\nprintf '%s\\n' "$@" > '${argsFile}'\n`, { mode: 0o755 })
    const run = runCli([...ports, certsDir, '--chrome'], { until: /Started /, env: { CHROME_PATH: fake } })
    const out = await run.ready
    run.child.kill('SIGTERM')
    await run.exited
    const spki = /SPKI sha256: (\S+)/.exec(out.stdout)[1]
    const page = /h2bench page +(\S+)/.exec(out.stdout)[1]
    for (let i = 0; i < 50 && !fs.existsSync(argsFile); i++) await new Promise(resolve => setTimeout(resolve, 50))
    const args = fs.readFileSync(argsFile, 'utf8').trim().split('\n')
    assert.ok(args.includes(`--ignore-certificate-errors-spki-list=${spki}`), args.join(' '))
    assert.ok(args.some(a => /^--user-data-dir=.*h2bench-chrome-/.test(a)), args.join(' '))
    assert.equal(args.at(-1), page)
  })

  it('--chrome: a browser that fails at once is reported with what it said, the servers closed, exit 1', async () => {
    const fake = path.join(certsDir, 'failing-chrome.sh')
    fs.writeFileSync(fake, "#!/bin/sh\necho 'Missing X server or $DISPLAY' >&2\nexit 1\n", { mode: 0o755 })
    const out = await runCli([...ports, certsDir, '--chrome'], { env: { CHROME_PATH: fake } }).exited
    assert.equal(out.code, 1)
    assert.match(out.stderr, /h2bench: --chrome: .*failing-chrome\.sh exited at once \(code 1\): Missing X server or \$DISPLAY/)
  })

  it('names a host that is not on this machine and the flag to change it, exit 1', async () => {
    const out = await runCli(['--host', '192.0.2.1', ...ports, certsDir]).exited
    assert.equal(out.code, 1)
    const lines = out.stderr.trim().split('\n').filter(l => !/WARNING|Deprecation|trace-deprecation/.test(l))
    assert.equal(lines.length, 1, out.stderr)
    assert.match(lines[0], /^h2bench: cannot listen on host 192\.0\.2\.1 \(lane h1\): no such address on this machine \(EADDRNOTAVAIL\); choose one with --host/)
  })

  it('says how to get a browser when CHROME_PATH points nowhere', async () => {
    const out = await runCli([...ports, certsDir, '--chrome'], { env: { CHROME_PATH: '/nonexistent/chrome' } }).exited
    assert.equal(out.code, 1)
    assert.match(out.stderr, /--chrome: no Chrome or Chromium found: install one .*CHROME_PATH=\/nonexistent\/chrome does not exist/)
  })

  // The lanes of "another machine" (here: --lanes-only on loopback; over a routed veth pair with a token:
  // test/bin/slow/remote-lanes.test.js), the page here with --lanes-at: their URLs in it, their certificate trusted.
  it('--lanes-at: the page only, with the lanes of --lanes-only in it; the banner, and --chrome trusting their SPKI hash', async () => {
    const lanesDir = fs.mkdtempSync(path.join(certsDir, 'lanes-'))
    const lanes = runCli([...ports, lanesDir, '--lanes-only'], { until: /^From the client: /m })
    const banner = (await lanes.ready).stdout
    const at = /^manifest\s+(https:\/\/[^/]+)\/lanes\.json/m.exec(banner)[1]
    const laneSpki = /^certificate SPKI sha256: (\S+);/m.exec(banner)[1]
    const fake = path.join(certsDir, 'fake-chrome-remote.sh')
    const argsFile = path.join(certsDir, 'chrome-remote-args.txt')
    fs.writeFileSync(fake, `#!/bin/sh\nprintf '%s\\n' "$@" > '${argsFile}'\n`, { mode: 0o755 })
    const page = runCli(['--port', '0', '--lanes-at', at, '--chrome'], { until: /^Started /m, env: { CHROME_PATH: fake } })
    const out = await page.ready
    try {
      assert.equal(out.code, null, out.stderr)
      console.log(out.stdout.trim().split('\n').map(l => `      | ${l}`).join('\n'))
      const pageUrl = /^h2bench page +(\S+)/m.exec(out.stdout)[1]
      assert.match(out.stdout, new RegExp(`^lanes at ${at.replace(/\./g, '\\.')}: round trip [\\d.]+ ms \\(median of 5 TCP connects\\)`, 'm'))
      assert.match(out.stdout, /^What the page cannot do with lanes elsewhere:\n {2}no link control: /m)
      assert.match(out.stdout, new RegExp(`^certificate SPKI sha256: ${laneSpki.replace(/[+/]/g, '\\$&')} \\(the lanes', from their manifest\\)$`, 'm'))
      assert.doesNotMatch(out.stdout, /Created a certificate/, 'no certificate of its own')
      // The page lists the lanes of the manifest, at their URLs there.
      const manifest = (await getJson(at, '/lanes.json')).json
      const html = await httpGet(pageUrl)
      const listed = JSON.parse(await httpGet(`${new URL(pageUrl).origin}/lanes.json`))
      assert.deepEqual(listed.lanes.map(l => [l.name, l.url]), manifest.lanes.map(l => [l.name, l.url]))
      for (const lane of manifest.lanes) {
        assert.ok(html.includes(lane.url), `${lane.name}: ${lane.url} in the page`)
        assert.match(out.stdout, new RegExp(`^lane ${lane.name} +${lane.url.replace(/\./g, '\\.')}/`, 'm'))
      }
      for (let i = 0; i < 50 && !fs.existsSync(argsFile); i++) await new Promise(resolve => setTimeout(resolve, 50))
      const args = fs.readFileSync(argsFile, 'utf8').trim().split('\n')
      assert.ok(args.includes(`--ignore-certificate-errors-spki-list=${manifest.spki}`), args.join(' '))
      assert.equal(manifest.spki, laneSpki)
      const h3 = manifest.lanes.find(l => l.name === 'h3')
      if (h3) assert.ok(args.includes(`--origin-to-force-quic-on=${new URL(h3.url).host}`), args.join(' '))
      assert.equal(args.at(-1), pageUrl)
    } finally {
      page.child.kill('SIGTERM')
      lanes.child.kill('SIGTERM')
    }
    assert.equal((await page.exited).code, 0, 'stopped by SIGTERM after closing its page server')
    await lanes.exited
  })

  it('--lanes-at: not a URL, nothing listening, beside --lanes-only: one line, exit 2', async () => {
    for (const [args, re] of [
      [['--lanes-at', 'lanes'], /^h2bench: --lanes-at "lanes" is not a URL; give a lane's https:\/\/ URL on the other machine/],
      [['--lanes-at', 'https://127.0.0.1:1'], /^h2bench: --lanes-at https:\/\/127\.0\.0\.1:1: no lane manifest there \(connect ECONNREFUSED 127\.0\.0\.1:1\); start the lanes with npm start -- --lanes-only/],
      [['--lanes-at', 'http://127.0.0.1:1'], /^h2bench: --lanes-at http:\/\/127\.0\.0\.1:1: lanes speak https:\/\/ only$/],
      [['--lanes-at', 'https://127.0.0.1:1', '--lanes-only'], /^h2bench: --lanes-at and --lanes-only: .*give one of them$/],
      [['--lanes-at', 'https://127.0.0.1:1', '--link', 'rtt=10ms'], /^h2bench: --lanes-at and --link: .*leave out --link$/]
    ]) {
      const out = await runCli(['--port', '0', ...args]).exited
      assert.equal(out.code, 2, `${args.join(' ')}: ${out.stderr}`)
      assert.equal(out.stdout, '')
      const lines = out.stderr.trim().split('\n')
      assert.equal(lines.length, 1, out.stderr)
      assert.match(lines[0], re)
    }
  })

  it('warns when listening beyond loopback', async () => {
    const run = runCli(['--host', '0.0.0.0', ...ports, certsDir], { until: /SPKI/ })
    const out = await run.ready
    run.child.kill('SIGTERM')
    await run.exited
    assert.match(out.stderr, /WARNING: listening on 0\.0\.0\.0, beyond loopback/)
  })
})

'use strict'

const assert = require('node:assert/strict')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { spawn, spawnSync, execFileSync } = require('node:child_process')
const { unavailableReason, PRIVATE_ENV, USERNS_ENV } = require('../../../link/namespace')
const { ensureH3get } = require('../../../tools/h3get/build')

const CLI = path.join(__dirname, '..', '..', '..', 'bin', 'h2bench-link.js')

// A client run by h2bench-link: HTTPS GETs to every lane URL in its
// environment, printing one JSON line with what it measured.
const CLIENT = `
const https = require('node:https')
const http2 = require('node:http2')
const { performance } = require('node:perf_hooks')
const get1 = url => new Promise((resolve, reject) => {
  const t0 = performance.now()
  https.get(url, { rejectUnauthorized: false }, res => { let n = 0; res.on('data', d => { n += d.length }); res.on('end', () => resolve({ status: res.statusCode, bytes: n, ms: performance.now() - t0 })) }).on('error', reject)
})
const get2 = url => new Promise((resolve, reject) => {
  const s = http2.connect(url, { rejectUnauthorized: false })
  s.on('error', reject)
  const t0 = performance.now()
  const u = new URL(url)
  const req = s.request({ ':path': u.pathname + u.search })
  let n = 0; let status
  req.on('response', h => { status = h[':status'] })
  req.on('data', d => { n += d.length })
  req.on('end', () => { s.close(); resolve({ status, bytes: n, ms: performance.now() - t0 }) })
})
;(async () => {
  const out = { env: Object.keys(process.env).filter(k => k.startsWith('H2BENCH_')).sort() }
  out.h1 = await get1(process.env.H2BENCH_H1_URL + 'option?size=20000')
  out.h2 = await get2(process.env.H2BENCH_H2_URL + 'option?size=20000')
  out.h2n = await get2(process.env.H2BENCH_H2N_URL + 'option?size=20000')
  out.h2e = await get2(process.env.H2BENCH_H2E_URL + 'option?size=20000')
  if (process.env.H3GET) { // HTTP/3 over QUIC: UDP through the same link
    const t0 = performance.now()
    const r = JSON.parse(require('node:child_process').execFileSync(process.env.H3GET, ['--insecure', process.env.H2BENCH_H3_URL + 'option?size=20000']))
    out.h3 = { status: r.status, bytes: r.bodyLength, ms: performance.now() - t0, proto: r.proto }
  }
  console.log(JSON.stringify(out))
})().catch(e => { console.error(e.message); process.exit(3) })
`

function run (args, { env = {}, signalAfter = null } = {}) {
  return new Promise(resolve => {
    const child = spawn(process.execPath, [CLI, ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'], detached: Boolean(signalAfter) })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', d => { stdout += d })
    child.stderr.on('data', d => { stderr += d })
    if (signalAfter) {
      const check = setInterval(() => {
        if (signalAfter.when.test(stdout + stderr)) {
          clearInterval(check)
          process.kill(-child.pid, signalAfter.signal) // the whole group, as a terminal's Ctrl-C does
        }
      }, 50)
      child.once('exit', () => clearInterval(check))
    }
    child.once('exit', (code, signal) => resolve({ code, signal, stdout, stderr, pid: child.pid }))
  })
}

const linkDevices = () => execFileSync('ip', ['-br', 'link'], { encoding: 'utf8' }).split('\n').filter(l => /^h2b[cs]\d/.test(l))

describe('h2bench-link (the command)', function () {
  this.timeout(60000)
  let certsDir
  before(function () {
    const why = unavailableReason()
    if (why) {
      process.stdout.write(`      (skipped: ${why})\n`)
      this.skip()
    }
    certsDir = fs.mkdtempSync(path.join(os.tmpdir(), 'h2bench-link-cli-'))
  })
  after(() => { if (certsDir) fs.rmSync(certsDir, { recursive: true, force: true }) })
  const env = () => ({ H2BENCH_CERTS_DIR: certsDir })

  it('--help and --list say what it does and which presets there are, with their numbers', async () => {
    const help = await run(['--help'])
    assert.equal(help.code, 0)
    assert.match(help.stdout, /Usage: h2bench-link/)
    assert.match(help.stdout, /H2BENCH_H1_URL/)
    const list = await run(['--list'])
    assert.equal(list.code, 0)
    assert.match(list.stdout, /Regular 3G\s+regular-3g\s+768 kbit\/s down, 256 kbit\/s up, 100 ms RTT/)
    assert.match(list.stdout, /quic-loss-corrupt\s+unlimited rate, loss 30 % down, corrupt 20 % down/)
  })

  it('refuses a bad spec before starting anything: exit 2, the key and what is allowed', async () => {
    const r = await run(['rtt=40ms,loss=130%', '--', 'true'], { env: env() })
    assert.equal(r.code, 2)
    assert.match(r.stderr, /^h2bench-link: loss: 130% is above 100%; allowed: 0…100 %/m)
    const two = await run(['Regular', '3G'], { env: env() })
    assert.equal(two.code, 2)
    assert.match(two.stderr, /quote a preset with spaces/)
  })

  it('runs the command behind the link with every lane URL, passes its exit code, and prints the counters (--json)', async () => {
    const r = await run(['--json', 'rtt=40ms,down=20mbit', '--', process.execPath, '-e', `${CLIENT}; process.on('exit', () => { process.exitCode = 7 })`],
      { env: { ...env(), H3GET: await ensureH3get() } })
    assert.equal(r.code, 7, r.stderr)
    const [clientLine, summaryLine] = r.stdout.trim().split('\n')
    const client = JSON.parse(clientLine)
    assert.deepEqual(client.env.filter(k => k !== 'H2BENCH_CERTS_DIR'), // ours, passed through
      ['H2BENCH_H1_URL', 'H2BENCH_H2E_URL', 'H2BENCH_H2N_URL', 'H2BENCH_H2_URL', 'H2BENCH_H3_URL', 'H2BENCH_LINK', 'H2BENCH_LINK_DESCRIPTION', 'H2BENCH_PAGE_URL', 'H2BENCH_SPKI'])
    for (const lane of ['h1', 'h2', 'h2n', 'h2e']) {
      assert.equal(client[lane].status, 200)
      assert.equal(client[lane].bytes, 20000)
      // connect + TLS + the request: three round trips of 40 ms at least.
      assert.ok(client[lane].ms >= 120, `${lane}: ${client[lane].ms} ms`)
    }
    // h3get's QUIC handshake and the request: two round trips at least.
    assert.equal(client.h3.status, 200)
    assert.equal(client.h3.bytes, 20000)
    assert.equal(client.h3.proto, 'HTTP/3.0')
    assert.ok(client.h3.ms >= 80, `h3: ${client.h3.ms} ms`)
    const summary = JSON.parse(summaryLine)
    assert.equal(summary.exitCode, 7)
    assert.equal(summary.link.text, 'rtt=40ms,down=20mbit')
    assert.ok(summary.counters.down.out_bytes > 3 * 20000, JSON.stringify(summary.counters.down))
    assert.equal(summary.counters.down.lost, 0)
    assert.deepEqual(linkDevices(), [])
  })

  it('prints a table of counters per direction without --json', async () => {
    const r = await run(['quic-loss', '--seed', '3', '--', process.execPath, '-e', CLIENT], { env: env() })
    assert.equal(r.code, 0, r.stderr)
    assert.match(r.stdout, /^h2bench-link: QUIC article: loss 30 %: unlimited rate, loss 30 % down/m)
    assert.match(r.stdout, /^link counters\s+up \(client → lanes\)\s+down \(lanes → client\)$/m)
    const lost = /^dropped: loss\s+(\d+)\s+(\d+)$/m.exec(r.stdout)
    assert.ok(lost, r.stdout)
    assert.equal(Number(lost[1]), 0) // loss on the down direction only
    assert.ok(Number(lost[2]) > 0)
  })

  it('two at once get links of their own', async () => {
    const [a, b] = await Promise.all([
      run(['--json', 'rtt=20ms', '--', process.execPath, '-e', CLIENT], { env: env() }),
      run(['--json', 'rtt=20ms', '--', process.execPath, '-e', CLIENT], { env: env() })
    ])
    assert.equal(a.code, 0, a.stderr)
    assert.equal(b.code, 0, b.stderr)
    const host = r => new URL(JSON.parse(r.stdout.trim().split('\n')[1]).link && /H2BENCH_H1_URL=(\S+)/.exec(r.stderr)[1]).hostname
    assert.notEqual(host(a), host(b))
    assert.match(host(a), /^198\.1[89]\./)
  })

  it('without root: reruns itself in a user namespace, where it is root, and works the same', async function () {
    if (process.getuid() !== 0) this.skip() // we are the unprivileged user already: the other tests cover it
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'h2bench-link-nobody-'))
    fs.chmodSync(dir, 0o777)
    try {
      const r = await new Promise(resolve => {
        // A user starting it afresh: without the marks of the namespace npm test runs in.
        const env = { ...process.env, HOME: dir, H2BENCH_CERTS_DIR: dir }
        delete env[PRIVATE_ENV]
        delete env[USERNS_ENV]
        const child = spawn('setpriv', ['--reuid=65534', '--regid=65534', '--clear-groups', '--', process.execPath, CLI, '--json', 'rtt=20ms', '--',
          process.execPath, '-e', CLIENT], { env, stdio: ['ignore', 'pipe', 'pipe'] })
        let stdout = ''
        let stderr = ''
        child.stdout.on('data', d => { stdout += d })
        child.stderr.on('data', d => { stderr += d })
        child.once('exit', code => resolve({ code, stdout, stderr }))
      })
      if (/user namespace|Operation not permitted|unshare failed/i.test(r.stderr) && r.code !== 0) {
        process.stdout.write(`      (this machine forbids unprivileged user namespaces: ${r.stderr.trim().split('\n').pop()})\n`)
        this.skip()
      }
      assert.equal(r.code, 0, r.stderr)
      const client = JSON.parse(r.stdout.trim().split('\n')[0])
      assert.equal(client.h2n.status, 200)
      assert.ok(client.h2n.ms >= 40, `${client.h2n.ms} ms`) // connect, TLS and the request: ≥ 2 RTTs of 20 ms
    } finally {
      fs.rmSync(dir, { recursive: true, force: true })
    }
  })

  it('npm start -- --link: the page server and lanes behind the link, reachable from its namespace only; a bad spec refused', async () => {
    const ENTRY = path.join(__dirname, '..', '..', '..', 'bin', 'h2bench.js')
    const bad = spawnSync(process.execPath, [ENTRY, '--link', 'rtt=20ms,dup=-1%', '--certs-dir', certsDir], { encoding: 'utf8' })
    assert.equal(bad.status, 2)
    assert.match(bad.stderr, /^h2bench: dup: /m)
    const child = spawn(process.execPath, [ENTRY, '--link', 'rtt=30ms', '--certs-dir', certsDir], { stdio: ['ignore', 'pipe', 'pipe'] })
    let out = ''
    await new Promise((resolve, reject) => {
      child.stdout.on('data', d => { out += d; if (/certificate SPKI/.test(out) && /nsenter --net=\S+ -- /.test(out)) resolve() })
      child.once('exit', code => reject(new Error(`exited ${code}: ${out}`)))
    })
    try {
      assert.match(out, /^Packet-level link: .*30 ms RTT/m)
      const page = /h2bench page\s+(http:\/\/198\.1[89]\.[\d.]+:\d+)\//.exec(out)[1]
      const nsenter = /(nsenter --net=\S+ --) /.exec(out)[1].split(' ')
      const inside = spawnSync(nsenter[0], [...nsenter.slice(1), process.execPath, '-e',
        `const t0 = Date.now(); require('node:http').get('${page}/link.json', res => { let b = ''; res.on('data', d => { b += d }); res.on('end', () => console.log(JSON.stringify({ ms: Date.now() - t0, body: JSON.parse(b) }))) })`], { encoding: 'utf8' })
      const { ms, body } = JSON.parse(inside.stdout)
      assert.equal(body.active, true)
      assert.equal(body.link.text, 'rtt=30ms')
      assert.ok(ms >= 60, `${ms} ms: connect + request are two round trips of 30 ms`)
    } finally {
      child.kill('SIGTERM')
      await new Promise(resolve => child.once('exit', resolve))
    }
    assert.deepEqual(linkDevices(), [])
  })

  it('Ctrl-C: the command ends and everything the link made is gone', async () => {
    // Ctrl-C once the command runs (it says so): signalled when the lanes' URLs were printed, it could come before the
    // command was spawned, which h2bench-link ignores (a clean-clone CI's sleep then ran its 30 s and exited 0).
    const r = await run(['rtt=10ms', '--', 'sh', '-c', 'echo command-running; exec sleep 30'], { env: env(), signalAfter: { when: /^command-running$/m, signal: 'SIGINT' } })
    assert.equal(r.code, 130, `the command's SIGINT as its exit code (128 + 2); got ${r.code}${r.signal ? ` (${r.signal})` : ''}: ${r.stderr}`)
    assert.match(r.stdout, /link counters/)
    assert.deepEqual(linkDevices(), [])
  })
})

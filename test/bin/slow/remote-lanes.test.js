'use strict'

// Lanes on another host (issue 23): `npm start -- --lanes-only --host <address>`
// in a network namespace of the test's own, reached from here over a routed
// veth pair (the only address ever targeted is that namespace's), and
// `h2bench load --lanes-at` measuring them: the manifest, the token on the
// internals, the banner, the measured round trip.
const assert = require('node:assert/strict')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const http = require('node:http')
const { spawn } = require('node:child_process')
const { openVeth } = require('../../../bench/link-bench/paths')
const { unavailableReason } = require('../../../link/namespace')
const { getJson } = require('../../../load/run-tool')
const { runNode } = require('../../support/run-node')
const { LANES } = require('../../../server/lanes')

const BIN = path.join(__dirname, '..', '..', '..', 'bin')

describe('lanes on a remote host: npm start -- --lanes-only, h2bench load --lanes-at', function () {
  this.timeout(180000)
  let veth = null
  let lanes = null
  let banner = ''
  let certs = null

  before(async function () {
    const why = unavailableReason()
    if (why) {
      console.log(`      skipped: ${why}`)
      return this.skip()
    }
    veth = await openVeth()
    certs = fs.mkdtempSync(path.join(os.tmpdir(), 'h2bench-remote-certs-'))
    const env = { ...process.env, H2BENCH_CERTS_DIR: certs, H2BENCH_PORT: '0', ...Object.fromEntries(LANES.map(l => [`H2BENCH_${l.name.toUpperCase()}_PORT`, '0'])) }
    delete env.H2BENCH_PRIVATE_NETNS
    lanes = veth.spawnInside(process.execPath, [path.join(BIN, 'h2bench.js'), '--lanes-only', '--host', veth.clientAddress], { env, stdio: ['ignore', 'pipe', 'pipe'] })
    lanes.stderr.on('data', d => { banner += d })
    await new Promise((resolve, reject) => {
      lanes.stdout.on('data', d => { banner += d; if (/^From the client: /m.test(banner)) resolve() })
      lanes.once('exit', code => reject(new Error(`the lanes exited (code ${code}): ${banner}`)))
      setTimeout(() => reject(new Error(`no banner within 60 s: ${banner}`)), 60000)
    })
  })
  after(async () => {
    if (lanes && lanes.exitCode === null) lanes.kill('SIGTERM')
    if (veth) await veth.close()
    if (certs) fs.rmSync(certs, { recursive: true, force: true })
  })

  const token = () => /^token\s+([0-9a-f]{32})$/m.exec(banner)[1]
  const first = () => /^manifest\s+https:\/\/([^/]+)\/lanes\.json/m.exec(banner)[1]

  it('the banner says what is exposed, the limits, the token and the command for the client', () => {
    console.log(banner.split('\n').map(l => `      | ${l}`).join('\n'))
    assert.match(banner, /WARNING: listening on .*beyond loopback: .*responses of up to 64 MiB each, after up to 60 s \(their limits\); nothing is proxied/)
    assert.match(banner, new RegExp(`^h2bench lanes only, listening on ${veth.clientAddress.replace(/\./g, '\\.')}`, 'm'))
    for (const l of ['h1', 'h2', 'h2n']) assert.match(banner, new RegExp(`^lane ${l}\\s+https://`, 'm'))
    assert.match(banner, /^token\s+[0-9a-f]{32}$/m)
    assert.match(banner, /^From the client: h2bench load --lanes-at https:\/\/\S+ --token [0-9a-f]{32}/m)
    assert.doesNotMatch(banner, /h2bench page/, 'a page server started')
  })

  it('every lane serves the manifest; the measured routes are open, the internals need the token', async () => {
    const base = `https://${first()}`
    const m = (await getJson(base, '/lanes.json')).json
    assert.equal(m.tokenRequired, true)
    assert.ok(m.lanes.length >= 3)
    for (const l of m.lanes) assert.match(l.url, new RegExp(`^https://${veth.clientAddress.replace(/\./g, '\\.')}:\\d+$`))
    assert.equal(m.limits.maxSizeBytes, 64 * 1024 * 1024)
    const h1 = m.lanes.find(l => l.name === 'h1').url
    assert.equal((await getJson(h1, '/lane')).status, 200)
    const refused = await getJson(h1, '/ledger/x')
    assert.equal(refused.status, 401)
    assert.match(refused.json.error, /a token is needed: .*X-H2bench-Token/)
    assert.equal((await getJson(h1, '/ledger/x', { token: 'f'.repeat(32) })).status, 401)
    assert.notEqual((await getJson(h1, '/ledger/x', { token: token() })).status, 401)
  })

  it('h2bench load --lanes-at measures them, with the ledger through the token and the round trip reported', async () => {
    const r = await runNode(path.join(BIN, 'h2bench-load.js'), ['--lanes-at', `https://${first()}`, '--token', token(), '--lanes', 'h1,h2n', '-n', '40', '-c', '2', '--json'])
    assert.equal(r.code, 0, r.stderr)
    const report = JSON.parse(r.stdout)
    console.log(`      · lanes at ${report.lanesAt.at}: round trip ${report.lanesAt.rttMs} ms; ${report.rows.map(x => `${x.lane} ${x.totalMs.toFixed(0)} ms, ${x.connections} connections (server)`).join(', ')}`)
    assert.ok(report.lanesAt.rttMs > 0 && report.lanesAt.rttMs < 50)
    assert.deepEqual(report.rows.map(x => x.lane), ['h1', 'h2n'])
    for (const row of report.rows) {
      assert.equal(row.error, null, row.error)
      assert.equal(row.succeeded, 40)
      assert.equal(row.connections, row.lane === 'h1' ? 2 : 2, 'the server\'s ledger, read with the token')
    }
    const without = await runNode(path.join(BIN, 'h2bench-load.js'), ['--lanes-at', `https://${first()}`, '--lanes', 'h1', '-n', '4', '-c', '1'])
    assert.equal(without.code, 2)
    assert.match(without.stderr, /their ledgers need the token they printed at start: add --token <token>/)
  })

  it('npm start -- --lanes-at: the page here lists them, its URL carries their token; no token is refused', async () => {
    const env = { ...process.env, H2BENCH_PORT: '0' }
    const page = spawn(process.execPath, [path.join(BIN, 'h2bench.js'), '--lanes-at', `https://${first()}`, '--token', token()], { env, stdio: ['ignore', 'pipe', 'pipe'] })
    let out = ''
    page.stderr.on('data', d => { out += d })
    try {
      await new Promise((resolve, reject) => {
        page.stdout.on('data', d => { out += d; if (/^token /m.test(out)) resolve() })
        page.once('exit', code => reject(new Error(`the page exited (code ${code}): ${out}`)))
        setTimeout(() => reject(new Error(`no banner within 30 s: ${out}`)), 30000)
      })
      console.log(out.trim().split('\n').map(l => `      | ${l}`).join('\n'))
      const pageUrl = /^h2bench page +(\S+)/m.exec(out)[1]
      assert.equal(new URL(pageUrl).searchParams.get('token'), token(), 'the page passes it on to the lanes\' internals')
      const rtt = Number(/^lanes at https:\/\/\S+: round trip ([\d.]+) ms/m.exec(out)[1])
      assert.ok(rtt > 0 && rtt < 50, String(rtt))
      const listed = JSON.parse(await new Promise((resolve, reject) => http.get(`${new URL(pageUrl).origin}/lanes.json`, res => {
        let body = ''
        res.on('data', d => { body += d })
        res.on('end', () => resolve(body))
      }).once('error', reject)))
      assert.ok(listed.lanes.length >= 3)
      for (const l of listed.lanes) assert.match(l.url, new RegExp(`^https://${veth.clientAddress.replace(/\./g, '\\.')}:\\d+$`))
      assert.match(out, new RegExp(`--ignore-certificate-errors-spki-list=${listed.spki.replace(/[+/]/g, '\\$&')} `))
    } finally {
      page.kill('SIGTERM')
    }
    const without = await runNode(path.join(BIN, 'h2bench.js'), ['--port', '0', '--lanes-at', `https://${first()}`])
    assert.equal(without.code, 2)
    assert.match(without.stderr, /^h2bench: --lanes-at .*their ledgers need the token they printed at start: add --token <token>$/m)
  })

  it('the runner measures them too (--lanes-at, the page here, Chromium): rows and the round trip; a link is refused', async () => {
    const out = fs.mkdtempSync(path.join(os.tmpdir(), 'h2bench-remote-run-'))
    try {
      const r = await runNode(path.join(BIN, 'h2bench-run.js'), ['delay', '--smoke', '--lanes', 'h1,h2n', '--lanes-at', `https://${first()}`, '--token', token(), '--out', out])
      assert.equal(r.code, 0, r.stderr)
      const json = JSON.parse(fs.readFileSync(path.join(out, 'results.json'), 'utf8'))
      console.log(`      · lanes at ${json.environment.lanesAt.at}, round trip ${json.environment.lanesAt.rttMs} ms; ${json.results.length} rows`)
      assert.ok(json.environment.lanesAt.rttMs > 0)
      assert.deepEqual([...new Set(json.results.map(x => x.lane))], ['h1', 'h2n'])
      for (const row of json.results) assert.ok(row.samples.length > 0 && row.failures === 0, `${row.experiment} ${row.lane}: ${row.note}`)
      const refused = await runNode(path.join(BIN, 'h2bench-run.js'), ['delay', '--smoke', '--lanes-at', `https://${first()}`, '--network', 'link'])
      assert.equal(refused.code, 2)
      assert.match(refused.stderr, /--lanes-at and --network link: the packet-level link sits between/)
    } finally {
      fs.rmSync(out, { recursive: true, force: true })
    }
  })
})

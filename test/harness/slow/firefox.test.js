'use strict'

const assert = require('node:assert/strict')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const crypto = require('node:crypto')
const { execFileSync } = require('node:child_process')
const { useServers } = require('../../support/servers')
const { launchFirefox, findFirefox, firefoxUnavailableReason, h3Plan, FIREFOX_INSTALL_HINT } = require('../../../harness/firefox')
const { startLanesBehindLink } = require('../../../harness/start-lanes')
const { unavailableReason } = require('../../../link/namespace')

// Firefox (firefox-esr) driven over WebDriver BiDi by puppeteer-core, through
// harness/firefox/relay.js: it trusts the lanes by the local CA in its
// throw-away profile, nothing overridden, and caches and speaks HTTP/3 as it
// would for any site.

function skipUnless (ctx, why) {
  if (!why) return
  process.stdout.write(`      (skipped: ${why})\n`)
  ctx.skip()
}

// The CA as a file, as server/certs.js keeps it in certs/ca.pem.
function caFileOf (tls) {
  const file = path.join(os.tmpdir(), `h2bench-test-ca-${process.pid}-${crypto.randomBytes(4).toString('hex')}.pem`)
  fs.writeFileSync(file, tls.ca)
  return file
}

const navigation = page => page.evaluate(() => {
  const n = performance.getEntriesByType('navigation')[0]
  return { protocol: n.nextHopProtocol, startTime: n.startTime, connectStart: n.connectStart, responseStart: n.responseStart }
})

// The processes (not yet reaped or not) still in Firefox's process group; it
// leads that group, its content processes are in it.
function groupProcesses (pgid) {
  let out = ''
  try {
    out = execFileSync('ps', ['-o', 'pid=,stat=,comm=', '-g', String(pgid)], { encoding: 'utf8' })
  } catch { /* ps exits 1 when there is none */ }
  return out.split('\n').map(l => l.trim()).filter(Boolean).map(l => { const [pid, stat, ...comm] = l.split(/\s+/); return { pid, stat, comm: comm.join(' ') } })
}

// No process of that group left but zombies, which go as soon as init reaps
// them; waits up to 10 s for the others to end.
async function assertGone (pgid) {
  let alive = []
  for (let i = 0; i < 100; i++) {
    alive = groupProcesses(pgid).filter(p => !p.stat.startsWith('Z'))
    if (!alive.length) return
    await new Promise(resolve => setTimeout(resolve, 100))
  }
  assert.deepEqual(alive, [], `Firefox's processes left after close (group ${pgid})`)
}

describe('Firefox over WebDriver BiDi (harness/firefox.js)', function () {
  this.timeout(180000)

  describe('on every lane, trusting the local CA', function () {
    before(function () { skipUnless(this, firefoxUnavailableReason()) })
    const servers = useServers()
    let firefox = null
    let caFile = null
    const cleanup = []
    before(async () => {
      caFile = caFileOf(servers.tls)
      firefox = await launchFirefox({ caFile, lanes: servers.running.lanes })
      process.stdout.write(`      · ${firefox.version} (${firefox.executablePath}) up in ${firefox.launchMs} ms; h3 learnt: ${JSON.stringify(firefox.h3)}\n`)
    })
    after(async () => {
      if (firefox) await firefox.close()
      for (const f of cleanup) await f()
      if (caFile) fs.rmSync(caFile, { force: true })
    })

    it('is the local Firefox, in a throw-away profile that trusts the local CA', async () => {
      assert.equal(firefox.name, 'firefox')
      assert.match(firefox.version, /^Firefox \d+\.\d+/)
      assert.equal(firefox.executablePath, findFirefox())
      assert.match(firefox.userAgent, /Firefox\/\d+/)
      assert.ok(fs.existsSync(path.join(firefox.profile, 'cert9.db')))
      const listed = execFileSync('certutil', ['-L', '-d', `sql:${firefox.profile}`], { encoding: 'utf8' })
      assert.match(listed, /h2bench local CA\s+C,,/)
      assert.equal(fs.existsSync(path.join(firefox.profile, 'cert_override.txt')), false, 'nothing overridden')
    })

    it('loads every lane with no certificate override, each over its own protocol (http/1.1, h2, h2, h3, h2)', async () => {
      const expected = { h1: 'http/1.1', h2: 'h2', h2n: 'h2', h3: 'h3', h2e: 'h2' }
      const seen = {}
      for (const lane of servers.running.lanes) {
        const res = await firefox.page.goto(`${lane.url}/`)
        assert.equal(res.status(), 200, lane.name)
        seen[lane.name] = (await navigation(firefox.page)).protocol
      }
      const want = Object.fromEntries(servers.running.lanes.map(l => [l.name, expected[l.name]]))
      assert.deepEqual(seen, want)
      if (!servers.lane('h3')) process.stdout.write(`      (no h3 lane here: ${servers.running.unavailable.map(u => u.reason).join('; ')})\n`)
    })

    it('caches a fresh-cacheable item on every lane: the second fetch transfers nothing', async () => {
      for (const lane of servers.running.lanes) {
        await firefox.page.goto(`${lane.url}/`)
        const tag = `ff${Date.now()}${lane.name}`
        const entries = await firefox.page.evaluate(async tag => {
          const url = `/api/items/1?cache=fresh&tag=${tag}`
          for (let i = 0; i < 2; i++) await (await fetch(url)).text()
          return performance.getEntriesByType('resource').filter(e => e.name.endsWith(url))
            .map(e => ({ transferSize: e.transferSize, decodedBodySize: e.decodedBodySize, protocol: e.nextHopProtocol }))
        }, tag)
        assert.equal(entries.length, 2, lane.name)
        assert.ok(entries[0].transferSize > entries[0].decodedBodySize, `${lane.name}: the first one from the network (${JSON.stringify(entries[0])})`)
        assert.equal(entries[1].transferSize, 0, `${lane.name}: the second one from the cache (${JSON.stringify(entries[1])})`)
        assert.ok(entries[1].decodedBodySize > 0, lane.name)
      }
    })

    it('close() ends every Firefox process and removes the profile', async () => {
      const { pid, profile } = firefox
      assert.ok(groupProcesses(pid).length > 0)
      const closing = firefox
      firefox = null
      await closing.close()
      await closing.close() // twice is harmless
      await assertGone(pid)
      assert.equal(fs.existsSync(profile), false)
    })

    it('without the CA in the profile, every lane fails as untrusted (the trust is real)', async () => {
      const untrusting = await launchFirefox({ trustCa: false, lanes: servers.running.lanes })
      cleanup.push(() => untrusting.close())
      assert.match(untrusting.h3.h3 || 'failed: SEC_ERROR_UNKNOWN_ISSUER', /^failed: .*SEC_ERROR_UNKNOWN_ISSUER/)
      for (const lane of servers.running.lanes) {
        await untrusting.page.goto('about:blank') // (from one error page straight to another, BiDi sees no navigation end)
        await assert.rejects(untrusting.page.goto(`${lane.url}/`), /SEC_ERROR_UNKNOWN_ISSUER/, lane.name)
      }
    })
  })

  describe('errors', function () {
    let saved
    beforeEach(() => { saved = { ...process.env } })
    afterEach(() => {
      for (const k of Object.keys(process.env)) if (!(k in saved)) delete process.env[k]
      Object.assign(process.env, saved)
    })

    it('names the install command when there is no Firefox', async () => {
      process.env.FIREFOX_PATH = '/nonexistent/firefox'
      assert.equal(findFirefox(), null)
      await assert.rejects(launchFirefox({ caFile: '/dev/null' }), err => err.message.includes('FIREFOX_PATH=/nonexistent/firefox'))
      delete process.env.FIREFOX_PATH
      process.env.PATH = '/nonexistent'
      assert.equal(findFirefox(), null)
      await assert.rejects(launchFirefox({ caFile: '/dev/null' }), err => err.message.includes(FIREFOX_INSTALL_HINT))
    })

    it('names libnss3-tools when there is no certutil', async function () {
      const firefoxPath = findFirefox()
      skipUnless(this, firefoxPath ? null : firefoxUnavailableReason())
      process.env.FIREFOX_PATH = firefoxPath
      process.env.PATH = '/nonexistent'
      await assert.rejects(launchFirefox({ caFile: '/dev/null' }), /certutil.*libnss3-tools/)
    })

    it('gives up on a Firefox that does not start, with the end of what it printed, and leaves nothing behind', async () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'h2bench-fake-firefox-'))
      const fake = path.join(dir, 'firefox')
      fs.writeFileSync(fake, '#!/bin/sh\necho "fake firefox: no display, waiting forever" >&2\nexec sleep 600\n', { mode: 0o755 })
      process.env.FIREFOX_PATH = fake
      const before = new Set(fs.readdirSync(os.tmpdir()).filter(f => f.startsWith('h2bench-firefox-')))
      try {
        await assert.rejects(launchFirefox({ trustCa: false, timeoutMs: 1500 }),
          err => /did not start its WebDriver BiDi server within 1\.5 s/.test(err.message) && err.message.includes('fake firefox: no display, waiting forever'))
        const left = fs.readdirSync(os.tmpdir()).filter(f => f.startsWith('h2bench-firefox-') && !before.has(f))
        assert.deepEqual(left, [])
        const sleeping = execFileSync('ps', ['-eo', 'args='], { encoding: 'utf8' }).split('\n').filter(l => l.includes(fake))
        assert.deepEqual(sleeping, [])
      } finally {
        fs.rmSync(dir, { recursive: true, force: true })
      }
    })
  })

  describe('h3Plan', function () {
    const lane = (name, protocol, url) => ({ name, protocol, url })
    it('maps an h3 lane alone on its host; one sharing its host with other lanes learns from Alt-Svc', () => {
      assert.deepEqual(h3Plan([lane('h3', 'h3', 'https://127.0.0.1:4004')]), { mapping: '127.0.0.1;h3=:4004', learn: [] })
      const shared = [lane('h1', 'http/1.1', 'https://127.0.0.1:4001'), lane('h3', 'h3', 'https://127.0.0.1:4004')]
      assert.deepEqual(h3Plan(shared), { mapping: '', learn: [shared[1]] })
      assert.deepEqual(h3Plan([lane('h1', 'http/1.1', 'https://127.0.0.1:4001')]), { mapping: '', learn: [] })
    })
  })

  describe('behind a packet-level link (rtt=100ms)', function () {
    let session = null
    let firefox = null
    let caFile = null
    before(async function () {
      skipUnless(this, firefoxUnavailableReason() || unavailableReason())
      session = await startLanesBehindLink(['h2', 'h3'], 'rtt=100ms')
      caFile = caFileOf(session.tls)
      // The lanes are at the link's address, which their certificate names too (startLanesBehindLink): no override.
      firefox = await launchFirefox({ caFile, link: session.opened, lanes: session.running.lanes })
    })
    after(async () => {
      if (firefox) await firefox.close()
      if (session) await session.close()
      if (caFile) fs.rmSync(caFile, { force: true })
    })

    it('runs Firefox in the link\'s client namespace, and its requests take the link\'s round trips', async () => {
      assert.equal(fs.readlinkSync(`/proc/${firefox.pid}/ns/net`), fs.readlinkSync(`/proc/${session.opened.pid}/ns/net`))
      assert.notEqual(fs.readlinkSync(`/proc/${firefox.pid}/ns/net`), fs.readlinkSync('/proc/self/ns/net'))
      const lane = session.running.lanes.find(l => l.name === 'h2')
      const res = await firefox.page.goto(`${lane.url}/`)
      assert.equal(res.status(), 200)
      assert.equal(fs.existsSync(path.join(firefox.profile, 'cert_override.txt')), false, 'nothing overridden')
      const nav = await navigation(firefox.page)
      assert.equal(nav.protocol, 'h2')
      // a new TCP connection (1 RTT), TLS 1.3 (1 RTT), the request (1 RTT)
      assert.ok(nav.responseStart - nav.startTime >= 200, `navigation's first byte after ${nav.responseStart - nav.startTime} ms`)
      const fetchMs = await firefox.page.evaluate(async () => {
        const t0 = performance.now()
        await (await fetch('/api/items/1?cache=none', { cache: 'no-store' })).text()
        return performance.now() - t0
      })
      assert.ok(fetchMs >= 95, `a request on the open connection took ${fetchMs} ms`)
      process.stdout.write(`      · navigation's first byte ${Math.round(nav.responseStart - nav.startTime)} ms, a request ${Math.round(fetchMs)} ms\n`)
    })

    // Firefox keeps what an Alt-Svc taught it per top-level site: learnt on
    // the lane's own (https) page only, the h2bench page's (http) first two
    // requests to the h3 lane went over TCP behind this link, in every launch.
    it('the h2bench page\'s first requests to the h3 lane go over HTTP/3', async function () {
      const h3 = session.running.lanes.find(l => l.name === 'h3')
      if (!h3) return skipUnless(this, `no h3 lane here: ${(session.running.unavailable || []).map(u => u.reason).join('; ')}`)
      assert.equal(firefox.h3.h3, 'h3', `learnt: ${JSON.stringify(firefox.h3)}`)
      await firefox.page.goto(`${session.running.page.url}/`)
      const protocols = await firefox.page.evaluate(async url => {
        const got = []
        for (let i = 0; i < 3; i++) {
          const u = `${url}/option?size=512&first=${i}-${Math.random()}`
          await (await fetch(u)).text()
          got.push(performance.getEntriesByName(u)[0].nextHopProtocol)
        }
        return got
      }, h3.url)
      assert.deepEqual(protocols, ['h3', 'h3', 'h3'])
    })

    it('close() ends Firefox inside the namespace and removes the profile', async () => {
      const { pid, profile } = firefox
      const closing = firefox
      firefox = null
      await closing.close()
      await assertGone(pid)
      assert.equal(fs.existsSync(profile), false)
    })
  })
})

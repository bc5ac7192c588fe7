'use strict'

// test/support/third-party-site.js against the real servers: Debian's nginx, lighttpd and Apache serve the four
// origins, each with a leaf of its own signed by the fixture's CA (or one for all, `leaves: 'shared'`), over
// HTTP/1.1 and HTTP/2, with the cache headers the replay's fidelity test counts on and the CGI's 250 ms of think
// time; they listen on 127.0.0.1 alone, and close() (or the fixture's process killed) leaves nothing behind. The
// names are reached by address and SNI: nothing here resolves them.
const assert = require('node:assert/strict')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const tls = require('node:tls')
const https = require('node:https')
const http2 = require('node:http2')
const { spawn } = require('node:child_process')
const { startThirdPartySite, thirdPartySiteUnavailableReason, SLOW_MS } = require('../../support/third-party-site')
const { spkiHash } = require('../../../server/certs')

const NAMES = ['a.tps.test', 'b.tps.test', 'c.tps.test', 'd.tps.test']
const DAY_MS = 86400 * 1000
const running = pid => {
  try {
    return fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ').pop()[0] !== 'Z'
  } catch {
    return false
  }
}
const pidsOf = site => Object.values(site.servers).flatMap(s => [s.pid, ...s.workers()])

// GET `url` (its name reached at 127.0.0.1, the name as SNI, the CA alone trusted) over h1 or h2
// → { status, headers, body, ms, alpn }.
function get (url, protocol, ca) {
  const u = new URL(url)
  const t0 = performance.now()
  if (protocol === 'h1') {
    return new Promise((resolve, reject) => {
      const req = https.get({ host: '127.0.0.1', port: u.port, path: u.pathname + u.search, servername: u.hostname, headers: { host: u.host }, ca, ALPNProtocols: ['http/1.1'], agent: false }, res => {
        const chunks = []
        res.on('data', c => chunks.push(c))
        res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks), ms: performance.now() - t0, alpn: res.socket.alpnProtocol }))
      })
      req.on('error', reject)
    })
  }
  return new Promise((resolve, reject) => {
    const session = http2.connect(`https://127.0.0.1:${u.port}`, { servername: u.hostname, ca })
    session.on('error', reject)
    const req = session.request({ ':authority': u.host, ':path': u.pathname + u.search })
    let headers = null
    const chunks = []
    req.on('response', h => { headers = h })
    req.on('data', c => chunks.push(c))
    req.on('end', () => {
      const alpn = session.alpnProtocol
      session.close()
      resolve({ status: headers[':status'], headers, body: Buffer.concat(chunks), ms: performance.now() - t0, alpn })
    })
    req.on('error', reject)
  })
}

// The SPKI hash of the leaf the origin presents for its name, verified against `ca` (and the name).
function servedSpki (origin, ca) {
  const u = new URL(origin)
  return new Promise((resolve, reject) => {
    const socket = tls.connect({ host: '127.0.0.1', port: Number(u.port), servername: u.hostname, ca, ALPNProtocols: ['http/1.1'] }, () => {
      resolve(spkiHash(socket.getPeerX509Certificate().toString()))
      socket.destroy()
    })
    socket.once('error', reject)
  })
}

function boundOn (port) {
  const out = []
  for (const proto of ['tcp', 'tcp6']) {
    for (const line of fs.readFileSync(`/proc/net/${proto}`, 'utf8').trim().split('\n').slice(1)) {
      const [, local, , state] = line.trim().split(/\s+/)
      const [addr, hexPort] = local.split(':')
      if (parseInt(hexPort, 16) === port && state === '0A') out.push(`${proto} ${addr.length === 8 ? Buffer.from(addr, 'hex').reverse().join('.') : addr}`)
    }
  }
  return [...new Set(out)].sort()
}

describe('test/support/third-party-site.js: four origins on nginx, lighttpd and Apache, each its own leaf from one CA', function () {
  this.timeout(60000)
  let site = null

  before(async function () {
    const why = thirdPartySiteUnavailableReason()
    if (why) {
      process.stdout.write(`      (skipped: ${why})\n`)
      this.skip()
    }
    site = await startThirdPartySite({ names: NAMES })
  })
  after(async () => { if (site) await site.close() })

  it('each origin presents a leaf of its own for its name, signed by the fixture\'s CA', async () => {
    const spkis = []
    for (const origin of Object.values(site.origins)) spkis.push(await servedSpki(origin, site.ca))
    assert.equal(new Set(spkis).size, 4, spkis.join(' '))
    // A name the leaf does not hold fails the check: c's port, d's name is d's leaf, not c's.
    const c = new URL(site.origins.c)
    await assert.rejects(new Promise((resolve, reject) => {
      const s = tls.connect({ host: '127.0.0.1', port: Number(c.port), servername: c.hostname, ca: site.ca, checkServerIdentity: (_, cert) => tls.checkServerIdentity(NAMES[3], cert) }, () => { s.destroy(); resolve() })
      s.once('error', reject)
    }), /altnames|Hostname/)
  })

  it('listens on 127.0.0.1 only, each server as this fixture\'s child, its files in the fixture\'s folder', () => {
    for (const s of Object.values(site.servers)) assert.deepEqual(boundOn(s.port), ['tcp 127.0.0.1'])
    assert.ok(fs.existsSync(path.join(site.dir, 'nginx', 'nginx.conf')))
    assert.ok(fs.existsSync(path.join(site.dir, 'lighttpd', 'lighttpd.conf')))
    assert.ok(fs.existsSync(path.join(site.dir, 'apache', 'httpd.conf')))
  })

  for (const protocol of ['h1', 'h2']) {
    it(`over ${protocol}: the page and each kind of resource with the servers' own validators and the cache headers the test counts on`, async () => {
      const { a, b, c, d } = site.origins
      const want = {
        [site.page]: { cc: 'no-cache', type: /^text\/html/ },
        [`${a}/style.css`]: { cc: 'max-age=60', lmDaysAgo: 30 },
        [`${a}/app.js`]: { cc: 'max-age=60', lmDaysAgo: 30 },
        [`${a}/photo.png?a=3`]: { cc: undefined, lmDaysAgo: 30, type: /^image\/png$/ },
        [`${b}/photo.png?b=3`]: { cc: undefined, lmMinutesAgo: 10, type: /^image\/png$/ },
        [`${c}/hero.png`]: { cc: 'max-age=3600', lmDaysAgo: 30 },
        [`${c}/logo.svg?c=3`]: { cc: 'no-cache', lmDaysAgo: 30, type: /^image\/svg\+xml/ },
        [`${d}/photo.png?d=3`]: { cc: 'max-age=120', lmDaysAgo: 30, expires: 120 }
      }
      for (const [url, w] of Object.entries(want)) {
        const r = await get(url, protocol, site.ca)
        assert.equal(r.status, 200, url)
        assert.equal(r.alpn, protocol === 'h1' ? 'http/1.1' : 'h2', url)
        assert.ok(r.body.length > 0, url)
        assert.ok(r.headers.etag, `${url}: no ETag`)
        assert.ok(r.headers['last-modified'], `${url}: no Last-Modified`)
        assert.equal(r.headers['cache-control'], w.cc, url)
        if (w.type) assert.match(r.headers['content-type'], w.type, url)
        const age = Date.parse(r.headers.date) - Date.parse(r.headers['last-modified'])
        if (w.lmDaysAgo) assert.ok(Math.abs(age - w.lmDaysAgo * DAY_MS) < 120000, `${url}: Last-Modified ${r.headers['last-modified']}`)
        if (w.lmMinutesAgo) assert.ok(age >= w.lmMinutesAgo * 60000 && age < (w.lmMinutesAgo + 5) * 60000, `${url}: Last-Modified ${r.headers['last-modified']}`)
        if (w.expires) assert.ok(Math.abs(Date.parse(r.headers.expires) - Date.parse(r.headers.date) - w.expires * 1000) <= 1000, `${url}: Expires ${r.headers.expires}`)
      }
    })

    it(`over ${protocol}: the CGI answers after its ${SLOW_MS} ms of think time, with no validators and no freshness`, async () => {
      const r = await get(`${site.origins.b}${site.slowPath}`, protocol, site.ca)
      assert.equal(r.status, 200)
      assert.ok(r.ms >= SLOW_MS, `${r.ms} ms`)
      assert.match(r.body.toString(), /think time/)
      for (const h of ['etag', 'last-modified', 'cache-control', 'expires']) assert.equal(r.headers[h], undefined, h)
    })
  }

  it('close() stops every server (masters and workers) and removes the folder; may be called again', async () => {
    const other = await startThirdPartySite({ names: NAMES, leaves: 'shared' })
    const spkis = new Set()
    for (const origin of Object.values(other.origins)) spkis.add(await servedSpki(origin, other.ca))
    assert.equal(spkis.size, 1, 'leaves: shared')
    const pids = pidsOf(other)
    assert.ok(pids.length >= 5 && pids.every(running), pids.join(' '))
    await other.close()
    assert.deepEqual(pids.filter(running), [])
    assert.equal(fs.existsSync(other.dir), false)
    await other.close()
  })

  it('leaves no server running when its process is killed with SIGKILL (no exit hook runs)', async () => {
    const child = spawn(process.execPath, ['-e', `require(${JSON.stringify(require.resolve('../../support/third-party-site'))}).startThirdPartySite({ names: ${JSON.stringify(NAMES)} })
      .then(s => console.log(JSON.stringify({ dir: s.dir, pids: Object.values(s.servers).flatMap(x => [x.pid, ...x.workers()]) })))`], { stdio: ['ignore', 'pipe', 'inherit'] })
    const { dir, pids } = JSON.parse(await new Promise(resolve => child.stdout.once('data', resolve)))
    try {
      assert.ok(pids.length >= 5 && pids.every(running), pids.join(' '))
      child.kill('SIGKILL')
      for (let i = 0; i < 50 && pids.some(running); i++) await new Promise(resolve => setTimeout(resolve, 100))
      assert.deepEqual(pids.filter(running), [])
    } finally {
      child.kill('SIGKILL')
      fs.rmSync(dir, { recursive: true, force: true })
      assert.ok(dir.startsWith(os.tmpdir()))
    }
  })
})

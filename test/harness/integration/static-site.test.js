'use strict'

// test/support/static-site.js against the real servers: Debian's nginx and
// the pinned Caddy serve the fixture's site byte for byte, over each protocol
// they offer, to clients that verify the fixture's own CA; close() leaves
// nothing behind.
const assert = require('node:assert/strict')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const crypto = require('node:crypto')
const tls = require('node:tls')
const { spawn, execFileSync } = require('node:child_process')
const { startStaticSite, SITE, siteBody } = require('../../support/static-site')
const { h1Get, h2Get, h3Get, useH3Client, alpnHandshake } = require('../../support/clients')
const { spkiHash } = require('../../../server/certs')
const { procStat } = require('../../../harness/cell-costs')

// nginx's types (as Debian's mime.types) say application/javascript, Caddy's (Go's) text/javascript.
const TYPES = { '/': /^text\/html/, '/style.css': /^text\/css/, '/app.js': /^(application|text)\/javascript/, '/logo.svg': /^image\/svg\+xml/, '/hero.png': /^image\/png$/, '/photo.png': /^image\/png$/ }
const alive = pid => procStat(pid) !== null
// Alive and not a zombie (state Z: dead, its exit status not yet collected).
const running = pid => {
  try {
    return fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ').pop()[0] !== 'Z'
  } catch {
    return false
  }
}
const childrenOf = pid => fs.readdirSync('/proc').filter(n => /^\d+$/.test(n)).map(Number).filter(p => { const s = procStat(p); return s && s.ppid === pid })

// The local addresses of the sockets listening (TCP) or bound (UDP) on
// `port` in this network namespace, as "tcp 127.0.0.1", from /proc/net.
function boundOn (port) {
  const out = []
  for (const proto of ['tcp', 'tcp6', 'udp', 'udp6']) {
    for (const line of fs.readFileSync(`/proc/net/${proto}`, 'utf8').trim().split('\n').slice(1)) {
      const [, local, , state] = line.trim().split(/\s+/)
      const [addr, hexPort] = local.split(':')
      if (parseInt(hexPort, 16) !== port || (proto.startsWith('tcp') && state !== '0A')) continue
      const ip = addr.length === 8 ? Buffer.from(addr, 'hex').reverse().join('.') : addr
      out.push(`${proto} ${ip}`)
    }
  }
  return [...new Set(out)].sort()
}

// The certificate a server presents, as its SPKI hash, verified against `ca`.
function servedSpki (url, ca) {
  const u = new URL(url)
  return new Promise((resolve, reject) => {
    const socket = tls.connect({ host: u.hostname, port: Number(u.port), ca, ALPNProtocols: ['http/1.1'] }, () => {
      resolve(spkiHash(socket.getPeerX509Certificate().toString()))
      socket.destroy()
    })
    socket.once('error', reject)
  })
}

// Every path of the site, by `get`, with its exact bytes and type.
async function checkEverything (get, url, what) {
  for (const p of SITE.paths) {
    const res = await get(new URL(p, url).href)
    assert.equal(res.status, 200, `${what} ${p}`)
    assert.equal(res.body.length, SITE.bytes[p], `${what} ${p}: ${res.body.length} bytes`)
    assert.ok(res.body.equals(siteBody(p)), `${what} ${p}: not the site's bytes`)
    assert.match(String(res.headers['content-type']), TYPES[p], `${what} ${p}`)
  }
}

describe('test/support/static-site.js: nginx and Caddy serving one static site over HTTPS', function () {
  this.timeout(60000)
  useH3Client()
  let site
  let ca
  before(async function () {
    this.timeout(120000)
    try {
      site = await startStaticSite()
    } catch (err) {
      if (err.missing) this.skip() // no nginx or no Caddy here: err.message says which package
      throw err
    }
    ca = site.ca
  })
  after(() => site && site.close())

  it('describes a page of 100-200 KB: every file on disk with its size, every other path named by the page, nothing more', () => {
    assert.equal(SITE.requests, SITE.paths.length)
    assert.ok(SITE.totalBytes >= 100e3 && SITE.totalBytes <= 200e3, `${SITE.totalBytes} bytes`)
    for (const p of SITE.paths) assert.equal(fs.statSync(path.join(site.root, SITE.files[p])).size, SITE.bytes[p], p)
    const html = siteBody('/').toString()
    const named = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map(m => m[1])
    assert.deepEqual(named.filter(u => u !== 'data:,').sort(), SITE.paths.filter(p => p !== '/').sort())
    // The LCP image: 480 × 320 from its PNG header, by far the largest.
    const hero = siteBody(SITE.lcp)
    assert.deepEqual([hero.readUInt32BE(16), hero.readUInt32BE(20)], [480, 320])
    // Deterministic: the same bytes as a fresh build in another process.
    const again = JSON.parse(execFileSync(process.execPath, ['-e',
      `const s = require(${JSON.stringify(require.resolve('../../support/static-site'))}); console.log(JSON.stringify(s.SITE.paths.map(p => require('crypto').createHash('sha256').update(s.siteBody(p)).digest('hex'))))`], { encoding: 'utf8' }))
    assert.deepEqual(again, SITE.paths.map(p => crypto.createHash('sha256').update(siteBody(p)).digest('hex')))
  })

  it('both servers present the leaf that the fixture\'s CA signed, for 127.0.0.1, with the SPKI hash it returns', async () => {
    assert.match(fs.readFileSync(site.caFile, 'utf8'), /^-----BEGIN CERTIFICATE-----/)
    assert.equal(await servedSpki(site.nginx.url, ca), site.spki)
    assert.equal(await servedSpki(site.caddy.url, ca), site.spki)
    // A client that trusts only the system's CAs refuses both.
    for (const url of [site.nginx.url, site.caddy.url]) {
      await assert.rejects(h1Get(url), /self.signed|unable to (verify|get local issuer)/i)
    }
  })

  it('listens on 127.0.0.1 only (nginx TCP, Caddy TCP and UDP on one port number); nginx keeps its temp folders in the fixture\'s', () => {
    assert.deepEqual(boundOn(site.nginx.port), ['tcp 127.0.0.1'])
    assert.deepEqual(boundOn(site.caddy.port), ['tcp 127.0.0.1', 'udp 127.0.0.1'])
    for (const name of ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi', 'nginx.pid']) {
      assert.ok(fs.existsSync(path.join(site.dir, 'nginx', name)), name)
    }
    // Its config names no path outside the folder (none of Debian's /etc, /var or /run).
    const conf = fs.readFileSync(path.join(site.dir, 'nginx', 'nginx.conf'), 'utf8')
    const paths = conf.match(/(?<=\s)\/[^\s;]+/g)
    assert.ok(paths.length >= 10, conf)
    assert.deepEqual(paths.filter(p => !p.startsWith(site.dir + path.sep)), [])
  })

  it('nginx: HTTP/1.1, every file with its exact bytes', async () => {
    assert.deepEqual(site.nginx.protocols, ['h1', 'h2'])
    assert.match(site.nginx.version, /^\d+\.\d+\.\d+$/)
    await checkEverything(async url => {
      const res = await h1Get(url, { ca })
      assert.equal(res.alpn, 'http/1.1')
      return res
    }, site.nginx.url, 'nginx h1')
  })

  it('nginx: HTTP/2 (ALPN h2), every file with its exact bytes; its access log saw each request once per protocol', async () => {
    await checkEverything(async url => {
      const res = await h2Get(url, { ca })
      assert.equal(res.alpn, 'h2')
      return res
    }, site.nginx.url, 'nginx h2')
    assert.deepEqual(await alpnHandshake(site.nginx.url, ['h2', 'http/1.1'], { ca }), { alpn: 'h2' })
    const log = fs.readFileSync(site.nginx.accessLog, 'utf8').trim().split('\n')
    for (const proto of ['HTTP/1.1', 'HTTP/2.0']) {
      assert.deepEqual(log.filter(l => l.startsWith(proto)).map(l => l.split(' ').slice(2).join(' ')),
        SITE.paths.map(p => `${p} 200 ${SITE.bytes[p]}`), proto)
    }
  })

  it('Caddy: HTTP/1.1 and HTTP/2, every file with its exact bytes', async () => {
    assert.deepEqual(site.caddy.protocols, ['h1', 'h2', 'h3'])
    assert.equal(typeof site.caddy.pinned, 'boolean')
    await checkEverything(async url => {
      const res = await h1Get(url, { ca })
      assert.equal(res.alpn, 'http/1.1')
      return res
    }, site.caddy.url, 'caddy h1')
    await checkEverything(async url => {
      const res = await h2Get(url, { ca })
      assert.equal(res.alpn, 'h2')
      return res
    }, site.caddy.url, 'caddy h2')
    // How a browser learns of HTTP/3 there: Alt-Svc, the same port number.
    assert.match(String((await h2Get(site.caddy.url, { ca })).headers['alt-svc']), new RegExp(`h3=":${site.caddy.port}"`))
  })

  it('Caddy: HTTP/3 over QUIC on the same port number, every file with its exact bytes (h3get)', async () => {
    await checkEverything(async url => {
      const res = await h3Get(url, { ca })
      assert.equal(res.alpn, 'h3')
      assert.equal(res.proto, 'HTTP/3.0')
      return res
    }, site.caddy.url, 'caddy h3')
  })
})

describe('test/support/static-site.js: close()', function () {
  this.timeout(60000)

  it('stops nginx (master and worker) and Caddy, removes the folder, and may be called again', async function () {
    let site
    try {
      site = await startStaticSite()
    } catch (err) {
      if (err.missing) this.skip()
      throw err
    }
    const pids = [site.nginx.pid, ...childrenOf(site.nginx.pid), site.caddy.pid]
    assert.ok(pids.length >= 3, `nginx ${site.nginx.pid} has no worker`)
    assert.ok(pids.every(alive), pids.join(' '))
    assert.ok(fs.existsSync(site.dir))
    await site.close()
    assert.deepEqual(pids.filter(alive), [])
    assert.equal(fs.existsSync(site.dir), false)
    await site.close()
  })

  it('leaves no server running when its process is killed with SIGKILL (no exit hook runs)', async function () {
    const child = spawn(process.execPath, ['-e', `require(${JSON.stringify(require.resolve('../../support/static-site'))}).startStaticSite()
      .then(s => console.log(JSON.stringify({ dir: s.dir, pids: [s.nginx.pid, ...s.nginx.workers(), s.caddy.pid] })))`], { stdio: ['ignore', 'pipe', 'inherit'] })
    const { dir, pids } = JSON.parse(await new Promise(resolve => child.stdout.once('data', resolve)))
    try {
      assert.ok(pids.length >= 3 && pids.every(running), pids.join(' '))
      child.kill('SIGKILL')
      // Gone, or a zombie for init to reap: nothing runs.
      for (let i = 0; i < 50 && pids.some(running); i++) await new Promise(resolve => setTimeout(resolve, 100))
      assert.deepEqual(pids.filter(running), [])
    } finally {
      // What the next start would remove as stale: the folders of the process killed.
      child.kill('SIGKILL')
      fs.rmSync(dir, { recursive: true, force: true })
      for (const name of fs.readdirSync(os.tmpdir()).filter(n => n.startsWith(`h2bench-caddy-${child.pid}-`))) {
        fs.rmSync(path.join(os.tmpdir(), name), { recursive: true, force: true })
      }
    }
  })

  it('starts just the servers asked for', async () => {
    const site = await startStaticSite({ servers: ['caddy'] }).catch(err => err)
    if (site instanceof Error) {
      assert.ok(site.missing, site.message)
      return
    }
    try {
      assert.equal(site.nginx, undefined)
      assert.ok(site.caddy.url)
      assert.equal((await h2Get(site.caddy.url + 'app.js', { ca: site.ca })).body.length, SITE.bytes['/app.js'])
    } finally {
      await site.close()
    }
  })

  it('without nginx, says which Debian package to install', async () => {
    const saved = process.env.NGINX_PATH
    process.env.NGINX_PATH = '/nonexistent/nginx'
    try {
      await assert.rejects(startStaticSite({ servers: ['nginx'] }), err => err.missing === true && /nginx-light/.test(err.message))
    } finally {
      if (saved === undefined) delete process.env.NGINX_PATH
      else process.env.NGINX_PATH = saved
    }
  })
})

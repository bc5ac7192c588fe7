'use strict'

// GET /cpu.json (server/routes/cpu.js, server/cpu.js) on real sockets: the
// page server finds the process holding the other end of the request's own
// connection (here this test, a client in the page server's own process), its
// CPU, Caddy's and this process's; the token beyond loopback; the lanes
// elsewhere; never a failure. A Chromium at the other end: test/client/slow/cpu.test.js.
const assert = require('node:assert/strict')
const http = require('node:http')
const net = require('node:net')
const fs = require('node:fs')
const { useServers } = require('../../support/servers')
const { createPageApp } = require('../../../server/page')

const LANES = [{ name: 'h1', label: 'HTTP/1.1', protocol: 'http/1.1', url: 'https://127.0.0.1:1' }]
const linux = fs.existsSync('/proc/self/stat')

// One GET on a connection of its own → { status, body, headers, localPort (the client's end) }.
function get (url, headers = {}) {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { headers, agent: false }, res => {
      let text = ''
      res.setEncoding('utf8')
      res.on('data', d => { text += d })
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body: JSON.parse(text), localPort: req.socket.localPort }))
    })
    req.on('error', reject)
  })
}

// A page app of its own on `host`, port 0 → { url, close }.
async function pageServer (options, host = '127.0.0.1') {
  const server = http.createServer(createPageApp({ lanes: LANES, spki: 'AAAA', ...options }))
  await new Promise(resolve => server.listen(0, host, resolve))
  const h = host.includes(':') ? `[${host}]` : host
  return { url: `http://${h}:${server.address().port}`, close: () => new Promise(resolve => server.close(resolve)) }
}

describe('GET /cpu.json on the page server (the real thing)', function () {
  this.timeout(30000)
  const servers = useServers() // every lane: the edge lanes' Caddy too

  it('finds the process holding the other end of the request\'s connection: this one; reads Caddy and this process', async function () {
    if (!linux) this.skip()
    const { status, headers, body, localPort } = await get(`${servers.running.page.url}/cpu.json`)
    assert.equal(status, 200)
    assert.equal(headers['cache-control'], 'no-store')
    assert.equal(body.browser.root, process.pid, JSON.stringify(body.browser))
    // This process's tree: Caddy, its child, with it.
    assert.ok(body.browser.pids.includes(process.pid), JSON.stringify(body.browser.pids))
    if (servers.running.edge) assert.ok(body.browser.pids.includes(servers.running.edge.pid))
    assert.equal(body.browser.name, 'this page server')
    assert.match(body.browser.found, new RegExp(`^the page's connection from 127\\.0\\.0\\.1:${localPort} \\(this network namespace\\) is held by this page server's process ${process.pid} itself$`))
    assert.ok(body.browser.cpuMs > 0)
    assert.equal(body.servers.pid, process.pid)
    assert.ok(body.servers.node > 0)
    if (servers.running.edge) {
      assert.equal(body.servers.caddyPid, servers.running.edge.pid)
      assert.equal(typeof body.servers.caddy, 'number')
    }
    assert.ok(body.machine.busyMs > 0 && body.machine.cpus >= 1, JSON.stringify(body.machine))
    assert.ok(body.tickMs > 0)
  })

  it('counts on: a second reading, on another connection, reads no less of anything', async function () {
    if (!linux) this.skip()
    const a = (await get(`${servers.running.page.url}/cpu.json`)).body
    let x = 0
    for (let i = 0; i < 2e6; i++) x += Math.sqrt(i)
    const b = (await get(`${servers.running.page.url}/cpu.json`)).body
    assert.ok(x > 0)
    assert.ok(b.at > a.at)
    assert.ok(b.browser.cpuMs >= a.browser.cpuMs && b.servers.node >= a.servers.node && b.machine.busyMs >= a.machine.busyMs)
  })

  it('finds it over IPv6 loopback as well', async function () {
    if (!linux || !net.isIPv6('::1')) this.skip()
    let page
    try {
      page = await pageServer({}, '::1')
    } catch {
      this.skip() // no IPv6 loopback here
    }
    try {
      const { body } = await get(`${page.url}/cpu.json`)
      assert.equal(body.browser.root, process.pid, JSON.stringify(body.browser))
    } finally {
      await page.close()
    }
  })

  it('beyond loopback asks for the token; with it, reads', async () => {
    const page = await pageServer({ token: 'sesame' })
    try {
      const refused = await get(`${page.url}/cpu.json`)
      assert.equal(refused.status, 401)
      assert.equal(refused.body.code, 'H2B_TOKEN')
      assert.match(refused.body.error, /the CPU readings of this machine's processes need the token/)
      const ok = await get(`${page.url}/cpu.json`, { 'X-H2bench-Token': 'sesame' })
      assert.equal(ok.status, 200)
      assert.equal(typeof ok.body.at, 'number')
    } finally {
      await page.close()
    }
  })

  it('with the lanes on another machine says so, and still reads the browser', async function () {
    if (!linux) this.skip()
    const page = await pageServer({ lanesHere: false })
    try {
      const { body } = await get(`${page.url}/cpu.json`)
      assert.deepEqual(body.servers, { node: null, caddy: null, reason: 'the lanes run on another machine: their CPU is not read here' })
      assert.equal(body.browser.root, process.pid)
    } finally {
      await page.close()
    }
  })
})

'use strict'

const assert = require('node:assert/strict')
const net = require('node:net')
const dgram = require('node:dgram')
const { caddyConfig, caddyWarning, edgeProtocol, edgeUnavailableReason, findCaddy, startCaddy, EdgeError, freePort } = require('../../../server/edge/caddy')
const { startAll, PortError } = require('../../../server/start')
const { laneByName } = require('../../../server/lanes')
const { testCertificate } = require('../../support/certificate')
const { ensureCaddy } = require('../../../tools/caddy/build')

describe('the Caddy edge (server/edge/caddy.js)', function () {
  this.timeout(30000)

  it('maps Caddy\'s {http.request.proto} to ALPN names, and nothing else', () => {
    assert.equal(edgeProtocol('HTTP/3.0'), 'h3')
    assert.equal(edgeProtocol('HTTP/2.0'), 'h2')
    assert.equal(edgeProtocol('HTTP/1.1'), 'http/1.1')
    for (const bad of [undefined, '', 'h3', 'HTTP/3.0; evil', 'HTTP/x']) assert.equal(edgeProtocol(bad), null, String(bad))
  })

  it('writes a config with no admin endpoint, no automatic HTTPS, streaming, and the edge protocol header set (not passed on)', () => {
    const c = caddyConfig([{ name: 'h3', host: '::1', port: 4433, protocols: ['h1', 'h2', 'h3'], upstream: '127.0.0.1:9' }],
      { cert: '/c.pem', key: '/k.pem', data: '/d' })
    assert.deepEqual(c.admin, { disabled: true })
    const server = c.apps.http.servers.h3
    assert.deepEqual(server.listen, ['[::1]:4433'])
    assert.deepEqual(server.protocols, ['h1', 'h2', 'h3'])
    assert.deepEqual(server.automatic_https, { disable: true })
    const proxy = server.routes[0].handle[0]
    assert.equal(proxy.handler, 'reverse_proxy')
    assert.equal(proxy.flush_interval, -1)
    assert.deepEqual(proxy.upstreams, [{ dial: '127.0.0.1:9' }])
    assert.deepEqual(proxy.headers.request.set, { 'x-h2bench-edge-protocol': ['{http.request.proto}'], 'x-h2bench-edge-client': ['{http.request.remote}'] })
    assert.equal(server.idle_timeout, undefined, 'Caddy\'s own idle timeout unless asked')
    const short = caddyConfig([{ name: 'h3', host: '::1', port: 4433, protocols: ['h3'], upstream: '127.0.0.1:9', idleTimeoutS: 5 }], { cert: '/c.pem', key: '/k.pem', data: '/d' })
    assert.equal(short.apps.http.servers.h3.idle_timeout, '5s')
  })

  it('finds caddy through CADDY_PATH, the one tools/caddy built, or the PATH, and says what to do when there is none', async () => {
    const built = await ensureCaddy()
    assert.equal(findCaddy({ PATH: '/nonexistent' }), built)
    assert.equal(findCaddy({ PATH: '/usr/bin', CADDY_PATH: '/usr/bin/true' }), '/usr/bin/true')
    assert.match(edgeUnavailableReason({ CADDY_PATH: '/no/caddy' }), /^CADDY_PATH=\/no\/caddy does not exist: build Caddy with `npm run build:caddy` \(needs Go >= 1\.26; `npm install` does it when Go is there\), or install one \(Debian\/Ubuntu: `sudo apt-get install -y caddy`/)
    assert.equal(edgeUnavailableReason(), null, 'caddy is installed here (.ci/run installs it)')
  })

  it('rejects with Caddy\'s own reason when Caddy refuses to start', async () => {
    const tls = await testCertificate()
    const started = startCaddy([{ name: 'x', host: '127.0.0.1', port: 'notaport', protocols: ['h1'], upstream: '127.0.0.1:9' }], tls)
    started.then(edge => edge.close(), () => {}) // should it start after all, it is not left running
    await assert.rejects(started, err => err instanceof EdgeError && /Caddy exited \(code 1\) before serving: .*notaport/.test(err.message))
  })

  it('warns about a Caddy older than 2.7 (Debian 12\'s 2.6.2), and only then', () => {
    assert.match(caddyWarning('2.6.2'), /^Caddy 2\.6\.2 drops the second packet of Chromium's two-packet .*rapid reset \(CVE-2023-44487\); `npm run build:caddy` builds a current one$/)
    assert.match(caddyWarning('v2.6.4'), /^Caddy v2\.6\.4 drops/)
    for (const v of ['v2.7.0', 'v2.11.9', '3.0.0', null, 'weird']) assert.equal(caddyWarning(v), null, String(v))
  })

  it('a taken TCP or UDP port of an edge lane stops the start with the flag to change', async () => {
    const tls = await testCertificate()
    const port = await freePort('127.0.0.1')
    const udp = dgram.createSocket('udp4')
    await new Promise(resolve => udp.bind(port, '127.0.0.1', resolve))
    try {
      await assert.rejects(startAll({ host: '127.0.0.1', port: 0, h3Port: port }, tls, { lanes: [laneByName('h3')] }),
        err => err instanceof PortError && err.message === `UDP port ${port} is in use (lane h3, QUIC): choose another with --h3-port or H2BENCH_H3_PORT, or 0 for any free port`)
    } finally {
      udp.close()
    }
    const tcp = net.createServer()
    await new Promise(resolve => tcp.listen(port, '127.0.0.1', resolve))
    try {
      await assert.rejects(startAll({ host: '127.0.0.1', port: 0, h2ePort: port }, tls, { lanes: [laneByName('h2e')] }),
        err => err instanceof PortError && err.message.startsWith(`port ${port} is in use (lane h2e): choose another with --h2e-port or H2BENCH_H2E_PORT`))
    } finally {
      tcp.close()
    }
  })

  it('stops Caddy with close(): its port is free again', async () => {
    const tls = await testCertificate()
    const running = await startAll({ host: '127.0.0.1', port: 0, h2ePort: 0 }, tls, { lanes: [laneByName('h2e')] })
    const port = running.lanes[0].port
    assert.ok(running.edge.pid > 0)
    assert.match(running.edge.version, /^v2\.11\./, 'the pinned Caddy of tools/caddy')
    assert.equal(running.edge.warning, null)
    await running.close()
    assert.throws(() => process.kill(running.edge.pid, 0), /ESRCH/)
    const probe = net.createServer()
    await new Promise((resolve, reject) => { probe.once('error', reject); probe.listen(port, '127.0.0.1', resolve) })
    probe.close()
  })
})

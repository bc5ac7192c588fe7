'use strict'

const assert = require('node:assert/strict')
const net = require('node:net')
const dgram = require('node:dgram')
const { caddyConfig, edgeProtocol, edgeUnavailableReason, findCaddy, startCaddy, EdgeError, freePort } = require('../../server/edge/caddy')
const { startAll, PortError } = require('../../server/start')
const { laneByName } = require('../../server/lanes')
const { testCertificate } = require('../support/certificate')

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
    assert.deepEqual(proxy.headers.request.set, { 'x-h2bench-edge-protocol': ['{http.request.proto}'] })
  })

  it('finds caddy through CADDY_PATH or the PATH, and says what to install when there is none', () => {
    assert.equal(findCaddy({ PATH: '/nonexistent' }), null)
    assert.match(edgeUnavailableReason({ PATH: '/nonexistent' }), /^no caddy found: install Caddy 2\.6 or newer \(Debian\/Ubuntu: `sudo apt-get install -y caddy`\) or set CADDY_PATH/)
    assert.match(edgeUnavailableReason({ CADDY_PATH: '/no/caddy' }), /^CADDY_PATH=\/no\/caddy does not exist: install Caddy/)
    assert.equal(edgeUnavailableReason(), null, 'caddy is installed here (.ci/run installs it)')
  })

  it('rejects with Caddy\'s own reason when Caddy refuses to start', async () => {
    const tls = await testCertificate()
    // Caddy 2.6 refuses h2 without h1.
    await assert.rejects(startCaddy([{ name: 'x', host: '127.0.0.1', port: 0, protocols: ['h2'], upstream: '127.0.0.1:9' }], tls),
      err => err instanceof EdgeError && /Caddy exited \(code 1\) before serving: .*cannot enable HTTP\/2 or H2C without enabling HTTP\/1\.1/.test(err.message))
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
    assert.match(running.edge.version, /^v?2\./)
    await running.close()
    assert.throws(() => process.kill(running.edge.pid, 0), /ESRCH/)
    const probe = net.createServer()
    await new Promise((resolve, reject) => { probe.once('error', reject); probe.listen(port, '127.0.0.1', resolve) })
    probe.close()
  })
})

'use strict'

// h2bench load --url of an HTTPS server that is not an h2bench lane (no /lane,
// no ?ledger=, no /lanes.json, a certificate of its own): a node:http2 server
// with HTTP/1.1 allowed, started here on 127.0.0.1 (test/support/plain-server.js),
// loaded by ab and h2load through the command line, as a user would. Its rows'
// connection counts are the tools' own, and say so; what cannot be loaded is
// one line and exit 2.
const assert = require('node:assert/strict')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { runNode } = require('../../support/run-node')
const { startPlainServer } = require('../../support/plain-server')
const { useServers } = require('../../support/servers')
const { laneByName } = require('../../../server/lanes')

const CLI = path.join(__dirname, '..', '..', '..', 'bin', 'h2bench-load.js')

// One line on stderr naming `re`, exit 2, nothing on stdout.
async function refused (args, re) {
  const r = await runNode(CLI, args)
  assert.equal(r.code, 2, `exit code of ${args.join(' ')}: ${r.stderr}`)
  assert.equal(r.stdout, '')
  const lines = r.stderr.trimEnd().split('\n')
  assert.equal(lines.length, 1, `one line, got:\n${r.stderr}`)
  assert.match(lines[0], /^h2bench load: /)
  assert.match(lines[0], re)
}

describe('h2bench load --url: an HTTPS server that is not a lane', function () {
  this.timeout(60000)
  let server
  let h1Only
  let tmp
  let caFile
  before(async () => {
    server = await startPlainServer()
    h1Only = await startPlainServer({ h1Only: true })
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'h2bench-load-url-'))
    caFile = path.join(tmp, 'ca.pem')
    fs.writeFileSync(caFile, server.ca)
  })
  after(async () => {
    if (server) await server.close()
    if (h1Only) await h1Only.close()
    if (tmp) fs.rmSync(tmp, { recursive: true, force: true })
  })

  it('ab on h1, h2load on h2 (its ALPN offers both), trusted by --ca: every request done, the tools\' own connection counts labelled so (--json)', async () => {
    const before = server.requests
    const r = await runNode(CLI, ['--url', server.url, '--ca', caFile, '--tool', 'h1=ab', '-n', '60', '-c', '3', '-m', '10', '--json'])
    assert.equal(r.code, 0, r.stderr)
    const report = JSON.parse(r.stdout)
    assert.equal(report.server.url, server.url)
    assert.deepEqual(report.server.protocols, ['http/1.1', 'h2'])
    assert.deepEqual({ h1: report.server.offered.h1, h2: report.server.offered.h2 }, { h1: true, h2: true })
    assert.equal(report.server.certificate.checked, true)
    assert.equal(report.server.certificate.trusted, true)
    assert.equal(report.server.probe.status, 200)
    assert.equal(report.workload.size, 1000, 'the body size the probe saw')
    assert.deepEqual(report.tools.map(t => [t.lane, t.tool]), [['h1', 'ab'], ['h2', 'h2load']])
    const [h1, h2] = report.rows
    for (const row of report.rows) {
      assert.equal(row.error, null, row.error)
      assert.equal(row.succeeded, 60, JSON.stringify(row))
      assert.equal(row.serverRequests, null, 'no ledger')
      assert.equal(row.connectionsFrom, 'no ledger: the tool\'s own count')
      assert.equal(row.sizeBytes, 1000)
      assert.ok(row.mbPerSec > 0)
      assert.doesNotMatch(row.command, /ledger=|\/option/, 'the URL as given')
      assert.match(row.toolConnections.how, new RegExp(row.tool))
    }
    // ab without -k: one connection per request; h2load: its 3 clients of 20 requests each.
    assert.equal(h1.connections, 60)
    assert.deepEqual(h1.requestsPerConnection, { min: 1, median: 1, max: 1 })
    assert.equal(h2.connections, 3)
    assert.deepEqual(h2.requestsPerConnection, { min: 20, median: 20, max: 20 })
    assert.equal(server.requests - before, 1 + 120, 'the probe\'s GET and the tools\' 120')
    assert.match(r.stderr, /^load: 127\.0\.0\.1:\d+ is not an h2bench lane: no ledger, its rows' connection counts are the tools' own; it offers h1 and h2 over TCP \(ALPN\)/m)
    assert.match(r.stderr, /^h2 +h2load .*60\/60 ok, 3 connections \(the tool's own count\)$/m)
  })

  it('the table marks the tool\'s own counts with † and says so; --insecure is said plainly', async () => {
    const r = await runNode(CLI, ['--url', server.url, '--insecure', '--protocols', 'h2', '-n', '40', '-c', '2', '-m', '10'])
    assert.equal(r.code, 0, r.stderr)
    console.log(r.stdout.split('\n').map(l => `      | ${l}`).join('\n'))
    assert.match(r.stdout, /^server https:\/\/127\.0\.0\.1:\d+\/hello: not an h2bench lane; certificate NOT checked \(--insecure\): it is not trusted \(SELF_SIGNED_CERT_IN_CHAIN\)/m)
    assert.match(r.stdout, /^workload: 40 requests of GET https:\/\/127\.0\.0\.1:\d+\/hello \(1000 B body when probed\)/m)
    assert.match(r.stdout, /^h2 +h2load .* 2† +20† /m)
    assert.doesNotMatch(r.stdout, /^h1 /m, '--protocols h2 only')
    assert.match(r.stdout, /conns and req\/conn marked †: no ledger \(the server is not an h2bench lane\), the tool's own count/)
  })

  it('without --protocols, what the server offers: an HTTP/1.1-only server gets one row', async () => {
    const r = await runNode(CLI, ['--url', h1Only.url, '--ca', caFile, '-n', '20', '-c', '2', '--json'])
    assert.equal(r.code, 0, r.stderr)
    const report = JSON.parse(r.stdout)
    assert.deepEqual(report.rows.map(x => [x.lane, x.tool, x.succeeded, x.connections]), [['h1', 'h2load', 20, 2]])
  })

  it('what cannot be loaded: one line naming it and what is allowed, exit 2', async () => {
    await refused(['--url', server.url.replace('https:', 'http:')], /only https:\/\/ URLs .*got http:/)
    await refused(['--url', 'https://127.0.0.1:1/'], /--url https:\/\/127\.0\.0\.1:1\/: nothing listens at 127\.0\.0\.1:1 \(connection refused\)/)
    await refused(['--url', server.url], /its certificate is not trusted \(SELF_SIGNED_CERT_IN_CHAIN, issued by "h2bench local CA"\); give the CA that signed it with --ca <pem>, .*or --insecure/)
    await refused(['--url', server.url.replace('/hello', '/nope'), '--insecure'], /a GET answered status 404; the tools count 2xx responses only/)
    await refused(['--url', h1Only.url, '--insecure', '--protocols', 'h1,h2'], /--protocols h2: 127\.0\.0\.1:\d+ does not offer HTTP\/2 \(TLS ALPN\); it offers h1 over TCP/)
    // QUIC is not asked by ALPN: oha's one request first, 10 s at most.
    // (after the probe's progress lines: the server was reached, its certificate not checked)
    const h3 = await runNode(CLI, ['--url', server.url, '--insecure', '--protocols', 'h1,h3', '-n', '10', '-c', '1'])
    assert.equal(h3.code, 2, h3.stderr)
    assert.equal(h3.stdout, '')
    assert.match(h3.stderr.trimEnd().split('\n').pop(), /^h2bench load: --protocols h3: 127\.0\.0\.1:\d+ does not answer HTTP\/3 \(QUIC on UDP port \d+\): oha's one request had no answer within 10 s; leave h3 out/)
    await refused(['--url', server.url, '--insecure', '--protocols', 'h4'], /--protocols: unknown protocol "h4"; protocols are h1, h2, h3/)
    await refused(['--url', server.url, '--insecure', '--size', '10kb'], /--size: they shape an h2bench lane's responses; .* is not a lane/)
    await refused(['--url', server.url, '--ca', path.join(tmp, 'none.pem')], /--ca .*none\.pem: cannot read it \(ENOENT\)/)
    await refused(['--ca', caFile], /--ca: for a server given by --url that is not an h2bench lane/)
    await refused(['--url', server.url, '--ca', caFile, '--insecure'], /--ca and --insecure: give one of them/)
  })

  describe('a lane given by --url is still a lane: the ledger\'s counts, unmarked', () => {
    const servers = useServers({ lanes: [laneByName('h1')] })
    it('h2load on h1: the server\'s ledger', async () => {
      const lane = servers.lane('h1')
      const r = await runNode(CLI, ['--url', `${lane.url}/`, '-n', '20', '-c', '2', '--json'])
      assert.equal(r.code, 0, r.stderr)
      const [row] = JSON.parse(r.stdout).rows
      assert.equal(row.connectionsFrom, 'server ledger')
      assert.equal(row.serverRequests, 20)
      assert.equal(row.connections, 2)
      assert.equal(row.toolConnections.count, 2, 'h2load\'s own count beside it')
      await refused(['--url', `${lane.url}/`, '--protocols', 'h2'], /is h2bench lane h1 .*: leave out --protocols \(for servers that are not lanes/)
      await refused(['--url', `${lane.url}/`, '--insecure'], /is h2bench lane h1 .*: leave out --insecure/)
      // The page server is plain HTTP: no TLS there.
      await refused(['--url', servers.running.page.url.replace('http:', 'https:')], /it does not speak TLS \(a plain http:\/\/ server\?\)/)
    })
  })
})

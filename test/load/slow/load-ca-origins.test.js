'use strict'

// h2bench load --url … --ca on each origin of a site under one private CA, each origin with a leaf of its own
// (test/support/ca-site.js: Caddy on 127.0.0.2–3, nginx on 127.0.0.1; this namespace's loopback only). No
// browser is involved in `load`: "trusted" is h2bench's own check before the run (Node's TLS against the
// system's roots and the CA) and oha's (--cacert, the CA file: ab, h2load and nghttp check no certificate).
// What must hold: every origin is trusted by the CA, whatever its leaf, over HTTP/1.1, HTTP/2 and (Caddy)
// HTTP/3, oha checking it; a CA that did not sign it is refused in one line.
const assert = require('node:assert/strict')
const fs = require('node:fs')
const path = require('node:path')
const { runNode } = require('../../support/run-node')
const { startCaSite } = require('../../support/ca-site')
const { makePrivateCa } = require('../../support/private-ca')

const CLI = path.join(__dirname, '..', '..', '..', 'bin', 'h2bench-load.js')
const N = 20

describe('h2bench load --url … --ca: every origin of the CA trusted, each with a leaf of its own (oha checking it)', function () {
  this.timeout(180000)
  let site = null
  let otherCa = null

  before(async function () {
    try {
      // Caddy's idle timeout short: oha's HTTP/3 client waits for the server to close before it exits, and load's
      // one-request QUIC check allows it 10 s (quic-go's default, Caddy's, is 30 s).
      site = await startCaSite({ caddyOrigins: 2, nginx: true, idleTimeoutS: 2 })
    } catch (err) {
      if (!err.missing) throw err
      process.stdout.write(`      (skipped: ${err.message})\n`)
      this.skip()
    }
    const unrelated = await makePrivateCa({ leaves: [], name: 'an unrelated CA' })
    otherCa = path.join(site.dir, 'other-ca.pem')
    fs.writeFileSync(otherCa, unrelated.caPem)
  })
  after(async () => {
    if (site) await site.close()
  })

  it('each origin, its own leaf: trusted against --ca before the run and by oha, every request done', async () => {
    for (const o of site.origins) {
      const protocols = o.server === 'caddy' ? 'h1,h2,h3' : 'h1,h2'
      const r = await runNode(CLI, ['--url', `${o.url}/data.txt`, '--ca', site.caFile, '--protocols', protocols, '--tool', 'oha', '-n', String(N), '-c', '2', '-m', '5', '--json'])
      const what = `${o.server} ${o.url}: ${r.stderr}`
      assert.equal(r.code, 0, what)
      const report = JSON.parse(r.stdout)
      assert.equal(report.server.certificate.checked, true, what)
      assert.equal(report.server.certificate.trusted, true, what)
      assert.equal(report.server.certificate.subject, o.host, 'the leaf of that origin')
      assert.equal(report.server.certificate.issuer, 'h2bench test private CA')
      assert.deepEqual(report.rows.map(row => row.lane), protocols.split(','), what)
      for (const row of report.rows) {
        assert.equal(row.tool, 'oha', what)
        assert.match(row.command, new RegExp(`--cacert ${site.caFile.replace(/[.]/g, '\\.')}`), 'oha checks it against the CA')
        assert.doesNotMatch(row.command, /--insecure/)
        assert.equal(row.error, null, `${what}: ${row.error}`)
        assert.equal(row.succeeded, N, `${what}: ${JSON.stringify(row)}`)
      }
    }
  })

  it('control: a CA that signed none of them is refused in one line, exit 2', async () => {
    const r = await runNode(CLI, ['--url', `${site.origins[1].url}/data.txt`, '--ca', otherCa, '-n', String(N)])
    assert.equal(r.code, 2, r.stderr)
    assert.match(r.stderr.trimEnd().split('\n').pop(), /its certificate is not trusted .*other-ca\.pem is not it/)
  })
})

'use strict'

// The path of a site behind the link (`site --link`), proved against physics: the TCP that crosses the link is the
// runner's namespace's Linux TCP (harness/splice/splice.c), not slirp4netns's own stack, which offers no window
// scaling (rootless-containers/slirp4netns#171) and so carries at most 64 KiB a round trip on a connection. A page
// of the test's Caddy holding one 4 MiB script, loaded over HTTP/2 (one connection) behind rtt=100ms: through a
// 64 KiB window it could not load in less than 64 round trips (6.4 s); the splice's Linux TCP, slow start from ten
// segments, needs about a dozen. So every load must beat 64 round trips (what the old path could not), and none
// may beat the round trips physics asks (TCP, TLS, the request: 3).
const assert = require('node:assert/strict')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { startSiteBehindNat, outsideNamespaceEnv, throughNat } = require('../../support/site-behind-nat')
const { runNode } = require('../../support/run-node')

const RUN = path.join(__dirname, '..', '..', '..', 'bin', 'h2bench-run.js')
const RTT_MS = 100
const IMAGE_BYTES = 4 * 1024 * 1024
const SLIRP_WINDOW = 64 * 1024

describe(`site --link rtt=${RTT_MS}ms: one 4 MiB response on one HTTP/2 connection through the splice, faster than a 64 KiB window allows`, function () {
  this.timeout(300000)
  let site = null
  let dir = null
  let result = null
  let json = null

  before(async function () {
    site = await startSiteBehindNat(this, { servers: ['caddy'] })
    // A script (a comment of 4 MiB): the load event waits for all of it (an image that does not decode is cut short).
    site.writePage('big.js', `/*${'x'.repeat(IMAGE_BYTES - 4)}*/`)
    site.writePage('big.html', '<!doctype html><title>big</title><link rel="icon" href="data:,"><script src="/big.js"></script>\n')
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'h2bench-site-splice-'))
    // The runner starts itself in a namespace of its own, with the NAT to this one (test/support/site-behind-nat.js).
    const env = outsideNamespaceEnv()
    const url = `${throughNat(site.caddy.url)}big.html`
    result = await runNode(RUN, ['site', '--url', url, '--protocols', 'h2', '--ca', site.caFile, '--link', `rtt=${RTT_MS}ms`, '--repeats', '2', '--out', dir], { env })
    json = JSON.parse(fs.readFileSync(path.join(dir, 'results.json'), 'utf8'))
  })
  after(async () => {
    if (site) await site.close()
    if (dir) fs.rmSync(dir, { recursive: true, force: true })
  })

  it('every cold load: its 4 MiB on one connection in fewer than 64 round trips, and no fewer than 3', () => {
    assert.equal(result.code, 0, result.stderr)
    assert.match(result.stderr, /TCP through a Linux splice \(port \d+\)/)
    const cold = json.results.find(r => r.mode === 'cold')
    assert.equal(cold.failures, 0, cold.note)
    assert.match(cold.site.nat, /TCP spliced/)
    const ceiling = IMAGE_BYTES / SLIRP_WINDOW * RTT_MS
    for (const load of cold.site.loads) {
      const what = `onload ${load.onload} ms, ${load.bodyBytes} body bytes, ${load.newConnections} connections`
      process.stdout.write(`      (${what}: ${(load.onload / RTT_MS).toFixed(1)} round trips; a 64 KiB window needs ${ceiling / RTT_MS})\n`)
      assert.ok(load.bodyBytes >= IMAGE_BYTES, what)
      assert.equal(load.newConnections, 1, what)
      assert.ok(load.onload < ceiling, what)
      assert.ok(load.onload >= 3 * RTT_MS, what)
    }
  })
})

'use strict'

// Record once, replay, through the same link: the replay's fidelity to the
// live site where the path decides (issue 32). A site of three origins and
// 44 resources, served by third-party servers this test starts (the static
// site's Debian nginx for a.fidelity.test, the pinned Caddy on two ports for
// b. and c.fidelity.test; one leaf naming all three), its page on nginx
// naming the other two origins. The names are this test's alone: each
// command runs in a mount namespace of its own with a hosts file over
// /etc/hosts (harness/firefox/hosts.js withHostsFile; the machine's is never
// written). Then:
//   live    `site --link rtt=100ms` over h1 and h2: Chromium behind the link,
//           the names at 10.0.2.2, which is this namespace's loopback seen
//           through the runner's NAT (slirp4netns: harness/site-nat.js);
//   record  `record`, the names at 127.0.0.1 (no link: a recording's server
//           times are its own, the link's round trip is not in them);
//   replay  `replay --link rtt=100ms` over h1 and h2, the servers closed:
//           every origin on the link's own addresses.
// What must hold, per protocol, between the live cold loads and the replayed
// ones: the same requests, the same body bytes, every request answered by the
// replay, the same connections per origin; and the medians of onload, which
// the link's round trips make several hundred milliseconds on both sides,
// within 10 % of each other (printed, with both medians).
const assert = require('node:assert/strict')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { mayBuildHere } = require('../../../link/namespace')
const { mountNamespaceUnavailableReason } = require('../../../harness/firefox')
const { hostsFileText, withHostsFile } = require('../../../harness/firefox/hosts')
const { validateResults } = require('../../../bench/report/runner/results-schema')
const stats = require('../../../shared/stats')
const { startSiteBehindNat, outsideNamespaceEnv, NAT_HOST } = require('../../support/site-behind-nat')
const { runNode } = require('../../support/run-node')

const RUN = path.join(__dirname, '..', '..', '..', 'bin', 'h2bench-run.js')
const PROTOCOLS = ['h1', 'h2']
const RTT_MS = 100
const REPEATS = 5
const NAMES = ['a.fidelity.test', 'b.fidelity.test', 'c.fidelity.test']
const favicon = u => /\/favicon\.ico$/.test(u)

// The page on a.fidelity.test (nginx): a stylesheet and a script of its own, and 14 images from each origin
// (the query string makes each a resource of its own; the servers ignore it), the hero from c.
function multiPage ([a, b, c]) {
  const imgs = (origin, file, tag, n) => Array.from({ length: n }, (_, i) => `<img src="${origin}/${file}?${tag}=${i}" width="40" height="30" alt="">`).join('\n')
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Three origins</title><link rel="icon" href="data:,">
<link rel="stylesheet" href="${a}/style.css"><script src="${a}/app.js" defer></script></head>
<body><p id="status">The script has not run.</p>
${imgs(a, 'photo.png', 'a', 14)}
${imgs(b, 'photo.png', 'b', 14)}
${imgs(c, 'logo.svg', 'c', 13)}
<img src="${c}/hero.png" width="480" height="320" alt="">
</body></html>
`
}

// Runs `node RUN args` with `hostsFile` over /etc/hosts in a mount namespace of its own → { code, stdout, stderr }.
const runWithHosts = (hostsFile, args, env = process.env) => runNode(RUN, args, { env, via: (cmd, argv) => withHostsFile(hostsFile, cmd, argv) })

describe(`record once, replay through the same link: three origins and 44 resources, live and replayed behind rtt=${RTT_MS}ms`, function () {
  this.timeout(900000)
  let site = null
  let dir = null
  let page = null
  let live = null
  let replayed = null

  before(async function () {
    site = await startSiteBehindNat(this, { servers: ['nginx', 'caddy'], names: NAMES, caddyPorts: 2 }, mountNamespaceUnavailableReason() ||
      (!mayBuildHere() ? 'the replay binds the link\'s addresses at port 443: needs test/run.js\'s private namespace' : null))
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'h2bench-replay-fidelity-link-'))
    const origins = [`https://${NAMES[0]}:${site.nginx.port}`, `https://${NAMES[1]}:${site.caddy.ports[0]}`, `https://${NAMES[2]}:${site.caddy.ports[1]}`]
    site.writePage('multi.html', multiPage(origins))
    page = `${origins[0]}/multi.html`
    const hosts = (name, address) => {
      const file = path.join(dir, name)
      fs.writeFileSync(file, hostsFileText([{ address, names: NAMES }]))
      return file
    }
    const check = (r, what) => assert.equal(r.code, 0, `${what}: ${r.stdout}\n${r.stderr}`)
    // The live run starts itself in a namespace of its own, with the NAT to this one (test/support/site-behind-nat.js).
    const env = outsideNamespaceEnv()
    const link = ['--link', `rtt=${RTT_MS}ms`, '--protocols', PROTOCOLS.join(','), '--repeats', String(REPEATS)]
    check(await runWithHosts(hosts('live.hosts', NAT_HOST), ['site', '--url', page, '--ca', site.caFile, ...link, '--out', path.join(dir, 'live')], env), 'live')
    const har = path.join(dir, 'site.har')
    check(await runWithHosts(hosts('record.hosts', '127.0.0.1'), ['record', '--url', page, '--ca', site.caFile, '--out', har]), 'record')
    await site.close()
    site = null
    check(await runWithHosts(hosts('record.hosts', '127.0.0.1'), ['replay', '--har', har, ...link, '--out', path.join(dir, 'replay')]), 'replay')
    const times = JSON.parse(fs.readFileSync(har, 'utf8')).log.entries.map(e => e._h2bench.serverTimeMs)
    process.stdout.write(`      (recorded server times: median ${stats.median(times)} ms, largest ${Math.max(...times)} ms, sum ${times.reduce((a, b) => a + b, 0).toFixed(1)} ms)\n`)
    live = JSON.parse(fs.readFileSync(path.join(dir, 'live', 'results.json'), 'utf8'))
    replayed = JSON.parse(fs.readFileSync(path.join(dir, 'replay', 'results.json'), 'utf8'))
  })
  after(async () => {
    if (site) await site.close()
    if (dir) fs.rmSync(dir, { recursive: true, force: true })
  })

  // The cold row of a run over `protocol`, each load with its HAR's entries less the favicon.
  const coldOf = (json, out, protocol) => {
    const row = json.results.find(r => r.lane === protocol && r.mode === 'cold')
    assert.ok(row, `${out}: no cold row over ${protocol}`)
    assert.equal(row.failures, 0, `${out} ${protocol}: ${row.note}`)
    const loads = row.site.loads.map(load => ({ load, entries: JSON.parse(fs.readFileSync(path.join(dir, out, load.har), 'utf8')).log.entries.filter(e => !favicon(e.request.url)) }))
    return { row, loads }
  }

  it('both runs valid, behind the link, every load good', () => {
    for (const json of [live, replayed]) {
      assert.deepEqual(validateResults(json), [])
      for (const r of json.results) {
        assert.equal(r.failures, 0, `${r.lane} ${r.mode}: ${r.note}`)
        assert.equal(r.repeatsGot, REPEATS, `${r.lane} ${r.mode}`)
        assert.equal(r.network, 'link')
      }
    }
  })

  for (const protocol of PROTOCOLS) {
    it(`over ${protocol}: the same 45 requests (the page and its 44 resources), body bytes and connections per origin, all answered by the replay; onload medians within 10 %`, () => {
      const a = coldOf(live, 'live', protocol)
      const b = coldOf(replayed, 'replay', protocol)
      const urls = x => x.entries.map(e => e.request.url).sort()
      const body = x => x.entries.reduce((n, e) => n + Math.max(0, e.response.bodySize), 0)
      const conns = x => Object.fromEntries(Object.entries(x.load.origins).map(([o, v]) => [o, v.newConnections]))
      const want = urls(a.loads[0])
      assert.equal(want.length, 45, want.join('\n')) // the page and its 44 resources
      assert.equal(new Set(want.map(u => new URL(u).origin)).size, 3)
      for (const x of [...a.loads, ...b.loads]) assert.deepEqual(urls(x), want)
      for (const x of [...a.loads, ...b.loads]) assert.equal(body(x), body(a.loads[0]), `${protocol}: body bytes`)
      for (const x of b.loads) {
        assert.equal(x.load.replay.served, x.entries.length, JSON.stringify(x.load.replay))
        assert.deepEqual(x.load.replay.missed.filter(m => !favicon(m)), [])
      }
      const liveConns = a.loads.map(conns)
      const replayConns = b.loads.map(conns)
      const onload = x => stats.median(x.loads.map(l => l.load.onload))
      const ratio = onload(b) / onload(a)
      const distinct = list => [...new Set(list.map(c => JSON.stringify(Object.values(c))))].join(' or ')
      process.stdout.write(`      (${protocol}: connections per origin live ${distinct(liveConns)}, replayed ${distinct(replayConns)}; ` +
        `onload medians live ${onload(a).toFixed(1)} ms, replayed ${onload(b).toFixed(1)} ms: ${ratio.toFixed(3)}×; ` +
        `loads live ${a.loads.map(l => Math.round(l.load.onload)).join(' ')}, replayed ${b.loads.map(l => Math.round(l.load.onload)).join(' ')})\n`)
      for (const c of replayConns) assert.deepEqual(c, liveConns[0], `${protocol}: connections per origin`)
      for (const c of liveConns) assert.deepEqual(c, liveConns[0], `${protocol}: connections per origin`)
      assert.ok(Math.abs(ratio - 1) <= 0.1, `${protocol}: onload medians live ${onload(a)} ms, replayed ${onload(b)} ms`)
    })
  }
})

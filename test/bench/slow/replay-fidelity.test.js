'use strict'

// Record once, replay: how faithful the replay is to the live site. The tests'
// static site (test/support/static-site.js: Debian's nginx and the pinned
// Caddy on this namespace's 127.0.0.1, one page each, one leaf for both) is
// loaded live by the runner's site experiment over HTTP/1.1 and HTTP/2, then
// recorded by `npm run bench -- record`, the live servers closed, and the
// recording replayed by `npm run bench -- replay` over the same protocols
// (its origins on 127.0.1.x at the recorded ports: the live servers could
// not answer for it even if they still ran). What must hold, per page and
// protocol, between each cold live load and each cold replayed one: the same
// requests, the same body bytes (the recorded encodings kept), every request
// answered by the replay, the same origins, and over HTTP/2 the same
// connections per origin (one each). HTTP/1.1 opens what its parallel
// requests need when they are issued, so there both sides are held to 1…6 per
// origin and printed, not to each other.
const assert = require('node:assert/strict')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { findChrome } = require('../../../harness/chromium')
const { mayBuildHere } = require('../../../link/namespace')
const { validateResults } = require('../../../bench/report/runner/results-schema')
const { startStaticSite } = require('../../support/static-site')
const { runNode } = require('../../support/run-node')

const RUN = path.join(__dirname, '..', '..', '..', 'bin', 'h2bench-run.js')
const PROTOCOLS = ['h1', 'h2']
const favicon = u => /\/favicon\.ico$/.test(u)

describe('record once, replay: the replay of the static site (nginx and Caddy) loads as the live site did', function () {
  this.timeout(600000)
  let site = null
  let dir = null
  let urls = null
  let live = null
  let replayed = null

  before(async function () {
    const why = !findChrome() ? 'no Chromium' : !mayBuildHere() ? 'the replay binds 127.0.1.x: needs test/run.js\'s private namespace' : null
    if (why) {
      process.stdout.write(`      (skipped: ${why})\n`)
      this.skip()
    }
    try {
      site = await startStaticSite({ servers: ['nginx', 'caddy'] })
    } catch (err) {
      if (!err.missing) throw err
      process.stdout.write(`      (skipped: ${err.message})\n`)
      this.skip()
    }
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'h2bench-replay-fidelity-'))
    urls = [site.caddy.url, site.nginx.url]
    const har = path.join(dir, 'site.har')
    const run = async (args, what) => {
      const r = await runNode(RUN, args)
      assert.equal(r.code, 0, `${what}: ${r.stdout}\n${r.stderr}`)
      return r
    }
    await run(['site', ...urls.flatMap(u => ['--url', u]), '--ca', site.caFile, '--protocols', PROTOCOLS.join(','), '--repeats', '1', '--out', path.join(dir, 'live')], 'live')
    await run(['record', ...urls.flatMap(u => ['--url', u]), '--ca', site.caFile, '--out', har], 'record')
    await site.close()
    site = null
    await run(['replay', '--har', har, '--protocols', PROTOCOLS.join(','), '--repeats', '1', '--out', path.join(dir, 'replay')], 'replay')
    live = JSON.parse(fs.readFileSync(path.join(dir, 'live', 'results.json'), 'utf8'))
    replayed = JSON.parse(fs.readFileSync(path.join(dir, 'replay', 'results.json'), 'utf8'))
  })
  after(async () => {
    if (site) await site.close()
    if (dir) fs.rmSync(dir, { recursive: true, force: true })
  })

  // The cold load of `url` over `protocol` in a run's results, with its HAR's entries less the favicon.
  const coldOf = (json, out, url, protocol) => {
    const row = json.results.find(r => r.site.url === url && r.lane === protocol && r.mode === 'cold')
    assert.ok(row, `${out}: no cold row of ${url} over ${protocol}`)
    assert.equal(row.failures, 0, `${out} ${url} ${protocol}: ${row.note}`)
    const [load] = row.site.loads
    const entries = JSON.parse(fs.readFileSync(path.join(dir, out, load.har), 'utf8')).log.entries.filter(e => !favicon(e.request.url))
    return { row, load, entries }
  }

  it('both runs valid, every cold and repeat load good, over the protocol forced', () => {
    assert.deepEqual(validateResults(live), [])
    assert.deepEqual(validateResults(replayed), [])
    assert.equal(replayed.results.length, urls.length * PROTOCOLS.length * 2)
    for (const r of replayed.results) assert.equal(r.failures, 0, `${r.site.url} ${r.lane} ${r.mode}: ${r.note}`)
  })

  for (const protocol of PROTOCOLS) {
    it(`over ${protocol}: per page the same requests, body bytes and origins, all answered by the replay; connections per origin`, () => {
      for (const url of urls) {
        const a = coldOf(live, 'live', url, protocol)
        const b = coldOf(replayed, 'replay', url, protocol)
        const what = `${url} over ${protocol}`
        assert.deepEqual(b.entries.map(e => e.request.url).sort(), a.entries.map(e => e.request.url).sort(), what)
        const body = x => x.entries.reduce((n, e) => n + Math.max(0, e.response.bodySize), 0)
        assert.equal(body(b), body(a), `${what}: body bytes`)
        assert.equal(b.load.replay.served, b.entries.length, `${what}: ${JSON.stringify(b.load.replay)}`)
        assert.deepEqual(b.load.replay.missed.filter(m => !favicon(m)), [], what)
        const conns = x => Object.fromEntries(Object.entries(x.load.origins).map(([o, v]) => [o, v.newConnections]))
        process.stdout.write(`      (${what}: connections per origin live ${JSON.stringify(conns(a))}, replayed ${JSON.stringify(conns(b))})\n`)
        assert.deepEqual(Object.keys(conns(b)).sort(), Object.keys(conns(a)).sort(), what)
        if (protocol === 'h2') assert.deepEqual(conns(b), conns(a), what)
        else for (const n of [...Object.values(conns(a)), ...Object.values(conns(b))]) assert.ok(n >= 1 && n <= 6, `${what}: ${n}`)
        // The replay's own report of its fidelity, against the recording (not the live load): equal requests, per origin too.
        const row = replayed.results.find(r => r.site.url === url && r.lane === protocol && r.mode === 'cold')
        assert.deepEqual([row.replay.fidelity.requestsEqual, row.replay.fidelity.originsEqual], [true, true], `${what}: ${JSON.stringify(row.replay.fidelity)}`)
      }
    })
  }
})

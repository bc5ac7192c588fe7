'use strict'

// The replay experiment's command line (bench/runner/run-args.js replayOf): --har read and checked before anything
// runs, --protocols of the replay's own (h2-spdy and h2e too), and every combination it cannot run refused with one line
// (exit 2), saying why.
const assert = require('node:assert/strict')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { spawnSync } = require('node:child_process')
const { parseRunArgs, HELP } = require('../../bench/runner/run-args')
const { select } = require('../../bench/experiments')
const { planRun, needsOwnNamespace } = require('../../bench/runner/plan')
const { UsageError } = require('../../common/errors')
const { h2benchHar, devtoolsHar } = require('../server/replay/har-fixture')

const RUN = path.join(__dirname, '..', '..', 'bin', 'h2bench-run.js')

describe('runner: replay --har on the command line', () => {
  let dir, har, devtools, notHar
  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'h2bench-replay-args-'))
    har = path.join(dir, 'site.har')
    devtools = path.join(dir, 'devtools.har')
    notHar = path.join(dir, 'not.har')
    fs.writeFileSync(har, JSON.stringify(h2benchHar()))
    fs.writeFileSync(devtools, JSON.stringify(devtoolsHar()))
    fs.writeFileSync(notHar, JSON.stringify({ log: { version: '1.2' } }))
  })
  after(() => fs.rmSync(dir, { recursive: true, force: true }))

  it('--har (made absolute) with its pages and recordedAt; --protocols default h1,h2,h2e,h3 (h3 meets HTTP/2 from its own server), h2-spdy allowed, in registry order', () => {
    const rel = path.relative(process.cwd(), har)
    const o = parseRunArgs(['replay', '--har', rel])
    assert.deepEqual(o.replay, { har, protocols: ['h1', 'h2', 'h2e', 'h3'], pages: ['https://a.example/'], recordedAt: '2026-11-27T10:00:00.000Z' })
    assert.equal(o.site, null)
    assert.deepEqual(parseRunArgs(['replay', '--har', har, '--protocols', 'h3,h2-spdy,h1']).replay.protocols, ['h1', 'h2-spdy', 'h3'])
    assert.deepEqual(parseRunArgs(['replay', '--har', har, '--protocols', 'h3,h2e,h2-spdy,h2']).replay.protocols, ['h2', 'h2-spdy', 'h2e', 'h3'])
    assert.match(HELP.replace(/\s+/g, ' '), /h2e \(HTTP\/2 over TCP from h3's own Caddy: h3 against h2e differs in protocol only\), h3 \(default h1,h2,h2e,h3\)/)
    // A DevTools HAR is replayed too (what it assumed is the rows' to say).
    assert.equal(parseRunArgs(['replay', '--har', devtools]).replay.recordedAt, '2026-11-27T10:00:00.000Z')
    assert.equal(parseRunArgs(['delay']).replay, null)
  })

  it('one cell per recorded page, of kind replay, not in all; the runner goes into its private namespace for it', () => {
    const replay = parseRunArgs(['replay', '--har', har]).replay
    const [experiment] = select(['replay'], { replay })
    assert.deepEqual(experiment.cells, [{ url: 'https://a.example/', preset: 'https://a.example/', har, protocols: ['h1', 'h2', 'h2e', 'h3'] }])
    assert.ok(!select(['all']).some(e => e.id === 'replay'))
    assert.equal(needsOwnNamespace(select(['replay'])), true)
    assert.equal(needsOwnNamespace(select(['delay', 'site'])), false)
    const p = planRun({ ...parseRunArgs(['replay', '--har', har]) }, [experiment])
    assert.equal(p.needs.edge, false) // its HTTP/3 Caddy is the replay's own, built before the namespace (run.js prepare)
    assert.deepEqual(p.passes.map(x => x.browser), ['chromium'])
    assert.ok(p.cells[0].estimateMs > 0)
  })

  it('--browser firefox and both: the cell planned in each browser asked (Firefox by a hosts file in a mount namespace of its own)', () => {
    for (const [browser, passes] of [['firefox', ['firefox']], ['both', ['chromium', 'firefox']]]) {
      const o = parseRunArgs(['replay', '--har', har, '--browser', browser])
      const [experiment] = select(['replay'], { replay: o.replay })
      const p = planRun({ ...o }, [experiment])
      assert.deepEqual(p.passes.map(x => x.browser), passes)
      assert.equal(p.needs.firefox, true)
    }
  })

  it('--link: the cell\'s link (its spec as parsed), the run on the link network; none without it', () => {
    const o = parseRunArgs(['replay', '--har', har, '--link', 'rtt=100ms', '--protocols', 'h2,h3'])
    assert.equal(o.replay.link, 'rtt=100ms')
    assert.deepEqual(o.networks, ['link'])
    const [experiment] = select(['replay'], { replay: o.replay })
    assert.deepEqual(experiment.cells, [{ url: 'https://a.example/', preset: 'https://a.example/', har, protocols: ['h2', 'h3'], link: 'rtt=100ms' }])
    assert.equal(parseRunArgs(['replay', '--har', har]).replay.link, undefined)
    assert.deepEqual(parseRunArgs(['replay', '--har', har]).networks, ['devtools'])
  })

  it('--variants: plain and the variants asked, in the registry\'s order, into the cell and the environment; none without it', () => {
    const o = parseRunArgs(['replay', '--har', har, '--variants', 'early-hints, fifo', '--protocols', 'h2,h3'])
    assert.deepEqual(o.replay.variants, ['plain', 'fifo', 'early-hints'])
    const [experiment] = select(['replay'], { replay: o.replay })
    assert.deepEqual(experiment.cells[0].variants, ['plain', 'fifo', 'early-hints'])
    assert.equal(parseRunArgs(['replay', '--har', har]).replay.variants, undefined)
    assert.match(HELP, /--variants <list> experiment replay: the server's behaviours to replay/)
  })

  it('--help names --har and the replay form', () => {
    assert.match(HELP, /npm run bench -- replay --har <file\.har>/)
    assert.match(HELP, /--har <file>\s+experiment replay: the HAR to replay/)
  })

  for (const [argv, message] of [
    [['replay'], /replay serves a recorded HAR: give --har site.har/],
    [['replay', '--har', '/nonexistent/site.har'], /^--har: cannot read \/nonexistent\/site\.har \(ENOENT\)/],
    [['replay', '--har', 'NOT'], /^--har: .*not\.har: log\.entries is missing: not a HAR 1\.2 that h2bench can replay/],
    [['delay', '--har', 'SITE'], /--har is the replay experiment's: npm run bench -- replay --har site.har/],
    [['replay', 'site', '--har', 'SITE', '--url', 'https://example.com/'], /replay runs alone: --har with site/],
    [['replay', '--har', 'SITE', '--protocols', 'h2,quic'], /--protocols must list h1, h2, h2-spdy, h2e, h3 \(comma-separated\) for replay; got "h2,quic"/],
    [['replay', '--har', 'SITE', '--link', 'rtt=nope'], /^--link: /],
    [['replay', '--har', 'SITE', '--network', 'link'], /replay and --network link/],
    [['replay', '--har', 'SITE', '--ca', 'ca.pem'], /replay and --ca/],
    [['replay', '--har', 'SITE', '--lanes-at', 'https://192.0.2.1:3001'], /replay and --lanes-at/],
    [['replay', '--har', 'SITE', '--variants', 'push'], /--variants must list fifo, rfc9218, early-hints \(comma-separated; plain is always replayed beside them\); got "push"/],
    [['replay', '--har', 'SITE', '--variants', 'early-hints', '--protocols', 'h1,h2-spdy'], /--variants early-hints with --protocols h2-spdy: variant early-hints cannot run over h2-spdy/],
    [['delay', '--variants', 'fifo'], /--variants is the replay experiment's/]
  ]) {
    it(`rejects ${JSON.stringify(argv)}, saying why`, () => {
      const args = argv.map(a => a === 'SITE' ? har : a === 'NOT' ? notHar : a)
      assert.throws(() => parseRunArgs(args), err => err instanceof UsageError && message.test(err.message))
    })
  }

  it('the command exits 2 with one line for a HAR it cannot replay, before anything runs', () => {
    const out = path.join(dir, 'out')
    const r = spawnSync(process.execPath, [RUN, 'replay', '--har', notHar, '--out', out], { encoding: 'utf8' })
    assert.equal(r.status, 2, r.stderr)
    assert.match(r.stderr, /^h2bench-run: --har: .*not\.har: log\.entries is missing/)
    assert.equal(r.stderr.trim().split('\n').length, 1)
    assert.equal(fs.existsSync(out), false)
  })
})

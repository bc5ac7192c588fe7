'use strict'

const assert = require('node:assert/strict')
const path = require('node:path')
const { LANES } = require('../../../server/lanes')
const { runNode } = require('../../support/run-node')

// `npm run soak` is `node bin/h2bench-soak.js`: run the script itself, as the
// server-bench test does.
const SOAK = path.join(__dirname, '..', '..', '..', 'bin', 'h2bench-soak.js')

// The real soak, short (--smoke: 12 s of load): it runs, samples the server
// from both sides, counts failures and gives a verdict. The trend itself is
// not judged here: 12 s of a heap warming up is no soak (exit 1 then is fine,
// as long as the only reasons are about growth).
describe('npm run soak -- --smoke --json (Chromium against every lane, the server in its own process)', function () {
  this.timeout(90000)
  let result = null
  let json = null

  before(async function () {
    this.timeout(90000)
    result = await runNode(SOAK, ['--smoke', '--json'])
    json = /^\{/.test(result.stdout) ? JSON.parse(result.stdout) : null
  })

  it('exits 0 (pass) or 1 (the verdict failed) and prints JSON', () => {
    assert.ok(json, `no JSON on stdout; exit ${result.code}; stderr:\n${result.stderr.slice(-3000)}`)
    assert.ok(result.code === 0 || result.code === 1, `exit code ${result.code}`)
    assert.equal(result.code === 0, json.verdict.pass)
    if (!json.verdict.pass) {
      for (const reason of json.verdict.reasons) assert.match(reason, /^(RSS grew|open fds( \(less the edge pool\))? ranged|the edge pool grew|sockets in CLOSE_WAIT grew)/, 'a failure other than a trend')
    }
  })

  it('samples the server over time: RSS, fds (by kind), event-loop delay, from the server process', () => {
    assert.ok(json.samples.length >= 8, `only ${json.samples.length} samples`)
    assert.ok(json.server.pid > 0 && json.server.pid !== process.pid)
    let last = -1
    for (const s of json.samples) {
      assert.ok(s.t >= last, 'in time order')
      last = s.t
      assert.ok(s.rssMiB > 20 && s.rssMiB < 4096, `RSS ${s.rssMiB}`)
      assert.ok(Number.isInteger(s.fds) && s.fds > 5, `fds ${s.fds}`)
      assert.equal(s.fdKinds.socket + s.fdKinds.pipe + s.fdKinds.anon + s.fdKinds.file, s.fds)
      assert.ok(s.fdKinds.socket >= LANES.length + 1, 'at least the listening sockets')
      const { pool, listen, clients, other } = s.sockets
      assert.equal(pool + listen + clients + other, s.fdKinds.socket, `t=${s.t}: the sockets by owner add up (${JSON.stringify(s.sockets)})`)
      assert.ok(listen >= LANES.length + 1, `t=${s.t}: ${listen} listening: a lane (an edge lane's app) each, and the page`)
      assert.ok(s.loop.p50 >= 0 && s.loop.p50 <= s.loop.p99 && s.loop.p99 <= s.loop.max, JSON.stringify(s.loop))
    }
    assert.ok(json.samples.at(-1).t >= 10, 'samples through the run')
    const pools = json.samples.map(s => s.sockets.pool)
    assert.ok(Math.max(...pools) > pools[0] && Math.max(...pools) <= json.trend.pool.bound, `the edge pool under load: ${Math.max(...pools)} (bound ${json.trend.pool.bound})`)
  })

  it('has the two observers agree: the server\'s own RSS and fds and /proc/<pid> read by the parent', () => {
    for (const s of json.samples) {
      const diff = Math.abs(s.observer.rssMiB - s.rssMiB)
      assert.ok(diff <= Math.max(16, 0.1 * s.rssMiB), `t=${s.t}: RSS ${s.rssMiB} MiB vs VmRSS ${s.observer.rssMiB} MiB`)
      // The two reads are moments apart while a batch opens and closes hundreds of connections (the page's, and
      // Caddy's pool to the edge apps): a few fds either way, more when the machine is busy (seen: 307 against 301
      // at 300 open; 385 against 362 in a full npm test run; 27 apart in one sample of a 30-minute soak). So one
      // sample is held to a quarter (a clean-clone run saw 125 against 141 two seconds in, as the first batch opened
      // its connections), which still catches an observer of the wrong process; the median over the run is held
      // tight (observers.agree: within 2), which catches a constant offset or a kind of fd missed.
      assert.ok(Math.abs(s.observer.fds - s.fds) <= Math.max(16, 0.25 * s.fds), `t=${s.t}: fds ${s.fds} vs ${s.observer.fds}`)
    }
    assert.equal(json.observers.agree, true, JSON.stringify(json.observers))
    assert.ok(json.observers.rssMedianAbsDiffMiB <= 4)
  })

  it('runs page batches on every lane with zero failed requests, by the page and by Chromium', () => {
    assert.equal(json.failed, 0, JSON.stringify(json.perLane))
    assert.equal(json.browserFailed, 0, JSON.stringify(json.browserFailures))
    assert.deepEqual(Object.keys(json.perLane), LANES.map(l => l.name))
    for (const [name, lane] of Object.entries(json.perLane)) {
      // The smoke runs for a fixed time with the lanes in turn: every lane gets its turn (how many depends on the
      // machine's speed: a busy full test run gave h2e one batch of 100 requests).
      assert.ok(lane.batches >= 1 && lane.requests >= 100, `${name}: ${lane.batches} batches, ${lane.requests} requests`)
      assert.equal(lane.failed, 0, name)
      assert.deepEqual(lane.errors, {}, name)
      assert.equal(lane.protocol, LANES.find(l => l.name === name).protocol, name)
    }
    assert.equal(json.totals.requests, Object.values(json.perLane).reduce((n, l) => n + l.requests, 0))
    assert.equal(json.buckets.reduce((n, b) => n + b.requests, 0), json.totals.requests)
  })

  it('gives the verdict with its figures: trend after the warm-up, tolerances, reasons', () => {
    const { trend, verdict } = json
    for (const key of ['pass', 'rssFlat', 'fdsFlat', 'zeroFailures', 'serverAlive']) assert.equal(typeof verdict[key], 'boolean', key)
    assert.ok(Array.isArray(verdict.reasons))
    assert.equal(verdict.zeroFailures, true)
    assert.equal(verdict.serverAlive, true)
    assert.ok(trend.warmupSeconds > 0 && trend.samples >= 3)
    assert.equal(typeof trend.rss.growth, 'number')
    assert.equal(trend.rss.toleranceMiB, Math.max(16, 0.05 * trend.rss.mean))
    assert.equal(trend.fds.spread, trend.fds.max - trend.fds.min)
    assert.match(result.stderr, /VERDICT: (PASS|FAIL)/, 'the report goes to stderr with --json')
    assert.match(result.stderr, /soak 0:0\d\/0:12 .* RSS .* fds .* loop p99 .* failed 0/, 'progress lines on stderr')
  })
})

describe('npm run soak: bad options', () => {
  for (const [args, pattern] of [
    [['--minutes', '-1'], /^soak: --minutes must be a number of minutes from 0\.05 to 1440, e\.g\. 30 or 0\.5; got "-1"$/],
    [['--lanes', 'h1,h4'], /^soak: --lanes: unknown lane "h4"; lanes are h1, h2, h2n, h3, h2e$/],
    [['--minute', '5'], /^soak: Unknown option '--minute'; options are --minutes, /],
    [['--interval', '0'], /^soak: --interval must be a number of seconds from 0\.5 to 300; got "0"$/],
    [['--smoke', '--minutes', '1'], /^soak: --smoke sets its own length/],
    [['--from', 'docs/studies/soak/results.json', '--lanes', 'h1'], /^soak: --from rebuilds a finished soak from what it recorded: leave out --lanes$/],
    [['--from', 'package.json'], /^soak: --from package\.json is not a soak's results\.json/],
    [['--from', 'no/such.json'], /^soak: --from no\/such\.json: no such file$/]
  ]) {
    it(`${args.join(' ')}: one line naming the flag, exit 2`, async () => {
      const r = await runNode(SOAK, args)
      assert.equal(r.code, 2)
      assert.equal(r.stdout, '')
      assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr)
      assert.match(r.stderr.trim(), pattern)
    })
  }

  it('--help lists every option and the verdict\'s tolerances', async () => {
    const r = await runNode(SOAK, ['--help'])
    assert.equal(r.code, 0)
    for (const flag of ['--minutes', '--lanes', '--interval', '--out', '--json', '--smoke', '--from', '--help']) assert.ok(r.stdout.includes(flag), flag)
    assert.match(r.stdout, /5 % of the mean RSS and 16 MiB/)
    assert.match(r.stdout, /at most 8/)
  })
})

describe('npm run soak -- --from (a finished soak judged again)', function () {
  this.timeout(30000)
  const os = require('node:os')
  const fs = require('node:fs')

  it('rebuilds the committed soak\'s trend, verdict and report from its samples, says so, and leaves the measurement alone', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'h2bench-soak-from-'))
    try {
      const from = path.join(__dirname, '..', '..', '..', 'docs', 'studies', 'soak', 'results.json')
      const r = await runNode(SOAK, ['--from', from, '--out', dir])
      const before = JSON.parse(fs.readFileSync(from, 'utf8'))
      const after = JSON.parse(fs.readFileSync(path.join(dir, 'results.json'), 'utf8'))
      assert.equal(r.code, after.verdict.pass ? 0 : 1, r.stderr)
      assert.match(r.stdout, /^Trend, verdict and this report rebuilt \S+ by h2bench .* from the samples recorded/m)
      assert.match(r.stdout, /^VERDICT: (PASS|FAIL)/m)
      for (const key of ['environment', 'samples', 'runs', 'totals', 'perLane', 'durationSeconds', 'failed', 'browserFailed']) {
        assert.deepEqual(after[key], before[key], `${key} is what was measured`)
      }
      assert.equal(after.trend.samples, before.trend.samples)
      assert.ok(after.rebuilt.date && after.rebuilt.h2bench)
      assert.ok(fs.existsSync(path.join(dir, 'report.md')) && fs.existsSync(path.join(dir, 'chart.svg')))
    } finally {
      fs.rmSync(dir, { recursive: true, force: true })
    }
  })
})


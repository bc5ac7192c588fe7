'use strict'

const assert = require('node:assert/strict')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { spawnSync } = require('node:child_process')
const { parseRunArgs, HELP } = require('../../bench/runner/run-args')
const { UsageError } = require('../../common/errors')

const RUN = path.join(__dirname, '..', '..', 'bin', 'h2bench-run.js')

describe('runner: command line', () => {
  it('defaults: every lane, 10 repeats as the source, a 2 min budget, results/<timestamp>', () => {
    const { seeding, ...rest } = parseRunArgs(['delay'])
    assert.deepEqual(rest, {
      help: false, experiments: ['delay'], repeats: 10, budgetMs: 120000, lanes: ['h1', 'h2', 'h2n', 'h3', 'h2e'], networks: ['devtools'], browsers: ['chromium'], cells: null, shard: null, lanesAt: null, token: null, site: null, replay: null, out: null, json: false, smoke: false
    })
    // The link's seed: a new one each run, paired (every lane of a repeat on seed + repeat).
    assert.ok(Number.isSafeInteger(seeding.seed) && seeding.seed >= 0 && seeding.paired === true, JSON.stringify(seeding))
    assert.notEqual(parseRunArgs(['delay']).seeding.seed, seeding.seed)
  })

  it('--cells: names separated by |, as the report names them', () => {
    assert.deepEqual(parseRunArgs(['h2load-netem', '--cells', 'clean| loss 30 %']).cells, ['clean', 'loss 30 %'])
    assert.throws(() => parseRunArgs(['h2load-netem', '--cells', '|']), /--cells needs one or more cell names separated by \|; got "\|"/)
  })

  it('--seed n and --unpaired: the link seed of repeat r is n + r for every lane; unpaired, one per lane and repeat', () => {
    const { seedOf } = require('../../bench/cells/helpers')
    const paired = parseRunArgs(['rest', '--network', 'link', '--seed', '42']).seeding
    assert.deepEqual(paired, { seed: 42, paired: true })
    assert.deepEqual([0, 1, 2].map(lane => seedOf(paired, 3, lane)), [45, 45, 45])
    const unpaired = parseRunArgs(['rest', '--network', 'link', '--seed', '42', '--unpaired']).seeding
    assert.deepEqual([0, 1, 2].map(lane => seedOf(unpaired, 3, lane)), [3043, 3044, 3045])
    assert.equal(seedOf(null, 3, 0), null)
    assert.throws(() => parseRunArgs(['rest', '--seed', '4.5']), /--seed must be an integer 0…281474976710656; got "4.5"/)
  })

  it('--browser: chromium (default), firefox, or both side by side', () => {
    assert.deepEqual(parseRunArgs(['rest']).browsers, ['chromium'])
    assert.deepEqual(parseRunArgs(['rest', '--browser', 'firefox']).browsers, ['firefox'])
    assert.deepEqual(parseRunArgs(['rest', '--browser', 'both']).browsers, ['chromium', 'firefox'])
    assert.throws(() => parseRunArgs(['rest', '--browser', 'safari']), /--browser must be chromium, firefox or both; got "safari"/)
  })

  it('--network: devtools, link, or both side by side', () => {
    assert.deepEqual(parseRunArgs(['network', '--network', 'link']).networks, ['link'])
    assert.deepEqual(parseRunArgs(['network', '--network', 'both']).networks, ['devtools', 'link'])
  })

  it('takes several experiments, all, and every option', () => {
    const o = parseRunArgs(['size', 'network', '--repeats', '3', '--lanes', 'h2n,h1', '--out', 'x/y', '--json', '--budget', '90s'])
    assert.deepEqual(o.experiments, ['size', 'network'])
    assert.equal(o.repeats, 3)
    assert.deepEqual(o.lanes, ['h1', 'h2n'])
    assert.equal(o.out, 'x/y')
    assert.equal(o.json, true)
    assert.equal(o.budgetMs, 90000)
    assert.deepEqual(parseRunArgs(['all']).experiments, ['all'])
  })

  it('--budget: bare seconds, s, m or min', () => {
    assert.equal(parseRunArgs(['delay', '--budget', '45']).budgetMs, 45000)
    assert.equal(parseRunArgs(['delay', '--budget', '2m']).budgetMs, 120000)
    assert.equal(parseRunArgs(['delay', '--budget', '1.5min']).budgetMs, 90000)
  })

  it('--smoke: one repeat unless --repeats says otherwise', () => {
    assert.equal(parseRunArgs(['all', '--smoke']).repeats, 1)
    assert.equal(parseRunArgs(['all', '--smoke', '--repeats', '2']).repeats, 2)
  })

  it('--from rebuilds a finished run\'s report and takes no experiments', () => {
    assert.deepEqual(parseRunArgs(['--from', 'docs/results/x/results.json']), { help: false, from: 'docs/results/x/results.json', out: null, json: false })
    assert.throws(() => parseRunArgs(['delay', '--from', 'r.json']), /--from rebuilds the report of a finished run: name no experiments with it \(got delay\)/)
  })

  it('site: --url (repeatable, https), --protocols (default h1,h2,h3, in that order), --ca (a path, made absolute)', () => {
    const o = parseRunArgs(['site', '--url', 'https://example.com/a', '--url', 'https://example.org', '--protocols', 'h3,h1', '--ca', 'ca.pem', '--browser', 'both'])
    assert.deepEqual(o.site, { urls: ['https://example.com/a', 'https://example.org/'], protocols: ['h1', 'h3'], ca: path.resolve('ca.pem'), link: null })
    assert.deepEqual(o.browsers, ['chromium', 'firefox'])
    assert.deepEqual(parseRunArgs(['site', '--url', 'https://example.com/']).site.protocols, ['h1', 'h2', 'h3'])
    assert.equal(parseRunArgs(['delay']).site, null)
    // --link: the page behind the packet-level link (the runner then runs in a namespace of its own, with a way out).
    const linked = parseRunArgs(['site', '--url', 'https://example.com/', '--link', 'rtt=100ms,down=5mbit'])
    assert.equal(linked.site.link, 'rtt=100ms,down=5mbit')
    assert.deepEqual(linked.networks, ['link'])
  })

  it('--help wins over everything else', () => {
    assert.deepEqual(parseRunArgs(['--help', 'nonsense']), { help: true })
    assert.deepEqual(parseRunArgs(['-h']), { help: true })
    for (const id of ['delay', 'count-10ms', 'count-30ms', 'size', 'network', 'network-current', 'push', 'push-protocol']) assert.ok(HELP.includes(id), id)
  })

  for (const [argv, message] of [
    [[], /name one or more experiments \(delay, .*\) or all/],
    [['delays'], /unknown experiment "delays"; experiments are delay, count-10ms, .*, or all/],
    [['delay', '--repeats', '0'], /--repeats must be an integer 1…100; got "0"/],
    [['delay', '--repeats', '2.5'], /--repeats must be an integer 1…100; got "2.5"/],
    [['delay', '--repeats', '101'], /--repeats must be an integer 1…100/],
    [['delay', '--lanes', 'h4'], /--lanes: unknown lane "h4"; lanes are h1, h2, h2n, h3, h2e/],
    [['delay', '--lanes', ','], /--lanes needs at least one of h1, h2, h2n, h3, h2e/],
    [['delay', '--budget', 'soon'], /--budget must be a time up to 24 h, in seconds \(90, 90s\) or minutes \(2m, 1.5min\); got "soon"/],
    [['delay', '--budget', '0'], /--budget must be/],
    [['delay', '--repeat', '3'], /Unknown option '--repeat'; options are --repeats, --budget, --lanes, --network, --browser, --cells, --seed, --unpaired, --shard, --lanes-at, --token, --url, --protocols, --ca, --allow-failed, --har, --variants, --visual, --link, --out, --json, --smoke, --from, --help/],
    [['delay', '--network', 'netem'], /--network must be devtools, link or both; got "netem"/],
    [['delay', '--repeats'], /--repeats.*argument missing|argument missing.*--repeats|--repeats <value>/],
    [['site'], /site measures a page of yours: give --url https:\/\/…/],
    [['delay', '--url', 'https://a.example/'], /--url is the site experiment's: npm run bench -- site --url/],
    [['delay', '--protocols', 'h1'], /--protocols is the site experiment's/],
    [['site', '--url', 'example.com'], /--url "example.com" is not a URL; give the page's https:\/\/ address/],
    [['site', '--url', 'http://example.com/'], /--url http:\/\/example.com\/: HTTP\/2 and HTTP\/3 in browsers need https:\/\/; got http:/],
    [['site', '--url', 'https://example.com/', '--protocols', 'h2,quic'], /--protocols must list h1, h2, h3 \(comma-separated\); got "h2,quic"/],
    [['site', '--url', 'https://example.com/', '--network', 'link'], /site and --network link: the site experiment measures the real path to --url, or that path behind a link of --link <spec>/],
    [['site', '--url', 'https://example.com/', '--link', 'rtt=4x'], /--link: rtt: unknown time unit "x" in "4x"/],
    [['delay', '--link', 'rtt=40ms'], /--link is the site experiment's/],
    [['site', '--url', 'https://example.com/', '--lanes-at', 'https://192.0.2.1:3001'], /site and --lanes-at: the site experiment measures --url, not lanes/]
  ]) {
    it(`rejects ${JSON.stringify(argv)}, naming what is wrong and what is allowed`, () => {
      assert.throws(() => parseRunArgs(argv), err => err instanceof UsageError && message.test(err.message))
    })
  }

  it('the command exits 2 with one line on stderr for bad arguments, 0 with usage for --help', () => {
    const bad = spawnSync(process.execPath, [RUN, 'delay', '--lanes', 'h9'], { encoding: 'utf8' })
    assert.equal(bad.status, 2)
    assert.equal(bad.stderr, 'h2bench-run: --lanes: unknown lane "h9"; lanes are h1, h2, h2n, h3, h2e\n')
    assert.equal(bad.stdout, '')
    const help = spawnSync(process.execPath, [RUN, '--help'], { encoding: 'utf8' })
    assert.equal(help.status, 0)
    assert.match(help.stdout, /^Usage: npm run bench -- <experiment…\|all> \[options\]/)
  })

  it('site: a page whose origin answers no TCP connect stops the run before any browser starts: exit 2, one line, nothing written', () => {
    const out = path.join(os.tmpdir(), `h2bench-site-unreachable-${process.pid}`)
    const net = require('node:net')
    const server = net.createServer()
    // A port that was free a moment ago: nothing listens on it.
    return new Promise(resolve => server.listen(0, '127.0.0.1', resolve)).then(() => {
      const port = server.address().port
      server.close()
      const r = spawnSync(process.execPath, [RUN, 'site', '--url', `https://127.0.0.1:${port}/`, '--out', out], { encoding: 'utf8' })
      assert.equal(r.status, 2, r.stderr)
      assert.equal(r.stderr.split('\n').filter(l => /^h2bench-run:/.test(l)).join('\n'), `h2bench-run: --url https://127.0.0.1:${port}/: cannot reach 127.0.0.1:${port} over TCP (nothing listens there); check the address, or measure HTTP/3 alone with --protocols h3`)
      assert.ok(!fs.existsSync(out))
    })
  })

  it('an experiment that runs only behind a link, asked without --network link: one line saying what to add, nothing else about it', () => {
    const out = fs.mkdtempSync(path.join(os.tmpdir(), 'h2bench-rest-skip-'))
    try {
      const r = spawnSync(process.execPath, [RUN, 'rest', '--smoke', '--out', out], { encoding: 'utf8' })
      assert.equal(r.status, 0, r.stderr)
      assert.deepEqual(r.stderr.split('\n').filter(l => /^rest/.test(l)), ['rest: skipped, it runs only with --network link'])
      assert.doesNotMatch(r.stderr, /not in chromium/)
    } finally {
      fs.rmSync(out, { recursive: true, force: true })
    }
  })

  it('--visual: the site experiment\'s and the replay\'s, carried into site\'s cells; refused elsewhere, naming both', () => {
    const { select } = require('../../bench/experiments')
    const opts = parseRunArgs(['site', '--url', 'https://example.com/', '--visual'])
    assert.equal(opts.site.visual, true)
    assert.equal(select(['site'], { site: opts.site })[0].cells[0].visual, true)
    assert.equal('visual' in parseRunArgs(['site', '--url', 'https://example.com/']).site, false)
    assert.throws(() => parseRunArgs(['delay', '--visual']), err => err instanceof UsageError && /--visual is the site and replay experiments'/.test(err.message))
    assert.match(HELP, /--visual +experiments site and replay, Chromium: trace each load with screenshots/)
  })
})


'use strict'

const assert = require('node:assert/strict')
const path = require('node:path')
const { parseLoadArgs, DEFAULTS } = require('../../../load/cli')
const { planTools, LoadError } = require('../../../load/load')
const { loadPreset } = require('../../../load/presets')
const { laneByName } = require('../../../server/lanes')
const { InputError } = require('../../../common/errors')
const { runNode } = require('../../support/run-node')

const ROOT = path.join(__dirname, '..', '..', '..')
const CLI = path.join(ROOT, 'bin', 'h2bench-load.js')
const SERVER = path.join(ROOT, 'bin', 'h2bench.js')

// parseLoadArgs(argv) throws one InputError whose message is one line
// matching every pattern in `res` (the flag at fault, and what is allowed).
function refused (argv, ...res) {
  assert.throws(() => parseLoadArgs(argv), err => {
    assert.ok(err instanceof InputError, `${argv.join(' ')}: an InputError, not ${err && err.stack}`)
    assert.doesNotMatch(err.message, /\n/, 'one line')
    for (const re of res) assert.match(err.message, re, argv.join(' '))
    return true
  })
}

const WORKLOAD = { requests: 100, connections: 10, muxConnections: 10, streams: 100, threads: 1, size: 612, delay: 0 }

// A CLI run that must be refused: exit code 2, one line on stderr naming
// the fault, nothing on stdout, no stack trace.
async function cliRefuses (script, args, re) {
  const r = await runNode(script, args)
  assert.equal(r.code, 2, `exit code of ${args.join(' ')}: ${r.stderr}`)
  assert.equal(r.stdout, '', 'nothing on stdout')
  const lines = r.stderr.trimEnd().split('\n')
  assert.equal(lines.length, 1, `one line on stderr, got:\n${r.stderr}`)
  assert.match(lines[0], /^h2bench load: /)
  assert.match(lines[0], re)
  assert.doesNotMatch(r.stderr, /^\s+at /m, 'no stack trace')
}

describe('h2bench load: its options (load/cli.js parseLoadArgs)', () => {
  describe('defaults and presets', () => {
    it('without options: the defaults, every lane, no link, no tool chosen', () => {
      const o = parseLoadArgs([])
      assert.deepEqual(o.workload, { ...DEFAULTS, muxConnections: DEFAULTS.connections })
      assert.equal(o.lanes, null)
      assert.deepEqual(o.urls, [])
      assert.deepEqual(o.tools, {})
      assert.deepEqual(o.links, [null])
      assert.equal(o.preset, null)
      assert.equal(o.timeoutS, 300)
      assert.equal(o.trace, false)
      assert.equal(o.json, false)
    })

    it('-h and --help: help, nothing else checked', () => {
      assert.deepEqual(parseLoadArgs(['--help']), { help: true })
      assert.deepEqual(parseLoadArgs(['-h', '-n', 'zero']), { help: true })
    })

    it('the workload options, the tools by lane and by protocol, lanes de-duplicated', () => {
      const o = parseLoadArgs(['-n', '200', '-c', '4', '-m', '50', '-t', '2', '--size', '10kb', '--delay', '5', '--lanes', 'h1,h2n,h1',
        '--tool', 'h1=ab', '--tool', 'nghttp', '--tool', 'h3=oha', '--timeout', '60', '--trace', '--json'])
      assert.deepEqual(o.workload, { requests: 200, connections: 4, muxConnections: 4, streams: 50, pipeline: 1, threads: 2, size: 10240, delay: 5 })
      assert.deepEqual(o.lanes, ['h1', 'h2n'])
      assert.deepEqual(o.tools, { h1: 'ab', h2: 'nghttp', h3: 'oha' }) // a bare tool name: each protocol it speaks
      assert.equal(o.timeoutS, 60)
      assert.equal(o.trace, true)
      assert.equal(o.json, true)
      assert.equal(parseLoadArgs(['-c', '4', '--mux-connections', '1']).workload.muxConnections, 1)
    })

    it('--preset ab-vs-nghttp: seed 002\'s workload, tools and link', () => {
      const o = parseLoadArgs(['--preset', 'ab-vs-nghttp'])
      assert.equal(o.preset, loadPreset('ab-vs-nghttp'))
      assert.deepEqual(o.workload, { requests: 100, connections: 10, muxConnections: 1, streams: 100, pipeline: 1, threads: 1, size: 160, delay: 0 })
      assert.deepEqual(o.presetTools, { 'http/1.1': 'ab', h2: 'nghttp', h3: 'oha' })
      assert.deepEqual(o.links, ['rtt=500ms'])
    })

    it('options beside a preset win; the preset\'s one connection for nghttp stays beside -c', () => {
      const o = parseLoadArgs(['--preset', 'ab-vs-nghttp', '-n', '20', '-c', '5', '--size', '612', '--link', 'rtt=10ms', '--tool', 'h2=h2load'])
      assert.deepEqual(o.workload, { requests: 20, connections: 5, muxConnections: 1, streams: 100, pipeline: 1, threads: 1, size: 612, delay: 0 })
      assert.deepEqual(o.links, ['rtt=10ms'])
      assert.deepEqual(o.tools, { h2: 'h2load' })
      assert.equal(parseLoadArgs(['--preset', 'ab-vs-nghttp', '--mux-connections', '3']).workload.muxConnections, 3)
    })

    it('--preset h2load-netem-table: one link per row of the source\'s table', () => {
      const o = parseLoadArgs(['--preset', 'h2load-netem-table'])
      assert.equal(o.links.length, 8)
      assert.equal(o.links[0], 'none')
      // Seed 004's table is 10,000 requests (time × req/s), HTTP/1.1 pipelined 100 deep (h2load --h1 -m 100).
      assert.deepEqual(o.workload, { requests: 10000, connections: 100, muxConnections: 100, streams: 100, pipeline: 100, threads: 10, size: 612, delay: 0 })
      assert.deepEqual(parseLoadArgs(['--preset', 'h2load-netem', '--link', 'quic-loss']).links, ['quic-loss'])
    })
  })

  it("--pipeline: h2load's --h1 keeps that many requests in flight per connection (-m); the HTTP/2 lanes keep -m's streams", () => {
    const { toolByName } = require('../../../load/tools')
    const o = parseLoadArgs(['--pipeline', '16', '-m', '32'])
    assert.equal(o.workload.pipeline, 16)
    const h2load = toolByName('h2load')
    const args = protocol => h2load.command({ url: 'https://x/option', protocol, ...o.workload, logFile: '/tmp/x' }).args.join(' ')
    assert.match(args('http/1.1'), / -m 16 --h1 /)
    assert.match(args('h2'), / -m 32 --log-file/)
    assert.match(h2load.command({ url: 'https://x/option', protocol: 'http/1.1', ...parseLoadArgs([]).workload, logFile: '/tmp/x' }).args.join(' '), / -m 1 --h1 /)
  })

  describe('refused, in one line naming the flag and what is allowed', () => {
    it('an unknown lane (--lanes, --tool LANE=)', () => {
      refused(['--lanes', 'h1,h9'], /--lanes/, /unknown lane "h9"/, /lanes are h1, h2, h2n, h3, h2e/)
      refused(['--lanes', ','], /--lanes needs at least one of h1, h2, h2n, h3, h2e/)
      refused(['--tool', 'h9=ab'], /--tool "h9=ab"/, /unknown lane "h9"/, /lanes are h1, /)
    })

    it('an unknown tool, or a --tool that is not LANE=TOOL', () => {
      refused(['--tool', 'wrk'], /--tool "wrk"/, /unknown tool "wrk"/, /tools are ab, h2load, nghttp, oha/)
      refused(['--tool', 'h1=wrk'], /--tool "h1=wrk"/, /unknown tool "wrk"/, /tools are ab, h2load, nghttp, oha/)
      refused(['--tool', 'h1=ab=x'], /--tool "h1=ab=x"/, /LANE=TOOL/, /tools are ab, /)
    })

    it('an unknown preset', () => {
      refused(['--preset', 'wrk-vs-ab'], /--preset/, /unknown preset "wrk-vs-ab"/, /presets are ab-vs-nghttp, h2load-netem, h2load-netem-table/)
    })

    it('-n fewer than -c (or than a preset\'s -c)', () => {
      refused(['-n', '5', '-c', '10'], /-n 5 is fewer than -c 10/, /give -n ≥ 10/)
      refused(['--preset', 'ab-vs-nghttp', '-n', '5'], /-n 5 is fewer than -c 10/)
    })

    it('what is not a whole number', () => {
      refused(['-n', 'ten'], /-n\/--requests must be a whole number 1…1000000; got "ten"/)
      refused(['-c', '1.5'], /-c\/--connections must be a whole number 1…1000; got "1.5"/)
      refused(['-m', '1e3'], /-m\/--streams must be a whole number 1…1000/)
      refused(['--pipeline', '0'], /--pipeline must be 1…1000; got 0/)
      refused(['--requests=-5'], /-n\/--requests must be a whole number/)
      refused(['-n', '-5'], /'-n'/) // node:util parseArgs: an option's value cannot start with "-"
      refused(['--delay', '1s'], /--delay must be a whole number 0…60000/)
      refused(['--timeout', 'forever'], /--timeout must be a whole number 1…3600/)
      refused(['--seed', 'x'], /--seed must be a whole number/)
      refused(['--size', 'big'], /--size: /)
    })

    it('what is out of range', () => {
      refused(['-c', '0'], /-c\/--connections must be 1…1000; got 0/)
      refused(['-n', '1000001'], /-n\/--requests must be 1…1000000; got 1000001/)
      refused(['-m', '1001'], /-m\/--streams must be 1…1000; got 1001/)
      refused(['-t', '65'], /-t\/--threads must be 1…64; got 65/)
      refused(['--mux-connections', '0'], /--mux-connections must be 1…1000; got 0/)
      refused(['--delay', '60001'], /--delay must be 0…60000; got 60001/)
      refused(['--timeout', '0'], /--timeout must be 1…3600; got 0/)
    })

    it('an unknown option or a positional argument', () => {
      refused(['--bogus'], /--bogus/, /see h2bench load --help/)
      refused(['h1'], /h1/, /see h2bench load --help/)
    })

    it('--link with --url, --lanes with --url', () => {
      refused(['--link', 'rtt=100ms', '--url', 'https://127.0.0.1:3001/'], /--link needs lanes started by h2bench load: leave out --url/)
      refused(['--preset', 'ab-vs-nghttp', '--url', 'https://127.0.0.1:3001/'], /--link needs lanes started by h2bench load/)
      refused(['--lanes', 'h1', '--url', 'https://127.0.0.1:3001/'], /--lanes and --url: give one of them/)
    })

    it('a server that is not a lane: --protocols (h1, h2, h3, in that order), --ca or --insecure, each with --url only', () => {
      const o = parseLoadArgs(['--url', 'https://127.0.0.1:8443/x', '--protocols', 'h3,h1', '--insecure'])
      assert.deepEqual([o.protocols, o.insecure, o.ca, o.responseFlags], [['http/1.1', 'h3'], true, null, []])
      assert.equal(parseLoadArgs(['--url', 'https://127.0.0.1:8443/x']).protocols, null, 'what it offers, probed')
      assert.deepEqual(parseLoadArgs(['--url', 'https://127.0.0.1:8443/x', '--size', '1kb', '--delay', '5']).responseFlags, ['--size', '--delay'])
      refused(['--url', 'https://127.0.0.1:8443/x', '--protocols', 'h1,quic'], /^--protocols: unknown protocol "quic"; protocols are h1, h2, h3/)
      refused(['--url', 'https://127.0.0.1:8443/x', '--protocols', ','], /^--protocols ",": give one or more of h1, h2, h3/)
      refused(['--protocols', 'h2'], /^--protocols: for a server given by --url that is not an h2bench lane; add --url/)
      refused(['--insecure', '--lanes-at', 'https://127.0.0.1:3001'], /^--insecure: for a server given by --url/)
      refused(['--url', 'https://127.0.0.1:8443/x', '--ca', '/nonexistent.pem'], /^--ca \/nonexistent\.pem: cannot read it \(ENOENT\)/)
    })

    it('--link with the preset that runs its own links', () => {
      refused(['--preset', 'h2load-netem-table', '--link', 'rtt=100ms'], /--link and --preset h2load-netem-table/, /use --preset h2load-netem --link/)
    })

    it('a bad link spec: the key at fault and what it allows', () => {
      for (const [spec, re] of [['rtt=fast', /rtt: "fast" is not a time; allowed: /], ['loss=200%', /loss/], ['nosuchkey=1', /nosuchkey/], ['no-such-preset', /no-such-preset/]]) {
        assert.throws(() => parseLoadArgs(['--link', spec]), err => {
          assert.ok(err instanceof InputError, `--link ${spec}: an InputError, not ${err && err.stack}`)
          assert.doesNotMatch(err.message, /\n/)
          assert.match(err.message, /^--link: /)
          assert.match(err.message, re)
          return true
        })
      }
    })
  })

  describe('the tool for each lane (load/load.js planTools), before anything starts', () => {
    const plan = (names, tools, workload = WORKLOAD) => planTools(names.map(laneByName), { tools, workload })
    const planRefused = (names, tools, re, workload) => assert.rejects(plan(names, tools, workload), err => {
      assert.ok(err instanceof LoadError, `a LoadError, not ${err && err.stack}`)
      assert.doesNotMatch(err.message, /\n/)
      assert.match(err.message, re)
      return true
    })

    it('a tool that cannot speak the lane\'s protocol names both and the tools that can', async () => {
      await planRefused(['h3'], { h3: 'ab' }, /^ab cannot load lane h3: it speaks HTTP\/1\.1, the lane HTTP\/3; tools for it: oha$/)
      await planRefused(['h1'], { h1: 'nghttp' }, /^nghttp cannot load lane h1: it speaks HTTP\/2, the lane HTTP\/1\.1; tools for it: ab, h2load, oha$/)
      await planRefused(['h2e'], { h2: 'ab' }, /^ab cannot load lane h2e: .*tools for it: h2load, nghttp, oha$/)
      await planRefused(['h3'], { h3: 'h2load' }, /^h2load cannot load lane h3: it speaks HTTP\/1\.1 and HTTP\/2, the lane HTTP\/3/)
    })

    it('nghttp (one connection per run) needs --mux-connections 1', async () => {
      await planRefused(['h2'], { h2: 'nghttp' }, /nghttp opens one connection per run: give --mux-connections 1 for lane h2, or use h2load there \(--tool h2=h2load\)/)
    })

    it('the defaults: h2load for HTTP/1.1 and HTTP/2; a lane\'s own tool wins over its protocol\'s', async () => {
      const p = await plan(['h1', 'h2', 'h2n'], { h1: 'ab', h2: 'nghttp', h2n: 'h2load' }, { ...WORKLOAD, muxConnections: 1 })
      assert.deepEqual(p.map(x => [x.lane.name, x.tool.name]), [['h1', 'ab'], ['h2', 'nghttp'], ['h2n', 'h2load']])
      for (const x of p) assert.match(x.version, /^\d+\.\d+/, `${x.tool.name} --version`)
      const d = await plan(['h1', 'h2e'], {})
      assert.deepEqual(d.map(x => x.tool.name), ['h2load', 'h2load'])
    })
  })

  describe('the command (exit code 2, one line on stderr, nothing on stdout)', function () {
    this.timeout(20000)

    it('node load/cli.js with an unknown lane', () => cliRefuses(CLI, ['--lanes', 'h1,h9'], /--lanes: unknown lane "h9"/))

    it('node load/cli.js with a tool that cannot speak the lane\'s protocol', () => cliRefuses(CLI, ['--lanes', 'h3', '--tool', 'h3=ab'], /ab cannot load lane h3: .*tools for it: oha/))

    it('node load/cli.js with an unknown option', () => cliRefuses(CLI, ['--bogus'], /--bogus/))

    it('node bin/h2bench.js load with -n fewer than -c, and with a bad link spec', async () => {
      await cliRefuses(SERVER, ['load', '-n', '5', '-c', '10'], /-n 5 is fewer than -c 10/)
      await cliRefuses(SERVER, ['load', '--link', 'rtt=fast'], /--link: rtt: "fast" is not a time/)
    })

    it('--help: the usage on stdout, exit code 0', async () => {
      for (const [script, args] of [[CLI, ['--help']], [SERVER, ['load', '-h']]]) {
        const r = await runNode(script, args)
        assert.equal(r.code, 0, r.stderr)
        assert.match(r.stdout, /^Usage: h2bench load \[options\]/)
        assert.match(r.stdout, /--mux-connections/)
        assert.match(r.stdout, /ab-vs-nghttp/)
        assert.equal(r.stderr, '')
      }
    })
  })
})

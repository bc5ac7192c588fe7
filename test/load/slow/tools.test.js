'use strict'

const assert = require('node:assert/strict')
const fs = require('node:fs')
const path = require('node:path')
const { TOOLS, toolFor } = require('../../../load/tools')
const { laneByName } = require('../../../server/lanes')

// Fixtures: real output, captured from the lanes of `node bin/h2bench.js
// --port 3200 --h1-port 3201 … --h3-port 3204` (ab 2.3, nghttp2 1.52's
// h2load and nghttp, oha 1.16.0 built by tools/oha, Caddy 2.11.9), with
// U='/option?size=612&ledger=x'; port 3299 had nothing listening:
//   ab-h1-n20-c4.txt                 ab -s 30 -n 20 -c 4 https://127.0.0.1:3201$U (stdout; stderr empty)
//   ab-dead-port.txt, .stderr.txt    the same on :3299 (ab exits 0 and says "Complete requests: 20")
//   h2load-h2-n20-c4-m5.txt, .log.tsv  h2load -t 1 -c 4 -n 20 -m 5 --log-file … https://127.0.0.1:3202$U
//   h2load-h1-n20-c4.txt, .log.tsv   h2load -t 1 -c 4 -n 20 -m 1 --h1 --log-file … https://127.0.0.1:3201$U
//   h2load-dead-port.txt             h2load -t 1 -c 4 -n 20 -m 5 on :3299 (log file empty)
//   nghttp-h2n-s-m10.txt, .stderr.txt  nghttp -n -s -m 10 https://127.0.0.1:3203$U
//   nghttp-dead-port.txt, .stderr.txt  the same on :3299 (nghttp exits 0!)
//   oha-h3-n20-c2-p5.csv             oha --no-tui --output-format csv --insecure --http-version 3 -n 20 -c 2 -p 5 -t 30s https://127.0.0.1:3204$U
//   oha-h3-timeout36ms-delay30.csv   the same with -t 36ms on /option?size=612&delay=30&ledger=x: 16 of 20 in time
// and ../load-trace/nghttp-h2n-m10.txt (nghttp -nv -m 10, load --trace's run).
const FIXTURES = path.join(__dirname, '..', '..', 'fixtures', 'load-tools')
const fixture = name => fs.readFileSync(path.join(FIXTURES, name), 'utf8')
const { ab, h2load, nghttp, oha } = TOOLS

// The percentiles are ordered and inside the run's own latencies.
function ordered (latency, { min, max }) {
  assert.ok(latency, 'latency percentiles')
  assert.ok(min <= latency.p50 && latency.p50 <= latency.p90 && latency.p90 <= latency.p99 && latency.p99 <= latency.max, JSON.stringify(latency))
  assert.equal(latency.max, max)
}

// parse() of output that is not the tool's: an Error naming the tool.
function unreadable (tool, args, re) {
  assert.throws(() => tool.parse(args), err => {
    assert.ok(err instanceof Error)
    assert.match(err.message, new RegExp(`^${tool.name} printed no `))
    if (re) assert.match(err.message, re)
    return true
  })
}

describe('h2bench load: the tools\' output (load/tools/*.js) on real captures', () => {
  describe('ab (ApacheBench)', () => {
    it('a clean run: ab\'s total, 20 of 20, whole-ms percentiles, its transfer rate', () => {
      const r = ab.parse({ stdout: fixture('ab-h1-n20-c4.txt'), stderr: '', requests: 20 })
      assert.equal(r.totalMs, 57) // Time taken for tests:   0.057 seconds
      assert.equal(r.asked, 20)
      assert.equal(r.succeeded, 20) // Complete requests: 20, Failed requests: 0
      assert.equal(r.failed, 0)
      assert.deepEqual(r.latency, { p50: 9, p90: 12, p99: 12, max: 12 }) // 50% 9, 90% 12, 99% 12, 100% 12 (longest request)
      assert.equal(r.toolBytesPerSec, 359.22 * 1024) // Transfer rate: 359.22 [Kbytes/sec]
      assert.match(r.notes.join(' '), /whole ms/)
      // Its own connection count: none printed; without -k one per answered request.
      assert.deepEqual([r.toolConnections.count, r.toolConnections.perConnection], [20, { min: 1, median: 1, max: 1 }])
      assert.equal(ab.parse({ stdout: fixture('ab-dead-port.txt'), stderr: fixture('ab-dead-port.stderr.txt'), requests: 20 }).toolConnections.count, 0)
    })

    it('a dead port: none succeeded, though ab exits 0 and says "Complete requests: 20, Failed requests: 10"', () => {
      const text = fixture('ab-dead-port.txt')
      assert.match(text, /Complete requests:\s+20\nFailed requests:\s+10\n/)
      const r = ab.parse({ stdout: text, stderr: fixture('ab-dead-port.stderr.txt'), requests: 20 })
      assert.equal(r.succeeded, 0) // Total transferred: 0 bytes
      assert.equal(r.failed, 20)
      assert.equal(r.latency, null)
      assert.equal(r.totalMs, 2)
    })

    it('fewer responses than "Complete requests": no more succeed than the bodies received', () => {
      const text = fixture('ab-h1-n20-c4.txt').replace('HTML transferred:       12240 bytes', 'HTML transferred:       6120 bytes')
      assert.equal(ab.parse({ stdout: text, stderr: '', requests: 20 }).succeeded, 10)
      const non2xx = fixture('ab-h1-n20-c4.txt').replace('Failed requests:        0\n', 'Failed requests:        0\nNon-2xx responses:      3\n')
      assert.equal(ab.parse({ stdout: non2xx, stderr: '', requests: 20 }).succeeded, 17)
    })

    it('output that is not ab\'s: an Error naming ab', () => {
      unreadable(ab, { stdout: '', stderr: '', requests: 20 }, /no output|Time taken/)
      unreadable(ab, { stdout: fixture('h2load-h1-n20-c4.txt'), stderr: '', requests: 20 }, /"Time taken for tests"/)
      // ab stopped before its summary (ab -s timeout, a signal): its last lines in the message.
      unreadable(ab, { stdout: 'Benchmarking 127.0.0.1 (be patient)...', stderr: 'apr_pollset_poll: The timeout specified has expired (70007)', requests: 20 }, /apr_pollset_poll/)
    })

    it('its command: ab -s TIMEOUT -n -c URL, -v 2 for the trace', () => {
      const base = { url: 'https://127.0.0.1:1/option?size=1&ledger=a', requests: 20, connections: 4, timeoutS: 30 }
      assert.deepEqual(ab.command(base), { executable: 'ab', args: ['-s', '30', '-n', '20', '-c', '4', base.url] })
      assert.deepEqual(ab.command({ ...base, trace: true }).args.slice(0, 2), ['-v', '2'])
    })
  })

  describe('h2load', () => {
    it('HTTP/2: its "finished in" total, 20 of 20, its MB/s, latencies from --log-file', () => {
      const log = fixture('h2load-h2-n20-c4-m5.log.tsv')
      const r = h2load.parse({ stdout: fixture('h2load-h2-n20-c4-m5.txt'), stderr: '', requests: 20, log })
      assert.equal(r.totalMs, 56.49) // finished in 56.49ms, 354.02 req/s, 241.45KB/s
      assert.equal(r.succeeded, 20)
      assert.equal(r.failed, 0)
      assert.equal(r.toolBytesPerSec, 241.45 * 1024)
      // The log: "start µs \t status \t duration µs", one line per request; 34575…48531 µs.
      assert.deepEqual(h2load.parseLog(log).slice(0, 2), [39.168, 39.216])
      assert.equal(h2load.parseLog(log).length, 20)
      ordered(r.latency, { min: 34.575, max: 48.531 })
      const s = h2load.parseSummary(fixture('h2load-h2-n20-c4-m5.txt'))
      assert.deepEqual(s, { totalMs: 56.49, reqPerSec: 354.02, bytesPerSec: 241.45 * 1024, total: 20, done: 20, succeeded: 20, failed: 0, ok2xx: 20 })
    })

    it('HTTP/1.1 (--h1): 20 of 20 in 11.39 ms at 1.79 MB/s', () => {
      const log = fixture('h2load-h1-n20-c4.log.tsv')
      const r = h2load.parse({ stdout: fixture('h2load-h1-n20-c4.txt'), stderr: '', requests: 20, log })
      assert.equal(r.totalMs, 11.39)
      assert.equal(r.succeeded, 20)
      assert.equal(r.toolBytesPerSec, 1.79 * 1024 ** 2)
      ordered(r.latency, { min: 0.954, max: 2.797 })
    })

    it('a dead port: "finished in 418us", 0 succeeded, 20 failed (errored is part of failed, not added to it)', () => {
      const text = fixture('h2load-dead-port.txt')
      const s = h2load.parseSummary(text)
      assert.equal(s.totalMs, 0.418)
      assert.equal(s.succeeded, 0)
      assert.equal(s.failed, 20) // "20 failed, 20 errored"
      const r = h2load.parse({ stdout: text, stderr: '', requests: 20, log: '' })
      assert.equal(r.succeeded, 0)
      assert.equal(r.failed, 20)
      assert.equal(r.latency, null)
    })

    it('non-2xx responses are not successes', () => {
      const text = fixture('h2load-h2-n20-c4-m5.txt').replace('status codes: 20 2xx, 0 3xx, 0 4xx', 'status codes: 15 2xx, 0 3xx, 5 4xx')
      assert.equal(h2load.parse({ stdout: text, stderr: '', requests: 20, log: '' }).succeeded, 15)
    })

    it('output that is not h2load\'s: an Error naming h2load', () => {
      unreadable(h2load, { stdout: fixture('ab-h1-n20-c4.txt'), stderr: '', requests: 20 }, /"finished in"/)
      unreadable(h2load, { stdout: 'starting benchmark...\n', stderr: 'No protocol negotiated. Aborted.', requests: 20 }, /No protocol negotiated/)
      assert.throws(() => h2load.parseSummary('{}'), /^Error: h2load printed no /)
    })

    it('its own connection count: its clients, each its share of -n (as planned); none when nothing started', () => {
      const r = h2load.parse({ stdout: fixture('h2load-h2-n20-c4-m5.txt'), stderr: '', requests: 20, log: '' })
      assert.deepEqual(
        { count: r.toolConnections.count, perConnection: r.toolConnections.perConnection },
        { count: 4, perConnection: { min: 5, median: 5, max: 5 } }
      )
      assert.match(r.toolConnections.how, /h2load's clients/)
      // Two threads: 5 requests over 2 clients (3 and 2: h2load.cc gives the remainder to the first), 5 on 1.
      const two = h2load.ownConnections('spawning thread #0: 2 total client(s). 5 total requests\nspawning thread #1: 1 total client(s). 5 total requests\n')
      assert.deepEqual(two.perConnection, { min: 2, median: 3, max: 5 })
      assert.equal(two.count, 3)
      assert.equal(h2load.parse({ stdout: fixture('h2load-dead-port.txt'), stderr: '', requests: 20, log: '' }).toolConnections.count, 0)
    })

    it('its command: --h1 and -m 1 for HTTP/1.1, -m for HTTP/2, threads at most the connections', () => {
      const base = { url: 'https://127.0.0.1:1/x', requests: 100, connections: 4, streams: 50, threads: 10, logFile: '/tmp/l.tsv' }
      assert.deepEqual(h2load.command({ ...base, protocol: 'http/1.1' }).args, ['-t', '4', '-c', '4', '-n', '100', '-m', '1', '--h1', '--log-file', '/tmp/l.tsv', base.url])
      assert.deepEqual(h2load.command({ ...base, protocol: 'h2' }).args, ['-t', '4', '-c', '4', '-n', '100', '-m', '50', '--log-file', '/tmp/l.tsv', base.url])
    })
  })

  describe('nghttp', () => {
    it('-s: 10 of 10 from its statistics rows, latency = process, total = the wall clock given', () => {
      const r = nghttp.parse({ stdout: fixture('nghttp-h2n-s-m10.txt'), stderr: fixture('nghttp-h2n-s-m10.stderr.txt'), requests: 10, wallMs: 42.5 })
      assert.deepEqual([r.toolConnections.count, r.toolConnections.perConnection], [1, { min: 10, median: 10, max: 10 }])
      assert.equal(r.succeeded, 10)
      assert.equal(r.failed, 0)
      assert.equal(r.totalMs, 42.5)
      assert.deepEqual(r.latency, { p50: 7.98, p90: 7.98, p99: 7.98, max: 7.98 }) // "process 7.98ms" on every row
      assert.match(r.notes.join(' '), /wall clock/)
    })

    it('a dead port: nghttp exits 0 with an empty table; all 10 failed, its [ERROR] line in the notes', () => {
      const r = nghttp.parse({ stdout: fixture('nghttp-dead-port.txt'), stderr: fixture('nghttp-dead-port.stderr.txt'), requests: 10, wallMs: 3 })
      assert.equal(r.succeeded, 0)
      assert.equal(r.failed, 10)
      assert.equal(r.latency, null)
      assert.ok(r.notes.includes('nghttp: Could not connect to the address 127.0.0.1'), r.notes.join('; '))
    })

    it('fewer rows than requests, or non-2xx rows: only the 2xx rows succeed', () => {
      const text = fixture('nghttp-h2n-s-m10.txt')
      const lines = text.split('\n')
      const cut = lines.filter(l => !/^ (13|15|17) /.test(l)).join('\n').replace(/^( 19 .*?) {2}200 /m, '$1  503 ')
      const r = nghttp.parse({ stdout: cut, stderr: '', requests: 10, wallMs: 1 })
      assert.equal(r.succeeded, 6)
      assert.equal(r.failed, 4)
    })

    it('-v (the trace run): a response is a 2xx :status and an END_STREAM', () => {
      const text = fs.readFileSync(path.join(__dirname, '..', '..', 'fixtures', 'load-trace', 'nghttp-h2n-m10.txt'), 'utf8')
      const r = nghttp.parse({ stdout: text, stderr: '', requests: 10, wallMs: 12, trace: true })
      assert.equal(r.succeeded, 10)
      assert.equal(r.latency, null)
      assert.throws(() => nghttp.parse({ stdout: '', stderr: '[ERROR] Could not connect to the address 127.0.0.1', requests: 10, wallMs: 1, trace: true }), /^Error: nghttp printed no connection \("Connected"\): .*Could not connect/)
    })

    it('output that is not nghttp -s\'s: an Error naming nghttp', () => {
      unreadable(nghttp, { stdout: fixture('ab-h1-n20-c4.txt'), stderr: '', requests: 10, wallMs: 1 }, /-s statistics/)
      unreadable(nghttp, { stdout: '', stderr: '', requests: 10, wallMs: 1 }, /no output/)
    })

    it('its command: nghttp -n -s -m N URL (-v for the trace)', () => {
      assert.deepEqual(nghttp.command({ url: 'https://h/x', requests: 100 }), { executable: 'nghttp', args: ['-n', '-s', '-m', '100', 'https://h/x'] })
      assert.deepEqual(nghttp.command({ url: 'https://h/x', requests: 100, trace: true }).args, ['-n', '-v', '-m', '100', 'https://h/x'])
    })
  })

  describe('oha (HTTP/3)', () => {
    it('CSV over h3: 20 of 20, total = the last response\'s end (not oha\'s wall clock)', () => {
      const r = oha.parse({ stdout: fixture('oha-h3-n20-c2-p5.csv'), stderr: '', requests: 20, wallMs: 30089 })
      assert.equal(r.succeeded, 20)
      assert.equal(r.failed, 0)
      // The last to end: request-start 0.0468708 + duration 0.008564265 s … of all rows, 0.055373053 s.
      assert.ok(Math.abs(r.totalMs - 55.373053) < 1e-6, String(r.totalMs))
      ordered(r.latency, { min: 1.499413, max: 9.603316000000001 })
      assert.ok(Math.abs(r.toolBytesPerSec - 20 * 612 / 0.055373053) < 1e-3)
      assert.deepEqual(r.notes, [])
    })

    it('some requests past its -t timeout: they are missing from the CSV, so 16 of 20 succeeded, 4 failed', () => {
      const r = oha.parse({ stdout: fixture('oha-h3-timeout36ms-delay30.csv'), stderr: '', requests: 20, wallMs: 30100 })
      assert.equal(r.succeeded, 16)
      assert.equal(r.failed, 4)
      assert.ok(Math.abs(r.totalMs - 163.00893) < 1e-6, String(r.totalMs))
      ordered(r.latency, { min: 32.537883, max: 36.324316 })
      assert.match(r.notes.join(' '), /successful requests only/)
    })

    it('nothing reached (the CSV header alone): all failed, the total is the wall clock', () => {
      const r = oha.parse({ stdout: 'request-start,DNS,DNS+dialup,Response-delay,request-duration,bytes,status\n', stderr: '', requests: 20, wallMs: 1234 })
      assert.equal(r.succeeded, 0)
      assert.equal(r.failed, 20)
      assert.equal(r.totalMs, 1234)
      assert.equal(r.latency, null)
    })

    it('its own connection count from the CSV: the distinct set-up times; requests per connection over HTTP/2 and HTTP/3 only', () => {
      const r = oha.parse({ stdout: fixture('oha-h3-n20-c2-p5.csv'), stderr: '', requests: 20, wallMs: 1, protocol: 'h3' })
      assert.equal(r.toolConnections.count, 2)
      assert.equal(r.toolConnections.perConnection.min + r.toolConnections.perConnection.max, 20)
      // HTTP/1.1: only a connection's first request carries its set-up time.
      const h1 = 'request-start,DNS,DNS+dialup,Response-delay,request-duration,bytes,status\n0.001,0.0001,0.002,0.001,0.003,612,200\n0.004,0,0,0.001,0.001,612,200\n0.001,0.0001,0.0025,0.001,0.003,612,200\n'
      const own = oha.parse({ stdout: h1, stderr: '', requests: 3, wallMs: 1, protocol: 'http/1.1' }).toolConnections
      assert.equal(own.count, 2)
      assert.equal(own.perConnection, null)
    })

    it('its command with a server that is not a lane: --cacert, or nothing (the system\'s CAs), or --insecure', () => {
      const base = { url: 'https://127.0.0.1:1/x', requests: 10, connections: 1, streams: 5, timeoutS: 60, protocol: 'h2' }
      assert.deepEqual(oha.command({ ...base, verify: { caFile: '/tmp/ca.pem' } }).args.slice(0, 5), ['--no-tui', '--output-format', 'csv', '--cacert', '/tmp/ca.pem'])
      assert.ok(!oha.command({ ...base, verify: { caFile: null } }).args.some(a => a === '--insecure' || a === '--cacert'))
      assert.ok(oha.command({ ...base, verify: { insecure: true } }).args.includes('--insecure'))
    })

    it('non-2xx rows are not successes', () => {
      const text = fixture('oha-h3-n20-c2-p5.csv').replace(/,612,200\n/, ',0,404\n')
      assert.equal(oha.parse({ stdout: text, stderr: '', requests: 20, wallMs: 1 }).succeeded, 19)
    })

    it('output that is not oha\'s CSV: an Error naming oha', () => {
      unreadable(oha, { stdout: '{"summary":{}}', stderr: '', requests: 20, wallMs: 1 }, /CSV header/)
      unreadable(oha, { stdout: '', stderr: 'error: unexpected argument', requests: 20, wallMs: 1 }, /no output/)
    })

    it('its command: CSV, --insecure, --http-version 3, -p streams (none for HTTP/1.1), -t the timeout', () => {
      const base = { url: 'https://127.0.0.1:1/x', requests: 100, connections: 2, streams: 50, timeoutS: 60 }
      const h3 = oha.command({ ...base, protocol: 'h3' }).args
      assert.deepEqual(h3, ['--no-tui', '--output-format', 'csv', '--insecure', '--http-version', '3', '-n', '100', '-c', '2', '-t', '60s', '-p', '50', base.url])
      const h1 = oha.command({ ...base, protocol: 'http/1.1' }).args
      assert.equal(h1[h1.indexOf('--http-version') + 1], '1.1')
      assert.ok(!h1.includes('-p'))
    })
  })

  it('every tool says which protocols it speaks; the defaults speak their lanes\'', () => {
    assert.deepEqual(Object.fromEntries(Object.values(TOOLS).map(t => [t.name, t.protocols])),
      { ab: ['http/1.1'], h2load: ['http/1.1', 'h2'], nghttp: ['h2'], oha: ['http/1.1', 'h2', 'h3'] })
    assert.deepEqual(['h1', 'h2', 'h2n', 'h3', 'h2e'].map(n => toolFor(laneByName(n)).name), ['h2load', 'h2load', 'h2load', 'oha', 'h2load'])
    for (const t of Object.values(TOOLS)) assert.match(t.hint, /install|build/)
    assert.match(ab.hint, /apache2-utils/)
  })
})

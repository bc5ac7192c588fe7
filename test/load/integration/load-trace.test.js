'use strict'

const assert = require('node:assert/strict')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { EventEmitter } = require('node:events')
const { PassThrough } = require('node:stream')
const { formatTrace, TraceError } = require('../../../load/trace')
const { summariseNghttp } = require('../../../load/tools/nghttp-trace')
const { summariseAb } = require('../../../load/tools/ab-trace')
const { summariseQlogDir, quicRecovery } = require('../../../load/qlog')
const { startCaddy, findCaddy } = require('../../../server/edge/caddy')
const { startAll } = require('../../../server/start')
const { laneByName } = require('../../../server/lanes')
const { testCertificate } = require('../../support/certificate')
const { h3get, useH3Client } = require('../../support/clients')
const { ensureCaddy } = require('../../../tools/caddy/build')

// Fixtures: real output, captured from the lanes of `node bin/h2bench.js`
// (nghttp 1.52, ab 2.3, h3get on quic-go 0.63, Caddy 2.11.9):
//   nghttp-h2-m10.txt     nghttp -nv -m 10 https://127.0.0.1:3002/option?size=612 (spdy)
//   nghttp-h2n-m10.txt    the same on :3003 (node:http2)
//   nghttp-two-hosts.txt  nghttp -nv https://127.0.0.1:3002/option?size=64 https://localhost:3003/option?size=64
//   ab-h1-n20-c5.txt      ab -v 2 -n 20 -c 5 https://127.0.0.1:3001/option?size=64 2>&1
//   ab-h1-k-n20-c5.txt    the same with -k
//   qlog-h3-parallel10/   Caddy's qlog (QLOGDIR) of h3get --insecure --repeat 10 --parallel …/option?size=612
//   qlog-h3-two-connections/  of h3get --repeat 3, then h3get --repeat 2 --parallel
// The qlogs have their recovery:* events taken out (unused here); every
// other record is as quic-go wrote it.
const FIXTURES = path.join(__dirname, '..', '..', 'fixtures', 'load-trace')
const fixture = name => fs.readFileSync(path.join(FIXTURES, name), 'utf8')

// An Error of load/trace.js whose message matches `re`.
function fails (fn, re) {
  assert.throws(fn, err => {
    assert.ok(err instanceof TraceError, `a TraceError, not ${err}`)
    assert.match(err.message, re)
    return true
  })
}

const made = []
function tmpDir () {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'h2bench-trace-test-'))
  made.push(dir)
  return dir
}

describe('load --trace (load/trace.js)', function () {
  after(() => { for (const dir of made) fs.rmSync(dir, { recursive: true, force: true }) })

  describe('nghttp (HTTP/2)', () => {
    it('10 requests with -m 10: one connection, one TLS handshake, 10 streams on it', () => {
      for (const name of ['nghttp-h2-m10.txt', 'nghttp-h2n-m10.txt']) {
        const s = summariseNghttp(fixture(name))
        assert.equal(s.tool, 'nghttp')
        assert.equal(s.protocol, 'h2')
        assert.equal(s.connections, 1, name)
        assert.equal(s.tlsHandshakes, 1, name)
        assert.equal(s.streams, 10, name)
        assert.deepEqual(s.streamsPerConnection, [10], name)
        // The client's frames: its SETTINGS and the ACK of the server's, five
        // PRIORITY frames for nghttp's idle anchor streams 3-11, a HEADERS per
        // request, a GOAWAY at the end.
        assert.deepEqual(s.frames.up, { SETTINGS: 2, PRIORITY: 5, HEADERS: 10, GOAWAY: 1 }, name)
        // The server's: a HEADERS per response, and two DATA frames each
        // (the 612-byte body, then an empty one carrying END_STREAM).
        assert.equal(s.frames.down.HEADERS, 10, name)
        assert.equal(s.frames.down.DATA, 20, name)
        assert.equal(s.frames.down.SETTINGS, 2, name)
      }
    })

    it('counts frame bytes as payload + the 9-octet frame header', () => {
      const s = summariseNghttp(fixture('nghttp-h2-m10.txt'))
      // SETTINGS 12 and its ACK 0; PRIORITY 5 each; HEADERS 51 then 25 each
      // (HPACK's dynamic table); GOAWAY 8.
      const up = (12 + 9) + (0 + 9) + 5 * (5 + 9) + (51 + 9) + 9 * (25 + 9) + (8 + 9)
      assert.equal(s.bytes.up, up)
      // Every received frame's length= plus 9, summed here another way.
      const text = fixture('nghttp-h2-m10.txt')
      const down = text.split('\n').filter(l => / recv [A-Z_]+ frame </.test(l))
        .reduce((sum, l) => sum + 9 + Number(l.split('length=')[1].split(',')[0]), 0)
      assert.equal(s.bytes.down, down)
      assert.ok(s.bytes.down >= 10 * (612 + 9), 'the ten 612-byte bodies at least')
    })

    it('splits streams by connection: two hosts, two connections of one stream each', () => {
      const s = summariseNghttp(fixture('nghttp-two-hosts.txt'))
      assert.equal(s.connections, 2)
      assert.equal(s.tlsHandshakes, 2)
      assert.deepEqual(s.streamsPerConnection, [1, 1])
      assert.equal(s.frames.up.GOAWAY, 2)
    })

    it('fails clearly on output that is not nghttp -nv\'s', () => {
      fails(() => summariseNghttp(fixture('ab-h1-n20-c5.txt')), /^nghttp: no frame lines/)
      fails(() => summariseNghttp(''), /^nghttp: no frame lines/)
      fails(() => summariseNghttp(undefined), /^nghttp: no output given/)
      // nghttp against the h1 lane (ALPN http/1.1 only): connected, nothing negotiated.
      fails(() => summariseNghttp('[  0.030] Connected\nSome requests were not processed. total=1, processed=0\n'),
        /^nghttp: connected, but no HTTP\/2 was negotiated.*Some requests were not processed/)
    })
  })

  describe('ab (HTTP/1.1)', () => {
    it('-n 20 -c 5: a TLS handshake per request (ab sends HTTP/1.0 without keep-alive), and a couple more it never uses', () => {
      const s = summariseAb(fixture('ab-h1-n20-c5.txt'))
      assert.equal(s.tool, 'ab')
      assert.equal(s.protocol, 'http/1.1')
      assert.equal(s.requests, 20)
      assert.equal(s.failed, 0)
      // 22 handshakes for 20 requests: whenever a connection closes before
      // all 20 requests are written, ab opens another; near the end some
      // of those find nothing left to send. At most concurrency - 1 extra.
      assert.equal(s.tlsHandshakes, 22)
      assert.equal(s.connections, 22)
      assert.ok(s.connections >= 20 && s.connections <= 20 + 5 - 1)
      assert.equal(s.unusedConnections, 2)
      assert.equal(s.keepAliveRequests, null)
      assert.equal(s.requestsPerConnection, 20 / 22)
    })

    it('-k: the 5 concurrent connections carry the 20 requests, 4 each', () => {
      const s = summariseAb(fixture('ab-h1-k-n20-c5.txt'))
      assert.equal(s.connections, 5)
      assert.equal(s.tlsHandshakes, 5)
      assert.equal(s.keepAliveRequests, 20)
      assert.equal(s.requestsPerConnection, 4)
      assert.equal(s.unusedConnections, null)
    })

    it('counts handshakes from stderr\'s SSL-Session blocks or stdout\'s Peer certificate blocks alike; a given completed count wins', () => {
      const text = fixture('ab-h1-n20-c5.txt')
      const stderrOnly = text.split('\n').filter(l => !/^Peer certificate/.test(l)).join('\n')
      const stdoutOnly = text.split('\n').filter(l => !/^SSL-Session:/.test(l)).join('\n')
      assert.equal(summariseAb(stderrOnly).tlsHandshakes, 22)
      assert.equal(summariseAb(stdoutOnly).tlsHandshakes, 22)
      assert.equal(summariseAb(text, { completed: 11 }).requests, 11)
    })

    it('fails clearly without ab\'s output, its summary, or its handshake blocks', () => {
      fails(() => summariseAb(fixture('nghttp-h2-m10.txt')), /^ab: not ApacheBench output/)
      const unfinished = fixture('ab-h1-n20-c5.txt').replace(/^Complete requests:.*$/m, '')
      fails(() => summariseAb(unfinished), /^ab: no "Complete requests:" line/)
      const quiet = 'This is ApacheBench, Version 2.3\nComplete requests:      20\nFailed requests:        0\n'
      fails(() => summariseAb(quiet), /^ab: no TLS handshake printed.*-v 2/)
      fails(() => summariseAb(null), /^ab: no output given/)
    })
  })

  describe('qlog (HTTP/3, the server\'s view)', () => {
    it('10 parallel requests from one client: one connection, one handshake, 10 request streams', () => {
      const s = summariseQlogDir(path.join(FIXTURES, 'qlog-h3-parallel10'))
      assert.equal(s.tool, 'qlog (server)')
      assert.equal(s.protocol, 'h3')
      assert.equal(s.connections, 1)
      assert.equal(s.tlsHandshakes, 1)
      assert.equal(s.zeroRttConnections, 0)
      assert.equal(s.streams, 10)
      assert.deepEqual(s.streamsPerConnection, [10])
      assert.equal(s.closed, 1)
      assert.equal(s.truncated, 0)
      // HTTP/3: the client's SETTINGS and a HEADERS per request; the
      // server's SETTINGS, and a HEADERS and a DATA frame per response.
      assert.deepEqual(s.h3Frames.up, { settings: 1, headers: 10 })
      assert.deepEqual(s.h3Frames.down, { settings: 1, headers: 10, data: 10 })
      assert.equal(s.frames.down.handshake_done, 1)
      assert.equal(s.frames.up.connection_close, 1, 'h3get closes the connection when done')
      assert.ok(s.frames.down.stream >= 20, 'a response\'s HEADERS and DATA (and the control stream)')
    })

    it('sums packet bytes per direction (received and dropped packets up, sent down)', () => {
      const dir = path.join(FIXTURES, 'qlog-h3-parallel10')
      const s = summariseQlogDir(dir)
      const sums = { up: 0, down: 0, sent: 0, received: 0 }
      for (const file of fs.readdirSync(dir)) {
        for (const record of fs.readFileSync(path.join(dir, file), 'utf8').split('\x1e').slice(2)) {
          const e = JSON.parse(record)
          if (e.name === 'transport:packet_sent') { sums.down += e.data.raw.length; sums.sent++ }
          if (e.name === 'transport:packet_received' || e.name === 'transport:packet_dropped') { sums.up += e.data.raw.length; sums.received++ }
        }
      }
      assert.deepEqual(s.bytes, { up: sums.up, down: sums.down })
      assert.equal(s.packets.down, sums.sent)
      assert.equal(s.packets.up + s.packets.dropped, sums.received)
      // The client's first Initial is padded to 1280 bytes; ten 612-byte bodies go down.
      assert.ok(s.bytes.up >= 1280)
      assert.ok(s.bytes.down >= 10 * 612)
    })

    it('two clients one after the other: two connections, with their own streams', () => {
      const s = summariseQlogDir(path.join(FIXTURES, 'qlog-h3-two-connections'))
      assert.equal(s.connections, 2)
      assert.equal(s.tlsHandshakes, 2)
      assert.equal(s.streams, 5)
      assert.deepEqual([...s.streamsPerConnection].sort(), [2, 3])
      assert.equal(s.h3Frames.up.headers, 5)
    })

    it('counts the server\'s recovery: packets declared lost, probe timeouts (not timers set or other timers), spurious losses', () => {
      const dir = tmpDir()
      const [file] = fs.readdirSync(path.join(FIXTURES, 'qlog-h3-parallel10'))
      const text = fs.readFileSync(path.join(FIXTURES, 'qlog-h3-parallel10', file), 'utf8')
      const sent = text.split('\x1e').filter(r => r.includes('"transport:packet_sent"')).length
      const event = (name, data) => `\x1e${JSON.stringify({ time: 1, name, data })}\n`
      const recovery = [
        event('recovery:packet_lost', { header: { packet_type: '1RTT', packet_number: 7 }, trigger: 'reordering_threshold' }),
        event('recovery:packet_lost', { header: { packet_type: '1RTT', packet_number: 9 }, trigger: 'time_threshold' }),
        event('recovery:loss_timer_updated', { event_type: 'set', timer_type: 'pto', packet_number_space: 'application_data', delta: 60 }),
        event('recovery:loss_timer_updated', { event_type: 'expired', timer_type: 'pto', packet_number_space: 'application_data' }),
        event('recovery:loss_timer_updated', { event_type: 'expired', timer_type: 'ack', packet_number_space: 'application_data' }),
        event('recovery:spurious_loss', { packet_number_space: 'application_data', packet_number: 7 })
      ].join('')
      // After the trace header (the first two records: the empty one before the first 0x1E, and the header).
      const at = text.indexOf('\x1e', 1)
      fs.writeFileSync(path.join(dir, file), text.slice(0, at) + recovery + text.slice(at))
      assert.deepEqual(quicRecovery(dir), {
        connections: 1,
        closed: 1,
        truncated: 0,
        packetsSent: sent,
        packetsLost: 2,
        ptoExpired: 1,
        spuriousLosses: 1,
        qlogBytes: fs.statSync(path.join(dir, file)).size
      })
      assert.ok(sent > 10)
      // The fixture itself (its recovery events taken out): nothing lost.
      assert.equal(quicRecovery(path.join(FIXTURES, 'qlog-h3-parallel10')).packetsLost, 0)
    })

    it('marks a qlog cut short (a connection still open when read) as truncated', () => {
      const dir = tmpDir()
      const [file] = fs.readdirSync(path.join(FIXTURES, 'qlog-h3-parallel10'))
      const text = fs.readFileSync(path.join(FIXTURES, 'qlog-h3-parallel10', file), 'utf8')
      const cut = text.slice(0, text.lastIndexOf('"name":"transport:connection_closed"'))
      fs.writeFileSync(path.join(dir, file), cut)
      const s = summariseQlogDir(dir)
      assert.equal(s.truncated, 1)
      assert.equal(s.closed, 0)
      assert.match(formatTrace('h3', s).join('\n'), /1 connection still open when read/)
    })

    it('fails clearly on a missing folder, one without qlogs, and files that are not quic-go qlogs', () => {
      const dir = tmpDir()
      fails(() => summariseQlogDir(path.join(dir, 'nope')), /^qlog: cannot read the qlog folder .*ENOENT/)
      fails(() => summariseQlogDir(dir), /^qlog: no \.sqlog file in .*QLOGDIR/)
      fs.writeFileSync(path.join(dir, 'a_server.sqlog'), fixture('nghttp-h2-m10.txt'))
      fails(() => summariseQlogDir(dir), /^qlog: a_server\.sqlog is not JSON-SEQ/)
      fs.writeFileSync(path.join(dir, 'a_server.sqlog'), '\x1e{"time":1,"name":"x","data":{}}\n')
      fails(() => summariseQlogDir(dir), /^qlog: a_server\.sqlog has no qlog trace header/)
      const header = fixture(path.join('qlog-h3-parallel10', fs.readdirSync(path.join(FIXTURES, 'qlog-h3-parallel10'))[0])).split('\x1e')[1]
      fs.writeFileSync(path.join(dir, 'a_server.sqlog'), `\x1e${header}`)
      fails(() => summariseQlogDir(dir), /^qlog: the 1 \.sqlog file\(s\) in .* log no packet/)
      fs.writeFileSync(path.join(dir, 'a_server.sqlog'), `\x1e${header}\x1e{broken\n\x1e{"time":1,"name":"x","data":{}}\n`)
      fails(() => summariseQlogDir(dir), /^qlog: a_server\.sqlog record 2 is not JSON/)
    })
  })

  describe('formatTrace', () => {
    it('prints one lane\'s trace compactly: requests, connections, handshakes, streams, frames, bytes', () => {
      const h1 = formatTrace('h1', summariseAb(fixture('ab-h1-n20-c5.txt')))
      assert.deepEqual(h1, ['h1    20 requests over 22 connections (22 TLS handshakes), 0.9 requests per connection; 2 connections opened and closed unused (ab)'])
      assert.equal(formatTrace('h1', summariseAb(fixture('ab-h1-k-n20-c5.txt')))[0],
        'h1    20 requests over 5 connections (5 TLS handshakes), 4.0 requests per connection, 20 keep-alive')
      const h2 = formatTrace('h2', summariseNghttp(fixture('nghttp-h2-m10.txt')))
      assert.deepEqual(h2, [
        'h2    10 requests over 1 connection (1 TLS handshake), 10 streams on it; 483 B ↑ 6.6 KB ↓ of h2 frames',
        '      frames ↑ HEADERS 10, PRIORITY 5, SETTINGS 2, GOAWAY 1; ↓ DATA 20, HEADERS 10, SETTINGS 2, WINDOW_UPDATE 1'
      ])
      const two = formatTrace('h2n', summariseNghttp(fixture('nghttp-two-hosts.txt')))
      assert.match(two[0], /^h2n {3}2 requests over 2 connections \(2 TLS handshakes\), 2 streams \(1, 1 per connection\);/)
      const h3 = formatTrace('h3', summariseQlogDir(path.join(FIXTURES, 'qlog-h3-parallel10')))
      assert.equal(h3.length, 3)
      assert.match(h3[0], /^h3 {4}10 requests over 1 connection \(1 TLS handshake\), 10 streams on it; [\d.]+ KB ↑ [\d.]+ KB ↓ in \d+ ↑ \d+ ↓ packets$/)
      assert.equal(h3[1], '      HTTP/3 frames ↑ headers 10, settings 1; ↓ data 10, headers 10, settings 1')
      assert.match(h3[2], /^ {6}QUIC frames ↑ .*stream 11.*; ↓ stream 20, /)
    })

    it('refuses no summary', () => {
      fails(() => formatTrace('h2', null), /^trace of lane h2: no summary/)
    })
  })

  describe('Caddy with a qlog folder (server/edge/caddy.js, server/start.js)', function () {
    this.timeout(60000)

    it('startCaddy puts QLOGDIR in Caddy\'s environment only when asked', async function () {
      if (!findCaddy()) this.skip()
      const tls = await testCertificate()
      const envs = []
      const fakeSpawn = (cmd, argv, opts) => {
        envs.push(opts.env)
        const child = new EventEmitter()
        child.stderr = new PassThrough()
        child.pid = 1
        child.kill = () => setImmediate(() => child.emit('exit', null, 'SIGTERM'))
        setImmediate(() => child.stderr.write('{"level":"info","msg":"serving initial configuration"}\n'))
        return child
      }
      const server = { name: 'h3', host: '127.0.0.1', port: 0, protocols: ['h3'], upstream: '127.0.0.1:9' }
      const withQlog = await startCaddy([server], tls, { spawnWith: fakeSpawn, qlogDir: '/tmp/somewhere' })
      await withQlog.close()
      const without = await startCaddy([server], tls, { spawnWith: fakeSpawn })
      await without.close()
      assert.equal(envs[0].QLOGDIR, '/tmp/somewhere')
      assert.ok(!('QLOGDIR' in envs[1]) || envs[1].QLOGDIR === process.env.QLOGDIR)
    })

    describe('the h3 lane started with startAll({ qlogDir }), 10 parallel requests over HTTP/3', () => {
      useH3Client()
      let dir = null
      let running = null
      before(async function () {
        this.timeout(15 * 60 * 1000)
        if (!process.env.CADDY_PATH) await ensureCaddy()
        dir = fs.mkdtempSync(path.join(os.tmpdir(), 'h2bench-trace-qlog-'))
        running = await startAll({ host: '127.0.0.1', port: 0, h3Port: 0 }, await testCertificate(), { lanes: [laneByName('h3')], qlogDir: dir })
      })
      after(async () => {
        if (running) await running.close()
        if (dir) fs.rmSync(dir, { recursive: true, force: true })
      })

      it('leaves one qlog: one connection, 10 request streams, 10 HEADERS up and 10 DATA down', async () => {
        const lane = running.lanes.find(l => l.name === 'h3')
        const r = await h3get(`${lane.url}/option?size=612`, ['--repeat', '10', '--parallel'], { ca: (await testCertificate()).cert })
        assert.equal(r.succeeded, 10, JSON.stringify(r))
        // quic-go writes a connection's qlog out as it ends: h3get closed
        // its connection on exit, so give Caddy a moment to finish the file.
        let s = null
        for (let i = 0; i < 50 && !(s && s.closed === 1 && !s.truncated); i++) {
          await new Promise(resolve => setTimeout(resolve, 100))
          try { s = summariseQlogDir(dir) } catch { s = null }
        }
        assert.ok(s, 'a qlog appeared')
        assert.equal(s.connections, 1)
        assert.equal(s.closed, 1)
        assert.equal(s.streams, 10)
        assert.equal(s.h3Frames.up.headers, 10)
        assert.equal(s.h3Frames.down.data, 10)
      })
    })
  })
})

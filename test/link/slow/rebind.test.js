'use strict'

// NAT rebinding (rebind=…, link/forwarder/nat.c), observed from outside: a UDP
// server on the lanes' side sees the client's source port (or address)
// change when the spec says, with every datagram's checksum still valid (the
// kernel drops a bad one and counts it); then the real lanes across a
// rebinding: HTTP/1.1 and HTTP/2 over TCP lose their connection (the server's
// TCP answers the new port with a reset), HTTP/3 over QUIC carries on (Caddy's
// quic-go validates the new path and migrates to it).

const assert = require('node:assert/strict')
const dgram = require('node:dgram')
const { addressOf } = require('../../../link/namespace')
const { startLinkSession } = require('../../../harness/link-session')
const { startAll } = require('../../../server/start')
const { parseConfig } = require('../../../server/config')
const { parseLinkSpec } = require('../../../link/spec')
const { forwarderCommands } = require('../../../link/forwarder-commands')
const { ensureH3get } = require('../../../tools/h3get/build')
const { testCertificate } = require('../../support/certificate')
const { runInside, readSnmp, sleep } = require('../../support/link-probe')
const { withLink, note, skipWithoutLink } = require('../../support/link-tests')

const nowMs = () => Number(process.hrtime.bigint() / 1000n) / 1000

// Datagrams from the client namespace to a server here, every 5 ms for 2 s, with the link set to `spec` just before:
// → the source (address:port) and arrival time (ms after the spec was set) of each, by sequence number.
async function sources (link, spec) {
  const server = dgram.createSocket('udp4')
  const seen = []
  let t0
  server.on('message', (msg, rinfo) => seen.push({ seq: msg.readUInt32BE(0), from: `${rinfo.address}:${rinfo.port}`, at: nowMs() - t0 }))
  await new Promise(resolve => server.bind(0, link.serverAddress, resolve))
  try {
    const csumBefore = readSnmp().Udp.InCsumErrors
    t0 = nowMs()
    await link.configure(forwarderCommands(parseLinkSpec(spec)))
    await runInside(link, 'udp-send', { host: link.serverAddress, port: server.address().port, count: 400, size: 100, intervalMs: 5 })
    await sleep(100)
    return { seen, csumErrors: readSnmp().Udp.InCsumErrors - csumBefore }
  } finally {
    server.close()
  }
}

// Every datagram arrived, its checksum valid; up to `untilMs`, one source before `atMs` (give or take
// `slackMs`), another after it.
function assertChangeAt ({ seen: all, csumErrors }, atMs, { slackMs = 15, untilMs = Infinity } = {}) {
  assert.equal(all.length, 400, `${400 - all.length} datagrams lost`)
  assert.equal(csumErrors, 0, 'a rewritten datagram failed its checksum')
  const seen = all.filter(s => s.at < untilMs)
  const before = new Set(seen.filter(s => s.at < atMs - slackMs).map(s => s.from))
  const after = new Set(seen.filter(s => s.at > atMs + slackMs).map(s => s.from))
  const firstNew = seen.find(s => !before.has(s.from))
  note(`before ${atMs} ms: ${[...before].join(', ')}; after: ${[...after].join(', ')} (the first at ${firstNew.at.toFixed(1)} ms)`)
  assert.equal(before.size, 1)
  assert.equal(after.size, 1)
  assert.notDeepEqual([...before], [...after])
  return { before: [...before][0], after: [...after][0] }
}

describe('NAT rebinding on the link (rebind=…)', function () {
  this.timeout(60000)

  before(skipWithoutLink)

  it('rebind=1s: the client\'s source port changes 1 s after the link is set, and only then; the address stays', async () => {
    await withLink('rtt=10ms', async link => {
      const { before, after } = assertChangeAt(await sources(link, 'rtt=10ms,rebind=1s'), 1000)
      assert.equal(before.split(':')[0], link.clientAddress)
      assert.equal(after.split(':')[0], link.clientAddress)
      const stats = await link.stats()
      assert.equal(stats.nat.generation, 1)
    })
  })

  it('rebind=600ms/800ms/address: the client\'s address alternates with the other of its /30, every 800 ms after 600 ms', async () => {
    await withLink('rtt=10ms', async link => {
      const r = await sources(link, 'rtt=10ms,rebind=600ms/800ms/address')
      const { before, after } = assertChangeAt(r, 600, { untilMs: 1400 - 15 })
      assert.deepEqual([before, after].map(s => s.split(':')[0]), [link.clientAddress, addressOf(link.index, 3)])
      assert.equal(before.split(':')[1], after.split(':')[1], 'the port changed with the address')
      const third = new Set(r.seen.filter(s => s.at > 1400 + 15).map(s => s.from))
      assert.deepEqual([...third], [before], 'at 1.4 s the address did not change back')
    })
  })

  describe('the lanes across a rebinding (rtt=20ms, down=20mbit, 8 MB, rebind at 1.5 s)', () => {
    let session = null
    let h3get = null
    before(async function () {
      this.timeout(300000)
      h3get = await ensureH3get()
      session = await startLinkSession({ spec: 'rtt=20ms', config: parseConfig([], {}), tls: await testCertificate(), startAll })
    })
    after(async () => { if (session) await session.close() })

    // Runs a client in the link's namespace; resolves its exit code, output and time.
    const client = (cmd, args) => new Promise(resolve => {
      const child = session.opened.spawnInside(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'] })
      let out = ''
      const t0 = nowMs()
      child.stdout.on('data', d => { out += d })
      child.on('exit', code => resolve({ code, out, ms: nowMs() - t0 }))
    })
    const urlOf = lane => `${session.running.lanes.find(l => l.name === lane).url}/option?size=8000000`

    for (const kind of ['port', 'address']) {
      it(`rebind=1500ms/${kind}: HTTP/1.1 and HTTP/2 (TCP) break at the rebinding; HTTP/3 (QUIC) gets all 8 MB`, async () => {
        for (const lane of ['h1', 'h2']) {
          await session.control.change(`rtt=20ms,down=20mbit,rebind=1500ms/${kind}`)
          const r = await client('curl', ['-sk', '--max-time', '6', '-o', '/dev/null', '-w', '%{size_download}', lane === 'h1' ? '--http1.1' : '--http2', urlOf(lane)])
          note(`${lane}: curl exit ${r.code} (${{ 56: 'connection reset', 28: 'stalled until --max-time 6 s' }[r.code] || '?'}) after ${r.ms.toFixed(0)} ms, ${Number(r.out).toLocaleString('en-US')} bytes`)
          // The server's TCP resets the new port's first segment (and the reset reaches the client), or, when the
          // client had nothing to send after the change, both ends wait: the data for the old binding is dropped.
          assert.ok([56, 28].includes(r.code), `${lane}: curl should fail (56: reset, 28: stalled), got ${r.code}`)
          // At 20 Mbit/s, 1.5 s carry about 3.7 MB of IP: the transfer stopped there, not later.
          assert.ok(Number(r.out) > 2.5e6 && Number(r.out) < 4.2e6, `${lane}: ${r.out} bytes; the transfer did not stop at the rebinding`)
        }
        await session.control.change(`rtt=20ms,down=20mbit,rebind=1500ms/${kind}`)
        await session.control.stats({ reset: true })
        const r = await client(h3get, ['--insecure', '--timeout', '20s', urlOf('h3')])
        const got = JSON.parse(r.out)
        const stats = await session.control.stats()
        note(`h3: status ${got.status}, ${got.bodyLength.toLocaleString('en-US')} bytes in ${r.ms.toFixed(0)} ms (8 MB at 20 Mbit/s: 3,200 ms); ` +
          `the NAT dropped ${stats.down.nat_dropped} packets sent to the old binding`)
        assert.equal(got.status, 200)
        assert.equal(got.bodyLength, 8e6)
        assert.equal(stats.nat.generation, 1)
        assert.ok(stats.down.nat_dropped > 0, 'nothing was in flight to the old binding')
      })
    }
  })
})

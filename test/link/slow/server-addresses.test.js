'use strict'

// The link's extra server addresses (link/namespace.js addServerAddresses,
// which the replay behind a link listens on: one per recorded address): each
// in the link's own /25 of 100.64.0.0/10, owned by this (the lanes') side,
// unreachable from the client namespace until added, and then reached only
// through the forwarder with its effects: a TCP connect takes at least the
// link's round trip (physics: the forwarder holds the SYN and the SYN-ACK
// half of it each), the bytes a server there sends are in the forwarder's
// counters, and the server sees the client's own address.

const assert = require('node:assert/strict')
const net = require('node:net')
const { serverAddressOf, SERVER_ADDRESSES, addressOf } = require('../../../link/namespace')
const { runInside, startInside } = require('../../support/link-probe')
const { withLink, note, listen, closeServer, skipWithoutLink } = require('../../support/link-tests')

// A TCP server on `host` that writes `bytes` to each connection and ends it; → { server, port, peers }.
async function sender (host, bytes) {
  const peers = []
  const server = net.createServer(socket => {
    peers.push(socket.remoteAddress)
    socket.on('error', () => {})
    socket.end(Buffer.alloc(bytes, 0x61))
  })
  const port = await listen(server, host)
  return { server, port, peers }
}

describe('the link\'s extra server addresses (link/namespace.js addServerAddresses)', function () {
  this.timeout(60000)
  before(skipWithoutLink)

  it('each link index owns a /25 of 100.64.0.0/10, apart from every other index and from the /30s', () => {
    assert.equal(SERVER_ADDRESSES, 128)
    assert.equal(serverAddressOf(0, 0), '100.64.0.0')
    assert.equal(serverAddressOf(1, 0), '100.64.0.128')
    assert.equal(serverAddressOf(32767, 127), '100.127.255.255') // the last index's last: the /10's end
    assert.throws(() => serverAddressOf(0, 128), RangeError)
    assert.ok(!serverAddressOf(5, 3).startsWith('198.'), addressOf(5, 1))
  })

  it('adds addresses reachable only through the link: connects take its round trip, its counters carry the bytes', async () => {
    await withLink('rtt=100ms', async link => {
      const before = serverAddressOf(link.index, 0)
      const { results } = await runInside(link, 'try-targets', { targets: [{ proto: 'tcp', host: before, port: 9 }] })
      assert.equal(results[0].code, 'ENETUNREACH', `${before} before it was added: ${results[0].outcome} ${results[0].code || ''}`)

      const added = await link.addServerAddresses(3)
      assert.deepEqual(added, [0, 1, 2].map(k => serverAddressOf(link.index, k)))
      const more = await link.addServerAddresses(2)
      assert.deepEqual(more, [3, 4].map(k => serverAddressOf(link.index, k)))
      assert.deepEqual(link.serverAddresses, [...added, ...more])
      await assert.rejects(link.addServerAddresses(SERVER_ADDRESSES - 4), /128 extra server addresses/)
      assert.equal(link.serverAddresses.length, 5, 'a refused call adds nothing')

      const BYTES = 300000
      for (const address of [added[0], more[1]]) {
        const s = await sender(address, BYTES)
        try {
          const { times } = await runInside(link, 'connect', { host: address, port: s.port, count: 3 })
          note(`${address}: TCP connects ${times.map(t => t.toFixed(1)).join(', ')} ms (link RTT 100 ms)`)
          for (const t of times) assert.ok(t >= 100, `a connect to ${address} took ${t} ms, under the link's 100 ms round trip`)

          await link.stats({ reset: true })
          const agent = startInside(link, 'tcp-receive', { host: address, port: s.port })
          try {
            await agent.result(20000) // connected
            const { bytes } = await agent.result(20000)
            assert.equal(bytes, BYTES)
          } finally {
            agent.kill()
          }
          const stats = await link.stats()
          note(`${address}: ${BYTES} bytes received; the forwarder down: in ${stats.down.in_bytes}, out ${stats.down.out_bytes} bytes; up: in ${stats.up.in_bytes}`)
          assert.ok(stats.down.in_bytes >= BYTES && stats.down.out_bytes >= BYTES, `the forwarder counted ${stats.down.out_bytes} bytes down, under the ${BYTES} received`)
          assert.ok(stats.up.in_packets > 0)
          assert.ok(s.peers.length >= 4 && s.peers.every(p => p === link.clientAddress), `peers ${s.peers.join(', ')}: not all the client's ${link.clientAddress}`)
        } finally {
          await closeServer(s.server)
        }
      }
    })
  })
})

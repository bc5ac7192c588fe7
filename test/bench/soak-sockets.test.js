'use strict'

const assert = require('node:assert/strict')
const fs = require('node:fs')
const net = require('node:net')
const { execFileSync } = require('node:child_process')
const { once } = require('node:events')
const { parseTcpTable, classifySockets, TCP_LISTEN, TCP_CLOSE_WAIT } = require('../../bench/soak/soak-sockets')

const ssAvailable = (() => {
  try { execFileSync('ss', ['-V'], { stdio: 'ignore' }); return true } catch { return false }
})()

// The inode of a socket's fd, as /proc/self/fd names it ('socket:[N]').
const inodeOf = socket => /^socket:\[(\d+)\]$/.exec(fs.readlinkSync(`/proc/self/fd/${socket._handle.fd}`))[1]

function tcpTable () {
  const table = new Map()
  for (const file of ['/proc/self/net/tcp', '/proc/self/net/tcp6']) parseTcpTable(fs.readFileSync(file, 'utf8'), table)
  return table
}

describe('soak sockets by owner (bench/soak/soak-sockets.js)', () => {
  it('reads inode, local port and state from /proc/net/tcp lines', () => {
    const text = [
      '  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode',
      '   0: 0100007F:0BB8 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 4242 1 0000000000000000 100 0 0 10 0',
      '   1: 0100007F:0BB8 0100007F:D431 08 00000000:00000000 00:00000000 00000000     0        0 4243 1 0000000000000000 20 4 30 10 -1',
      '   2: 0100007F:D432 0100007F:0BB8 06 00000000:00000000 03:00000F8B 00000000     0        0 0 3 0000000000000000',
      ''
    ].join('\n')
    const table = parseTcpTable(text)
    assert.deepEqual([...table], [['4242', { localPort: 3000, state: TCP_LISTEN }], ['4243', { localPort: 3000, state: TCP_CLOSE_WAIT }]], 'TIME_WAIT (inode 0) belongs to nobody')
    assert.deepEqual(classifySockets(['4242', '4243', '999'], table, new Set([3000])), { pool: 1, listen: 1, clients: 0, other: 1, closeWait: 1 })
    assert.deepEqual(classifySockets(['4242', '4243'], table, new Set()), { pool: 0, listen: 1, clients: 1, other: 0, closeWait: 1 })
  })

  it('tells real connections apart: 5 accepted on the pool\'s port, their 5 client ends, the listener; then CLOSE_WAIT as ss counts it', async () => {
    // allowHalfOpen: the server never ends its side, as a server that leaks sockets would not.
    const server = net.createServer({ allowHalfOpen: true })
    const accepted = []
    server.on('connection', s => accepted.push(s))
    server.listen(0, '127.0.0.1')
    await once(server, 'listening')
    const port = server.address().port
    const clients = []
    try {
      for (let i = 0; i < 5; i++) {
        const c = net.connect(port, '127.0.0.1')
        await once(c, 'connect')
        clients.push(c)
      }
      while (accepted.length < 5) await new Promise(resolve => setTimeout(resolve, 10))
      const inodes = [server, ...accepted, ...clients].map(inodeOf)
      assert.deepEqual(classifySockets(inodes, tcpTable(), new Set([port])), { pool: 5, listen: 1, clients: 5, other: 0, closeWait: 0 })

      // The clients close; the server's ends wait in CLOSE_WAIT until it closes them.
      for (const c of clients) c.destroy()
      const ends = accepted.map(s => once(s, 'end'))
      for (const s of accepted) s.resume()
      await Promise.all(ends)
      const after = classifySockets([server, ...accepted].map(inodeOf), tcpTable(), new Set([port]))
      assert.deepEqual(after, { pool: 5, listen: 1, clients: 0, other: 0, closeWait: 5 })
      if (ssAvailable) {
        const seen = execFileSync('ss', ['-Htn', 'state', 'close-wait', `sport = :${port}`], { encoding: 'utf8' }).split('\n').filter(Boolean).length
        assert.equal(seen, after.closeWait, 'ss, an independent observer, counts the same CLOSE_WAIT sockets')
      }
    } finally {
      for (const s of [...accepted, ...clients]) s.destroy()
      server.close()
    }
  })
})

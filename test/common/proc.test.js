'use strict'

// common/proc.js on a constructed /proc (test/support/proc-fixture.js), and on this machine's own.
const assert = require('node:assert/strict')
const fs = require('node:fs')
const proc = require('../../common/proc')
const { makeProc, mapped } = require('../support/proc-fixture')

describe('common/proc.js: the /proc readers', () => {
  let fixture = null
  const options = () => ({ proc: fixture.root })
  before(() => {
    fixture = makeProc({
      self: 100,
      machine: { busy: 1234, idle: 766, cpus: 2 },
      processes: [
        { pid: 100, ppid: 1, comm: 'node', ticks: 50, childTicks: 7, cmdline: ['node', 'bin/h2bench.js'], exe: '/usr/bin/node', ns: 1, fds: [555],
          tcp: [
            { local: ['127.0.0.1', 3000], remote: ['127.0.0.1', 55555], inode: 555 },
            { local: ['127.0.0.1', 55555], remote: ['127.0.0.1', 3000], inode: 777, uid: 1000 }
          ],
          tcp6: [{ local: [mapped('127.0.0.1'), 41000], remote: [mapped('10.0.0.2'), 3000], inode: 888 }] },
        // A command name with spaces and brackets: fields are read after its last ')'.
        { pid: 200, ppid: 100, comm: 'a) (b c', ticks: 30, cmdline: ['/usr/lib/chromium/chromium', '--user-data-dir=/tmp/x'], exe: '/usr/lib/chromium/chromium', fds: [] },
        // A title rewritten by the process (Chromium's children): one string, spaces between the arguments.
        { pid: 201, ppid: 200, ticks: 20, cmdline: '/usr/lib/chromium/chromium --type=utility --utility-sub-type=network.mojom.NetworkService --lang=en-US', fds: [777, 900] },
        { pid: 202, ppid: 201, ticks: 5, cmdline: ['x'], ns: 2 },
        { pid: 300, ppid: 1, ticks: 1, cmdline: ['other'], ns: 2 }
      ]
    })
  })
  after(() => fixture.remove())

  it('reads a process\'s stat after its command name: its parent, its CPU ticks, its reaped children\'s', () => {
    assert.deepEqual(proc.procStat(200, options()), { ppid: 100, ticks: 30, childTicks: 0 })
    assert.deepEqual(proc.procStat('self', options()), { ppid: 1, ticks: 50, childTicks: 7 })
    assert.equal(proc.procStat(4242, options()), null)
  })

  it('lists every process, and a tree of them from its roots', () => {
    assert.deepEqual(proc.processIds(options()).sort((a, b) => a - b), [100, 200, 201, 202, 300])
    const table = proc.processTable(options())
    assert.equal(table.size, 5)
    assert.deepEqual(proc.treeOf([200], table).sort(), [200, 201, 202])
    assert.deepEqual(proc.treeOf([201, 4242], table).sort(), [201, 202])
  })

  it('reads a command line, NUL-separated or rewritten into one string, and the executable', () => {
    assert.deepEqual(proc.cmdlineOf(200, options()), ['/usr/lib/chromium/chromium', '--user-data-dir=/tmp/x'])
    assert.deepEqual(proc.cmdlineOf(201, options()), ['/usr/lib/chromium/chromium', '--type=utility', '--utility-sub-type=network.mojom.NetworkService', '--lang=en-US'])
    assert.equal(proc.cmdlineOf(4242, options()), null)
    assert.equal(proc.exeOf(200, options()), '/usr/lib/chromium/chromium')
    assert.equal(proc.exeOf(201, options()), null)
  })

  it('reads TCP sockets of IPv4 and IPv6 (an IPv4-mapped address as IPv4), with their owner and inode', () => {
    const sockets = proc.tcpSockets('self', options())
    assert.deepEqual(sockets.map(s => [s.local.address, s.local.port, s.remote.address, s.remote.port, s.uid, s.inode]), [
      ['127.0.0.1', 3000, '127.0.0.1', 55555, 0, 555],
      ['127.0.0.1', 55555, '127.0.0.1', 3000, 1000, 777],
      ['127.0.0.1', 41000, '10.0.0.2', 3000, 0, 888]
    ])
    assert.deepEqual(proc.tcpSockets(4242, options()), [])
  })

  it('finds the processes holding a socket, and one process of each network namespace', () => {
    assert.deepEqual(proc.socketHolders(777, options()), [201])
    assert.deepEqual(proc.socketHolders(555, options()), [100])
    assert.deepEqual(proc.socketHolders(4242, options()), [])
    assert.deepEqual([...proc.netNamespaces(options())], [['net:[1]', 100], ['net:[4026531840]', 200], ['net:[2]', 202]])
    assert.equal(proc.netNamespaceOf('self', options()), 'net:[1]')
  })

  it('reads the whole machine\'s busy and total CPU ticks, and its CPUs', () => {
    assert.deepEqual(proc.machineTicks(options()), { busy: 1234, total: 2000, cpus: 2 })
    assert.equal(proc.machineTicks({ proc: '/nonexistent' }), null)
  })

  it('writes addresses one way: IPv4 dotted, IPv4-mapped as IPv4, IPv6 in eight full groups', () => {
    assert.equal(proc.canonicalAddress('::ffff:127.0.0.1'), '127.0.0.1')
    assert.equal(proc.canonicalAddress('0:0:0:0:0:ffff:7f00:1'), '127.0.0.1')
    assert.equal(proc.canonicalAddress('::1'), '0000:0000:0000:0000:0000:0000:0000:0001')
    assert.equal(proc.canonicalAddress('FE80::1%eth0'), 'fe80:0000:0000:0000:0000:0000:0000:0001')
    assert.equal(proc.canonicalAddress('10.1.2.3'), '10.1.2.3')
  })

  it('reads this machine\'s own /proc the same way', function () {
    if (!fs.existsSync('/proc/self/stat')) this.skip()
    const self = proc.procStat('self')
    assert.equal(self.ppid, process.ppid)
    assert.ok(proc.processTable().has(process.pid))
    assert.ok(proc.cmdlineOf(process.pid).length > 0)
    assert.ok(proc.machineTicks().cpus >= 1)
    assert.ok(proc.ticksPerSecond() > 0)
  })
})

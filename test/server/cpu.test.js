'use strict'

// server/cpu.js on a constructed /proc (test/support/proc-fixture.js): which
// browser holds the other end of the page's connection, its process tree
// and CPU, and why there is none. The route on real sockets:
// test/server/integration/cpu-route.test.js; in Chromium: test/client/slow/cpu.test.js.
const assert = require('node:assert/strict')
const { findBrowser, cpuMeter, browserName, processType } = require('../../server/cpu')
const { makeProc } = require('../support/proc-fixture')

const PAGE = ['127.0.0.1', 3000]
const CHROMIUM = '/usr/lib/chromium/chromium'
const FIREFOX = '/usr/lib/firefox-esr/firefox-esr'
const peer = (remotePort, remoteAddress = '127.0.0.1', localAddress = '127.0.0.1') => ({ remoteAddress, remotePort, localAddress, localPort: 3000 })

describe('server/cpu.js: the browser at the other end of the page\'s connection, and its CPU', () => {
  let fixture = null
  const options = () => ({ proc: fixture.root })
  before(() => {
    fixture = makeProc({
      self: 100,
      machine: { busy: 5000, idle: 3000, cpus: 2 },
      processes: [
        // The page server; this network namespace's sockets: its own ends, Chromium's, curl's, another user's.
        { pid: 100, ppid: 1, ticks: 40, cmdline: ['node', 'bin/h2bench.js'], exe: '/usr/bin/node', ns: 1, fds: [501],
          tcp: [
            { local: PAGE, remote: ['127.0.0.1', 50001], inode: 501 },
            { local: ['127.0.0.1', 50001], remote: PAGE, inode: 601 },
            { local: ['127.0.0.1', 50004], remote: PAGE, inode: 801 },
            { local: ['127.0.0.1', 50005], remote: PAGE, inode: 901, uid: 1000 }
          ] },
        { pid: 150, ppid: 1, cmdline: ['sh'], exe: '/bin/sh', ns: 1 },
        // Chromium: its browser process, the network service (holding the socket, its title rewritten), the zygote, a renderer.
        { pid: 200, ppid: 150, ticks: 100, cmdline: [CHROMIUM, '--user-data-dir=/tmp/c'], exe: CHROMIUM, ns: 1 },
        { pid: 201, ppid: 200, ticks: 30, cmdline: `${CHROMIUM} --type=utility --utility-sub-type=network.mojom.NetworkService --lang=en-US`, exe: CHROMIUM, ns: 1, fds: [601] },
        { pid: 202, ppid: 200, ticks: 1, cmdline: [CHROMIUM, '--type=zygote'], exe: CHROMIUM, ns: 1 },
        { pid: 203, ppid: 202, ticks: 70, cmdline: `${CHROMIUM} --type=renderer --lang=en-US`, exe: CHROMIUM, ns: 1 },
        // Firefox in another network namespace (a link's), its socket process holding the connection.
        { pid: 300, ppid: 150, ticks: 80, cmdline: [FIREFOX, '--profile', '/tmp/f'], exe: FIREFOX, ns: 2,
          tcp: [{ local: ['10.0.0.2', 50002], remote: ['10.0.0.1', 3000], inode: 701 }] },
        { pid: 301, ppid: 300, ticks: 20, cmdline: [FIREFOX, '-contentproc', '-isForBrowser', '{abc}', '300', 'true', 'tab'], exe: FIREFOX, ns: 2 },
        { pid: 302, ppid: 300, ticks: 9, cmdline: [FIREFOX, '-contentproc', '{def}', '300', 'true', 'socket'], exe: FIREFOX, ns: 2, fds: [701] },
        // Any other client.
        { pid: 400, ppid: 150, ticks: 3, cmdline: ['curl', 'http://127.0.0.1:3000/cpu.json'], exe: '/usr/bin/curl', ns: 1, fds: [801] },
        // Caddy.
        { pid: 500, ppid: 100, ticks: 12, cmdline: ['caddy', 'run'], exe: '/usr/bin/caddy', ns: 1 }
      ]
    })
  })
  after(() => fixture.remove())

  it('finds Chromium from its network service\'s socket, up to the process without --type=', () => {
    const found = findBrowser(peer(50001), options())
    assert.equal(found.root, 200)
    assert.equal(found.kind, 'chromium')
    assert.equal(found.name, 'Chromium')
    assert.deepEqual(found.holders, [201])
    assert.match(found.how, /^the page's connection from 127\.0\.0\.1:50001 \(this network namespace\) is held by Chromium's network service \(pid 201\), under its browser process 200$/)
  })

  it('finds it as well when the server sees the address IPv4-mapped (a server listening on ::)', () => {
    assert.equal(findBrowser(peer(50001, '::ffff:127.0.0.1', '::ffff:127.0.0.1'), options()).root, 200)
  })

  it('finds Firefox in another network namespace, up to its parent process (the topmost of its executable)', () => {
    const found = findBrowser(peer(50002, '10.0.0.2', '10.0.0.1'), options())
    assert.deepEqual([found.root, found.kind, found.name, found.holders], [300, 'firefox', 'Firefox', [302]])
    assert.match(found.how, /\(another \(net:\[2\]\) network namespace\) is held by Firefox's socket process \(pid 302\), under its parent process 300$/)
  })

  it('takes any other client\'s process as it is', () => {
    const found = findBrowser(peer(50004), options())
    assert.deepEqual([found.root, found.kind, found.name], [400, 'process', 'curl'])
  })

  it('says why when no process may be read, or no socket of this machine is the other end', () => {
    assert.match(findBrowser(peer(50005), options()).reason, /held by no process this server may read/)
    assert.match(findBrowser(peer(50009, '192.0.2.7'), options()).reason,
      /^no socket on this machine is the other end of this page's connection \(from 192\.0\.2\.7:50009\): the browser runs on another machine/)
    assert.match(findBrowser(peer(50001), { proc: '/nonexistent' }).reason, /^no \/proc here/)
  })

  it('reads the browser\'s whole tree, the machine, Caddy and this process; never throws', () => {
    const meter = cpuMeter({ caddyPid: () => 500, proc: fixture.root })
    const reading = meter.read(peer(50001))
    assert.equal(typeof reading.at, 'number')
    const tick = reading.tickMs
    assert.deepEqual(reading.machine, { busyMs: 5000 * tick, cpus: 2 })
    assert.equal(reading.browser.cpuMs, (100 + 30 + 1 + 70) * tick)
    assert.deepEqual(reading.browser.pids.sort(), [200, 201, 202, 203])
    assert.deepEqual(Object.fromEntries(reading.browser.processes.map(p => [p.pid, p.type])),
      { 200: 'browser process', 201: 'network service', 202: 'zygote', 203: 'renderer' })
    assert.equal(reading.servers.caddy, 12 * tick)
    assert.ok(reading.servers.node > 0)
    assert.equal(meter.read(peer(50009)).browser.cpuMs, null)
    assert.match(meter.read(peer(50009)).browser.reason, /another machine/)
  })

  it('leaves its own readings out of this process\'s CPU', () => {
    const meter = cpuMeter({ proc: fixture.root })
    const before = meter.read(peer(50001)).servers.node
    for (let i = 0; i < 30; i++) meter.read(peer(50001))
    const u = process.cpuUsage()
    // What this process spent besides the readings can only grow, and the 30 readings are not in it.
    const after = meter.read(peer(50001)).servers.node
    assert.ok(after >= before && after <= (u.user + u.system) / 1000, `${before} → ${after}`)
  })

  it('says the lanes\' CPU is not read when they run on another machine, and no Caddy when there is none', () => {
    assert.deepEqual(cpuMeter({ lanesHere: false, proc: fixture.root }).read(peer(50001)).servers,
      { node: null, caddy: null, reason: 'the lanes run on another machine: their CPU is not read here' })
    const servers = cpuMeter({ proc: fixture.root }).read(peer(50001)).servers
    assert.equal(servers.caddy, null)
    assert.equal(servers.reason, 'no Caddy (no edge lane)')
  })

  it('names browsers and their processes', () => {
    assert.equal(browserName('/opt/google/chrome/chrome'), 'Chrome')
    assert.equal(browserName('/x/chrome-headless-shell'), 'Chrome Headless Shell')
    assert.equal(browserName('/usr/lib/firefox/firefox'), 'Firefox')
    assert.equal(processType(['chromium', '--type=gpu-process']), 'GPU process')
    assert.equal(processType(['chromium', '--type=utility', '--utility-sub-type=foo.mojom.Bar']), 'utility process (foo.mojom.Bar)')
    assert.equal(processType(['firefox', '-contentproc', '1', 'rdd']), 'media decoder process')
    assert.equal(processType(['firefox'], 'firefox'), 'parent process')
    assert.equal(processType(null), 'process (gone)')
  })
})

'use strict'

// Helpers of the packet-level link's tests (test/link/slow/*.test.js): a link
// opened with a fixed seed and addresses of its own, flows through it observed
// by the probes of link-probe.js (numbered UDP datagrams, bulk TCP measured at
// the receiving TUN device), and statistical asserts.

const assert = require('node:assert/strict')
const { execFileSync } = require('node:child_process')
const net = require('node:net')
const { openLink, unavailableReason } = require('../../link/namespace')
const { parseLinkSpec } = require('../../link/spec')
const { forwarderCommands } = require('../../link/forwarder-commands')
const probe = require('./link-probe')

const { startInside, startOutside, runInside, runOutside, prioritizeForwarder, readDev, sleep } = probe

const SEED = 1
const SIGMAS = 4.5

// Each link of this run gets addresses of its own: a link's address pair is
// reused by the next link with the same index, and a socket of an earlier test
// still retransmitting to its old peer (a FIN whose ACK was in flight at
// close()) would then put packets into a later test's counters.
let opened = 0
const open = spec => openLink(forwarderCommands(parseLinkSpec(spec)), { seed: SEED, start: process.pid * 7919 + 613 * ++opened })

// The forwarder runs at a real-time priority here, as the timing probes do
// (see prioritizeForwarder in test/support/link-probe.js): other work on the
// machine must not pass for the emulation's delay.
let warned = false
async function withLink (spec, fn) {
  const link = await open(spec)
  if (!prioritizeForwarder(link) && !warned) {
    warned = true
    console.log('      (no real-time priority allowed here: delays include the scheduling of a busy machine)')
  }
  try {
    return await fn(link)
  } finally {
    await link.close()
  }
}

// Prints a measured number under the test's title.
const note = text => console.log(`      · ${text}`)

function listen (server, host) {
  return new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, host, () => resolve(server.address().port))
  })
}

const closeServer = server => new Promise(resolve => server.close(() => resolve()))

// k successes of n trials at probability p, within ±4.5 σ of n·p.
function assertBinomial (k, n, p, what) {
  const sd = Math.sqrt(n * p * (1 - p))
  const lo = n * p - SIGMAS * sd
  const hi = n * p + SIGMAS * sd
  note(`${what}: ${k} of ${n} = ${(100 * k / n).toFixed(2)} % (configured ${100 * p} %, bounds ${lo.toFixed(0)}…${hi.toFixed(0)})`)
  assert.ok(k >= lo && k <= hi, `${what}: ${k} of ${n} (${(100 * k / n).toFixed(2)} %) is outside ${100 * p} % ± ${SIGMAS} σ = [${lo.toFixed(1)}, ${hi.toFixed(1)}]`)
}

function ipLinkNames () {
  return execFileSync('ip', ['-br', 'link'], { encoding: 'utf8' }).split('\n').map(l => l.split(/\s+/)[0].replace(/@.*$/, '')).filter(Boolean)
}

// A UDP flow of `count` numbered datagrams through the link, down (a sender
// here → a sink in the client namespace) or up. Both are probe processes of
// their own (at a real-time priority when allowed: see link-probe.js), so a
// busy test process cannot delay a timestamp. Resolves the sink's report
// (seqs, one-way delays and arrival times in arrival order, its socket's
// drops, its stalls), `sent`, and the sender's senderStalls (link-probe.js
// stallMeter: when either probe was kept from running).
async function udpFlow (link, dir, { count, size = 200, burst = 1, intervalMs = 1, settleMs = 300, onStart = null }) {
  const sink = dir === 'down' ? startInside(link, 'udp-sink', {}) : startOutside('udp-sink', { address: link.serverAddress })
  try {
    const { port } = await sink.result()
    const params = { host: dir === 'down' ? link.clientAddress : link.serverAddress, port, count, size, burst, intervalMs }
    let sent, sendTimes, senderStalls
    if (onStart) {
      // A flow whose schedule the test sets once it runs: the sender reports
      // its first datagram, then onStart changes the link, and the send times
      // let the test place every datagram against that change.
      const sender = dir === 'down'
        ? startOutside('udp-send', { ...params, announce: true, sendTimes: true })
        : startInside(link, 'udp-send', { ...params, announce: true, sendTimes: true })
      try {
        await sender.result(15000)
        await onStart()
        ;({ sent, sendTimes, stalls: senderStalls } = await sender.result(15000 + count * intervalMs))
      } finally {
        sender.kill()
      }
    } else {
      ;({ sent, stalls: senderStalls } = dir === 'down' ? await runOutside('udp-send', params) : await runInside(link, 'udp-send', params))
    }
    await sleep(settleMs)
    sink.send('report')
    return { sent, senderStalls, ...(sendTimes ? { sendTimes } : {}), ...(await sink.result()) }
  } finally {
    sink.kill()
  }
}

// Steady-state bulk TCP throughput over the link at IP level, in bit/s:
// `dir` down is a server here writing to a client in the namespace, up the
// reverse. Measured from `warmupMs` after the connection (slow start is over)
// for `windowMs`, by the receiving TUN device's rx bytes (the kernel's count of
// what the forwarder delivered) and by the forwarder's out_bytes.
//
// Why IP level: the rate limits IP packets, headers included. A full segment
// is 1500 bytes of IP for 1448 of TCP payload (20 IP + 20 TCP + 12 timestamp
// option bytes), so the payload rate is only ~96.5 % of the link's rate
// (less with ACKs or retransmissions); bytes at the device are what the link
// actually carried, and must be the configured rate when the queue never runs dry.
async function bulkThroughput (link, dir, { warmupMs = 1000, windowMs = 3000 } = {}) {
  let writer = null
  let closed = null
  const server = net.createServer(socket => {
    closed = new Promise(resolve => socket.once('close', resolve))
    if (dir === 'down') writer = probe.bulkWriter(socket)
    else socket.resume()
  })
  const port = await listen(server, link.serverAddress)
  const agent = startInside(link, dir === 'down' ? 'tcp-receive' : 'tcp-send', { host: link.serverAddress, port })
  try {
    const connected = await agent.message()
    assert.ok(connected.connected, JSON.stringify(connected))
    const t0 = process.hrtime.bigint()
    const sample = async () => {
      const t = process.hrtime.bigint()
      const device = dir === 'down' ? readDev(link.pid, link.clientTun) : readDev(process.pid, link.serverTun)
      const stats = await link.stats()
      const tStats = process.hrtime.bigint()
      return { t, rx: device.rxBytes, tf: (t + tStats) / 2n, out: stats[dir].out_bytes, stats: stats[dir] }
    }
    const until = async offsetMs => sleep(Math.max(0, offsetMs - Number(process.hrtime.bigint() - t0) / 1e6))
    await until(warmupMs)
    const a = await sample()
    await until(warmupMs + windowMs)
    const b = await sample()
    const devBps = (b.rx - a.rx) * 8 / (Number(b.t - a.t) / 1e9)
    const fwdBps = (b.out - a.out) * 8 / (Number(b.tf - a.tf) / 1e9)
    if (dir === 'down') writer.stop()
    else agent.send('stop')
    const done = await agent.message()
    // Both ends closed before the link goes (see `open`).
    await Promise.race([closed, sleep(5000)])
    return { devBps, fwdBps, stats: b.stats, done }
  } finally {
    agent.kill()
    server.close()
  }
}

function assertRate (measured, configured, what) {
  const ratio = measured / configured
  note(`${what}: ${(measured / 1e6).toFixed(3)} Mbit/s = ${(100 * ratio).toFixed(2)} % of ${(configured / 1e6).toFixed(3)} Mbit/s`)
  assert.ok(ratio >= 0.90 && ratio <= 1.005, `${what}: ${(measured / 1e6).toFixed(3)} Mbit/s is ${(100 * ratio).toFixed(2)} % of the configured ${(configured / 1e6).toFixed(3)} Mbit/s; expected 90…100.5 %`)
}

// A mocha before() hook: skips the suite, saying why, where this machine cannot build a link.
function skipWithoutLink () {
  const why = unavailableReason()
  if (why) {
    console.log(`      skipped: ${why}`)
    this.skip()
  }
}

module.exports = { skipWithoutLink, SEED, SIGMAS, open, withLink, note, listen, closeServer, assertBinomial, ipLinkNames, udpFlow, bulkThroughput, assertRate }

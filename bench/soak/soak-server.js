'use strict'

// The server under the soak benchmark (bench/commands/soak.js), in a process of its
// own so that its RSS and fds are the server's alone. Started with fork():
//   node bench/soak/soak-server.js <lanes,comma-separated> <interval ms>
// Talks over IPC only:
//   → { type: 'ready', pid, page, lanes, spki }       once listening (an edge lane's entry: edge: true)
//   ← { type: 'sample' }                               sample now; the interval restarts
//   → { type: 'sample', at, rssMiB, heapUsedMiB, externalMiB, arrayBuffersMiB, fds, fdKinds, sockets, loop }
//                                                      then every interval
// Disconnecting closes the servers and exits.
const fs = require('node:fs')
const { monitorEventLoopDelay } = require('node:perf_hooks')
const { startLanes } = require('../../harness/start-lanes')
const { parseTcpTable, classifySockets } = require('./soak-sockets')

const MIB = 1024 * 1024
// The event-loop delay timer fires every RESOLUTION ms; the histogram records
// the time between firings, so what is beyond RESOLUTION is the delay.
const RESOLUTION = 10

// Open fds: the entries of /proc/self/fd, less the one the listing itself
// opens (it shows up in its own listing), by kind (socket, pipe, anon_inode,
// file) from the link targets, and the sockets by owner (soak-sockets.js;
// `poolPorts`: the edge apps' ports).
function openFds (poolPorts) {
  // The TCP tables first (thousands of lines under load: milliseconds), so
  // that the fd count is taken last, just before the sample goes to the
  // parent, whose own count (the observer) follows it; a socket opened in
  // between is counted as not TCP.
  const table = new Map()
  for (const file of ['/proc/self/net/tcp', '/proc/self/net/tcp6']) {
    try {
      parseTcpTable(fs.readFileSync(file, 'utf8'), table)
    } catch {
      // no IPv6 in this kernel: no tcp6 table
    }
  }
  const dir = fs.opendirSync('/proc/self/fd')
  const kinds = { socket: 0, pipe: 0, anon: 0, file: 0 }
  const inodes = []
  let count = 0
  try {
    let entry
    while ((entry = dir.readSync()) !== null) {
      let target
      try {
        target = fs.readlinkSync(`/proc/self/fd/${entry.name}`)
      } catch {
        continue // closed meanwhile (or the listing's own handle, gone when read)
      }
      if (target === '/proc/self/fd' || target.startsWith('/proc/') && target.endsWith('/fd')) continue // the listing itself
      count++
      if (target.startsWith('socket:')) {
        kinds.socket++
        inodes.push(target.slice(8, -1))
      }
      else if (target.startsWith('pipe:')) kinds.pipe++
      else if (target.startsWith('anon_inode:')) kinds.anon++
      else kinds.file++
    }
  } finally {
    dir.closeSync()
  }
  return { count, kinds, sockets: classifySockets(inodes, table, poolPorts) }
}

const ms = ns => +(Math.max(0, ns / 1e6 - RESOLUTION)).toFixed(2)
const mib = bytes => +(bytes / MIB).toFixed(2)

async function main () {
  const intervalMs = Number(process.argv[3])
  // The lanes and the page server on free ports, with a throw-away
  // certificate (Chromium trusts it by SPKI), as bench/runner/run.js starts them.
  const { running, tls } = await startLanes(process.argv[2].split(','))
  const poolPorts = new Set(running.lanes.filter(l => l.appPort).map(l => l.appPort))

  const histogram = monitorEventLoopDelay({ resolution: RESOLUTION })
  histogram.enable()
  const sample = () => {
    const mem = process.memoryUsage()
    const fds = openFds(poolPorts)
    const loop = histogram.count > 0
      ? { p50: ms(histogram.percentile(50)), p99: ms(histogram.percentile(99)), max: ms(histogram.max), mean: ms(histogram.mean), count: histogram.count }
      : { p50: null, p99: null, max: null, mean: null, count: 0 }
    histogram.reset()
    process.send({
      type: 'sample',
      at: Date.now(),
      rssMiB: mib(mem.rss),
      heapUsedMiB: mib(mem.heapUsed),
      heapTotalMiB: mib(mem.heapTotal),
      externalMiB: mib(mem.external),
      arrayBuffersMiB: mib(mem.arrayBuffers),
      fds: fds.count,
      fdKinds: fds.kinds,
      sockets: fds.sockets,
      loop
    })
  }
  let timer = null
  process.on('message', msg => {
    if (!msg || msg.type !== 'sample') return
    clearInterval(timer)
    sample()
    timer = setInterval(sample, intervalMs)
  })
  process.on('disconnect', () => {
    clearInterval(timer)
    histogram.disable()
    running.close().then(() => process.exit(0))
    setTimeout(() => process.exit(0), 5000).unref()
  })
  // Ctrl-C reaches the whole process group: the parent decides when this
  // process ends (after its last sample), by disconnecting.
  process.on('SIGINT', () => {})
  process.send({
    type: 'ready',
    pid: process.pid,
    spki: tls.spki,
    page: running.page.url,
    lanes: running.lanes.map(l => ({ name: l.name, label: l.label, protocol: l.protocol, url: l.url, port: l.port, edge: Boolean(l.appPort) }))
  })
}

main().catch(err => { console.error(err); process.exit(1) })

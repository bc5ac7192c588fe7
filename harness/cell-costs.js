'use strict'

// What a cell's time went to, measured, not inferred: over one window (a
// lane's run in a cell), the CPU time of the browser's processes and of the
// servers' (this process, where the Node lanes run, and Caddy's for the edge
// lanes) from /proc/<pid>/stat; the link's counters per direction (bytes,
// drops, queueing delay: the forwarder's `stats`, reset at the window's
// start); and TCP's retransmissions and timeouts on both sides of the link
// (/proc/<pid>/net/snmp and netstat of each side's network namespace). QUIC's
// own recovery is not in TCP's counters: h3 windows count drops only. And,
// given the page's DevTools session, how long the page's main thread ran
// tasks (CDP Performance.getMetrics TaskDuration): a second observer of the
// browser's work, and the one that sees CDP's CPU throttling, which slows the
// renderer by pausing it (time that is no CPU time). /proc counts CPU in
// clock ticks (10 ms): one short window may read 0 or 10 ms too many; summed
// over a row's runs the error is a tick a run at most.
const fs = require('node:fs')
// The pure /proc readers, shared with the page server's CPU readings (server/cpu.js).
const { procStat, processTable, processIds, treeOf, cmdlineOf, ticksPerSecond } = require('../common/proc')

// The CPU milliseconds of this process's children that it has waited for
// (reaped): read before a child starts and after its 'close', the difference
// is that child's CPU time, its threads and its own waited-for children
// included (a load tool's, h2bench load). Any other child reaped in between
// counts too: the caller runs one child at a time.
function reapedChildrenCpuMs () {
  return procStat('self').childTicks / ticksPerSecond() * 1000
}

// The browser processes to meter: Chromium's by its --user-data-dir, or a
// browser's root pid (Firefox's, harness/firefox/launch.js), or none.
function browserRootsOf ({ browserDir = null, browserPid = null }) {
  if (browserPid) return () => [browserPid]
  if (browserDir) return () => chromiumRoots(browserDir)
  return null
}

// The browser process of a Chromium started with --user-data-dir=`dir`
// (its own children carry --type=…, and the link's wrapper script execs it).
function chromiumRoots (dir) {
  return processIds().filter(pid => {
    const cmdline = cmdlineOf(pid)
    return cmdline !== null && cmdline.includes(`--user-data-dir=${dir}`) && !cmdline.some(a => a.startsWith('--type='))
  })
}

// TCP's counters of the network namespace `pid` lives in ('self': ours):
// { segmentsOut, retransmitted, timeouts } (snmp Tcp: OutSegs, RetransSegs; netstat TcpExt: TCPTimeouts).
function tcpCounters (pid = 'self') {
  const table = file => {
    const out = {}
    let lines
    try {
      lines = fs.readFileSync(`/proc/${pid}/net/${file}`, 'utf8').trim().split('\n')
    } catch {
      return out
    }
    for (let i = 0; i + 1 < lines.length; i += 2) {
      const head = lines[i].split(/\s+/)
      const values = lines[i + 1].split(/\s+/)
      const prefix = head[0]
      head.slice(1).forEach((k, j) => { out[`${prefix}${k}`] = Number(values[j + 1]) })
    }
    return out
  }
  const snmp = table('snmp')
  const ext = table('netstat')
  return { segmentsOut: snmp['Tcp:OutSegs'] || 0, retransmitted: snmp['Tcp:RetransSegs'] || 0, timeouts: ext['TcpExt:TCPTimeouts'] || 0 }
}

const minus = (a, b) => Object.fromEntries(Object.keys(a).map(k => [k, a[k] - (b[k] || 0)]))

// The CPU ticks of `pids` now: pid → ticks.
function ticksOf (pids, table) {
  return new Map(pids.map(pid => [pid, table.get(pid).ticks]))
}

// CPU milliseconds `pids` spent since `before` (pid → ticks): a process born
// in the window counts whole, one that ended in it is lost (its parent's
// children's time holds it only once reaped).
function cpuMsSince (before, pids, table) {
  let ticks = 0
  for (const pid of pids) ticks += table.get(pid).ticks - (before.get(pid) || 0)
  return ticks / ticksPerSecond() * 1000
}

// What kind of Chromium process `pid` is: 'browser' (no --type), 'renderer', 'network' (the network service),
// 'gpu', or 'other' (utilities, zygotes); a process of another browser is 'browser'.
function processTypeOf (pid) {
  const args = cmdlineOf(pid) || []
  const type = (args.find(a => a.startsWith('--type=')) || '').slice(7)
  if (!type) return 'browser'
  if (type === 'renderer') return 'renderer'
  if (type === 'gpu-process') return 'gpu'
  if (type === 'utility' && args.some(a => a.startsWith('--utility-sub-type=') && a.endsWith('NetworkService'))) return 'network'
  return 'other'
}

// cpuMsSince per kind of process: { browser, renderer, network, gpu, other } in ms.
function cpuByType (before, pids, table) {
  const out = { browser: 0, renderer: 0, network: 0, gpu: 0, other: 0 }
  for (const pid of pids) out[processTypeOf(pid)] += (table.get(pid).ticks - (before.get(pid) || 0)) / ticksPerSecond() * 1000
  return Object.fromEntries(Object.entries(out).map(([k, v]) => [k, +v.toFixed(0)]))
}

// A meter over windows: start() … stop({ toolCpuMs }) → the costs of the window.
// `browserDir`: the Chromium's --user-data-dir, or `browserPid`: the root of
// another browser's processes (Firefox's); neither: no browser measured;
// `edgePids()`: Caddy's processes (the edge lanes; with their children), beside
// this process alone (the Node lanes, and the driver's side of the browser's
// pipe: its children, the browser and the forwarder, are not servers); `link`: a
// harness/link-session.js session (its forwarder's counters) or null;
// `clientNetPid`: a process in the client's network namespace (the link's), for its TCP counters;
// `cdp`: the page's DevTools session (its main thread's task time), or null.
// stop({ toolCpuMs }): the CPU of a load tool that ran in the window (reapedChildrenCpuMs), the client's when no browser is.
// forPage(cdp): the same meter for another page (a tab of the cell's own).
// `byProcessType`: also the browser's CPU per kind of process (browserCpuByType: { browser, renderer, network, gpu,
// other }, from Chromium's --type and --utility-sub-type switches): where a cost lives (npm run bench:page).
function costMeter (options) {
  // localServers: false when the lanes run on another machine (the runner's --lanes-at): no server CPU is read.
  const { browserDir = null, browserPid = null, edgePids = () => [], link = null, clientNetPid = null, cdp = null } = options
  const { localServers = true, byProcessType = false } = options
  const findRoots = browserRootsOf({ browserDir, browserPid })
  const measured = Boolean(findRoots)
  let window = null
  let enabled = false
  const taskSeconds = async () => {
    if (!cdp) return null
    if (!enabled) {
      await cdp.send('Performance.enable')
      enabled = true
    }
    const { metrics } = await cdp.send('Performance.getMetrics')
    const m = metrics.find(x => x.name === 'TaskDuration')
    return m ? m.value : null
  }
  // The browser's root process is found once (reading every process's command line), again only once it is gone.
  let roots = []
  const browserPids = table => {
    if (!measured) return []
    if (!roots.length || !roots.every(pid => table.has(pid))) roots = findRoots()
    return treeOf(roots, table)
  }
  const serverPids = table => [...new Set([process.pid, ...treeOf(edgePids(), table)])].filter(pid => table.has(pid))
  return {
    forPage: page => costMeter({ ...options, cdp: page }),
    async start () {
      if (link) await link.control.stats({ reset: true })
      const tasks = await taskSeconds()
      const table = processTable()
      const browser = browserPids(table)
      const servers = serverPids(table)
      window = {
        t0: process.hrtime.bigint(),
        tasks,
        browser: ticksOf(browser, table),
        servers: ticksOf(servers, table),
        serverTcp: tcpCounters('self'),
        clientTcp: clientNetPid ? tcpCounters(clientNetPid) : null
      }
    },
    async stop ({ toolCpuMs = null } = {}) {
      const wallMs = Number(process.hrtime.bigint() - window.t0) / 1e6
      const table = processTable()
      const browser = browserPids(table)
      const servers = serverPids(table)
      const stats = link ? await link.control.stats() : null
      const tasks = window.tasks === null ? null : await taskSeconds()
      const dir = d => ({
        bytes: d.out_bytes,
        packets: d.out_packets,
        lost: d.lost,
        queueDropped: d.queue_dropped,
        // Drops by the link's other effects: scheduled, a flow's first packets, outages, the AQM, an old NAT binding.
        otherDropped: (d.scheduled_dropped || 0) + (d.flow_dropped || 0) + (d.blackholed || 0) + (d.aqm_dropped || 0) + (d.nat_dropped || 0),
        // Corrupted on the link: its receiver drops it (TCP's checksum, QUIC's AEAD), so it is a loss to recover.
        corrupted: d.corrupted || 0,
        ecnMarked: d.ecn_marked || 0,
        queueDelayP50Ms: d.queue_delay_ms.p50,
        queueDelayP99Ms: d.queue_delay_ms.p99,
        // How late the forwarder released packets against its schedule (its own lateness, not the link's).
        lateP99Ms: d.late_ms.p99,
        lateMaxMs: d.late_ms.max
      })
      const out = {
        wallMs: +wallMs.toFixed(1),
        browserCpuMs: measured ? +cpuMsSince(window.browser, browser, table).toFixed(0) : null,
        ...(byProcessType && measured ? { browserCpuByType: cpuByType(window.browser, browser, table) } : {}),
        browserProcesses: measured ? browser.length : null,
        toolCpuMs: toolCpuMs === null ? null : +toolCpuMs.toFixed(0),
        pageTaskMs: tasks === null ? null : +((tasks - window.tasks) * 1000).toFixed(0),
        serverCpuMs: localServers ? +cpuMsSince(window.servers, servers, table).toFixed(0) : null,
        link: stats ? { up: dir(stats.up), down: dir(stats.down) } : null,
        tcp: {
          server: minus(tcpCounters('self'), window.serverTcp),
          client: window.clientTcp ? minus(tcpCounters(clientNetPid), window.clientTcp) : null
        }
      }
      window = null
      return out
    }
  }
}

// What a row records of its runs' meters: their costs summed (a measured field of results.json, so here, on the
// measuring path, and not with the report's reading of them in bench/report/runner/costs.js).
// Sums records of costMeter().stop() (runs: how many).
function sumCosts (records) {
  const list = records.filter(Boolean)
  if (!list.length) return null
  const sum = f => list.reduce((n, r) => n + (f(r) || 0), 0)
  const has = f => list.some(r => f(r) !== null && f(r) !== undefined)
  const dir = d => ({
    bytes: sum(r => r.link && r.link[d].bytes),
    packets: sum(r => r.link && r.link[d].packets),
    lost: sum(r => r.link && r.link[d].lost),
    queueDropped: sum(r => r.link && r.link[d].queueDropped),
    otherDropped: sum(r => r.link && r.link[d].otherDropped),
    corrupted: sum(r => r.link && r.link[d].corrupted),
    ecnMarked: sum(r => r.link && r.link[d].ecnMarked),
    queueDelayP99Ms: Math.max(...list.map(r => r.link ? r.link[d].queueDelayP99Ms : 0)),
    // The forwarder's own lateness, worst over the runs (records from before it was kept have none).
    lateP99Ms: Math.max(...list.map(r => r.link ? r.link[d].lateP99Ms ?? 0 : 0)),
    lateMaxMs: Math.max(...list.map(r => r.link ? r.link[d].lateMaxMs ?? 0 : 0))
  })
  const tcp = side => has(r => r.tcp[side]) ? {
    retransmitted: sum(r => r.tcp[side] && r.tcp[side].retransmitted),
    timeouts: sum(r => r.tcp[side] && r.tcp[side].timeouts)
  } : null
  // QUIC's recovery by the server's qlog (load cells' h3 runs: load/load.js); runs whose qlog could not be read are counted apart.
  const quicRuns = list.filter(r => r.quic && !r.quic.error)
  const quicSum = k => quicRuns.reduce((n, r) => n + (r.quic[k] || 0), 0)
  const quic = list.some(r => r.quic) ? {
    runs: quicRuns.length,
    unread: list.filter(r => r.quic && r.quic.error).length,
    connections: quicSum('connections'),
    unclosed: quicSum('connections') - quicSum('closed'),
    packetsSent: quicSum('packetsSent'),
    packetsLost: quicSum('packetsLost'),
    ptoExpired: quicSum('ptoExpired'),
    spuriousLosses: quicSum('spuriousLosses')
  } : null
  return {
    runs: list.length,
    wallMs: +sum(r => r.wallMs).toFixed(1),
    browserCpuMs: has(r => r.browserCpuMs) ? sum(r => r.browserCpuMs) : null,
    toolCpuMs: has(r => r.toolCpuMs) ? sum(r => r.toolCpuMs) : null,
    pageTaskMs: has(r => r.pageTaskMs) ? sum(r => r.pageTaskMs) : null,
    serverCpuMs: has(r => r.serverCpuMs) ? sum(r => r.serverCpuMs) : null, // null: the lanes ran elsewhere (--lanes-at)
    link: has(r => r.link) ? { up: dir('up'), down: dir('down') } : null,
    tcp: { server: tcp('server'), client: tcp('client') },
    ...(quic ? { quic } : {})
  }
}

module.exports = { processTypeOf, costMeter, sumCosts, procStat, processTable, treeOf, chromiumRoots, tcpCounters, ticksPerSecond, reapedChildrenCpuMs }

'use strict'

// Cross traffic through the link's bottleneck (cross[.up|.down]=FLOW[+FLOW…]
// of link/spec.js): flows that compete with the measured workload, started on
// an opened link (link/namespace.js openLink) as ordinary traffic between the
// lanes' side (the link's server address) and the client namespace. The
// forwarder is not told about them: it delays, queues and drops their packets
// as anyone's. The direction is where a flow's data goes (down: lanes →
// client). Each flow's receiver counts what arrived:
//   cubic, bbr, reno  bulk TCP with that congestion control: iperf3 (harness/cross-traffic/iperf.js)
//   quic              bulk QUIC: Caddy serving a large file over HTTP/3, h3get fetching it (harness/cross-traffic/quic.js)
//   web               fetch an object, think, repeat (harness/cross-traffic/web.js)
// stop() ends them all at once and resolves the report of link/cross-report.js.
// Every process is killed by stop(), by the link's close(), or with us.

const { DIRECTIONS } = require('../../link/spec-values')
const { processGroup, CrossTrafficError } = require('./processes')
const { startIperfFlow, iperfUnavailable } = require('./iperf')
const { startQuicFlow, quicServer, quicUnavailable } = require('./quic')
const { startWebFlow } = require('./web')
const { crossReport } = require('../../link/cross-report')
const { tcpSnapshot, tcpLinkBytes } = require('./tcp-info')

const STARTERS = { cubic: startIperfFlow, bbr: startIperfFlow, reno: startIperfFlow, quic: startQuicFlow, web: startWebFlow }

// The flows of a link: [{ kind, direction, … }]. A direction's `cross` lists
// kinds ('cubic') or, for tests, flows with options ({ kind: 'cubic', bitrate: 2e6 }).
function crossFlows (link) {
  return DIRECTIONS.flatMap(direction => ((link[direction] && link[direction].cross) || [])
    .map(f => (typeof f === 'string' ? { kind: f } : { ...f }))
    .map(f => ({ ...f, direction })))
}

// Why the flows of `link` cannot run here (a missing tool, a congestion
// control the kernel lacks), or null: checked before anything starts.
function crossTrafficUnavailable (link) {
  for (const kind of new Set(crossFlows(link).map(f => f.kind))) {
    if (!STARTERS[kind]) return `unknown cross flow "${kind}"; known: ${Object.keys(STARTERS).join(', ')}`
    const why = kind === 'quic' ? quicUnavailable() : kind === 'web' ? null : iperfUnavailable(kind)
    if (why) return why
  }
  return null
}

// Starts every flow of `link` on `opened`. options.tls: { key, cert } for the
// QUIC flow's server (any certificate: its client does not check it);
// options.seed: the web flows' sequence of sizes and pauses.
async function startCrossTraffic (opened, link, { tls = null, seed = 1 } = {}) {
  const flows = crossFlows(link)
  const why = crossTrafficUnavailable(link)
  if (why) throw new CrossTrafficError(why)
  const group = processGroup(opened)
  const ctx = { opened, group, tls, quic: null }
  if (flows.some(f => f.kind === 'quic')) {
    ctx.tls = tls || await require('../../server/certs').generateCertificate({ ips: [opened.serverAddress] })
    ctx.quic = quicServer(ctx)
  }
  const running = []
  const startedAt = Date.now()
  const cleanup = async () => {
    group.killAll()
    if (ctx.quic) await ctx.quic.close()
  }
  try {
    // One at a time: the ports each takes are free when the next looks.
    for (const [i, flow] of flows.entries()) running.push(await STARTERS[flow.kind](ctx, { ...flow, seed: seed * 1000 + i }))
  } catch (err) {
    await Promise.all(running.map(r => r.stop()))
    await cleanup()
    throw err
  }
  let stopping = null
  return {
    flows: running.map(r => ({ kind: r.kind, direction: r.direction })),
    pids: () => group.pids().concat(ctx.quic && ctx.quic.caddyPid() ? [ctx.quic.caddyPid()] : []),
    // Reads the TCP flows' kernel counters, then stops every flow in the same tick (their receivers'
    // counts end together) and collects the counts. `atStop`, called in that tick: what else should
    // count up to the same moment (the link's counters: bin/h2bench-link.js).
    stop ({ atStop = null } = {}) {
      stopping = stopping || (async () => {
        const sides = [...new Set(running.filter(r => r.tcp).map(r => r.tcp.side))]
        const sockets = sides.length ? await tcpSnapshot(group, sides) : {}
        const stoppedAt = Date.now()
        const stops = running.map(r => r.stop())
        if (atStop) atStop()
        const results = await Promise.all(stops)
        await cleanup()
        return crossReport(running.map((r, i) => {
          const linkBytes = r.tcp && sockets[r.tcp.side] ? tcpLinkBytes(sockets[r.tcp.side], r.tcp.port) : null
          return { kind: r.kind, direction: r.direction, ...flows[i].bitrate ? { bitrate: flows[i].bitrate } : {}, ...results[i], linkBytes }
        }), { startedAt, stoppedAt })
      })()
      return stopping
    }
  }
}

// Cross traffic that follows a link's spec as it changes (harness/link-session.js):
// apply(link) starts the flows of a new spec and stops those of the old when the
// flows differ (the same flows keep running); stop({ atStop }) ends them; reports() is
// the report of every set of flows that ran, in order.
function followCrossTraffic (opened, options = {}) {
  let current = null
  let currentKey = '[]'
  const reports = []
  let queue = Promise.resolve()
  const serial = fn => {
    const next = queue.then(fn)
    queue = next.catch(() => {})
    return next
  }
  const stopCurrent = async options => {
    if (current) reports.push(await current.stop(options))
    current = null
    currentKey = '[]'
  }
  return {
    apply: link => serial(async () => {
      const key = JSON.stringify(crossFlows(link))
      if (key === currentKey) return
      await stopCurrent()
      if (key !== '[]') {
        current = await startCrossTraffic(opened, link, options)
        currentKey = key
      }
    }),
    stop: options => serial(async () => {
      await stopCurrent(options)
      return reports.slice()
    }),
    reports: () => reports.slice(),
    running: () => current
  }
}

module.exports = { startCrossTraffic, followCrossTraffic, crossTrafficUnavailable, crossFlows, CrossTrafficError }

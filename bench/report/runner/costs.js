'use strict'

// A row's measured costs (harness/cell-costs.js, one record per run, summed
// here over the row's runs) and the dominant cost they name. Each cost is a
// share of the same windows' wall time:
//   client CPU   the browser's processes' CPU time (over 1 when several of its processes ran at once),
//                or the page's main thread's task time where that is the larger (CDP's CPU
//                throttling slows the page by pausing it: busy, but not on the CPU); for a
//                load cell, the load tool's CPU time (its threads: over 1 when several ran)
//   server CPU   the servers' CPU time (the Node lanes' process, Caddy's)
//   bandwidth    the downlink's busy time: the bytes it forwarded at its rate
//   latency      the round trips the protocol cannot avoid (the bound's, bench/report/runner/bounds.js) with the server's delay
// and loss recovery, named when the link dropped packets and TCP timed out or
// retransmitted. Over QUIC (transport 'quic') the namespaces' TCP counters see
// only other traffic (the link's control, the ledger): no TCP figure is put to
// its drops; where the server's qlog was read (the load cells' h3 runs), its
// declared losses and probe timeouts are (timeouts: the PTOs), else the drops
// are named as recovered by QUIC, uncounted. The largest
// share names the cell's cost; one at 80 % or more of the time shapes it, and
// a CPU share that does marks the cell as shaped by the machine's CPU, not by
// HTTP; but a cell whose bound's bandwidth time is 85 % of its time or more is
// bandwidth-bound, whatever its CPU did (it waited on the link). A corrupted
// packet counts as dropped, for TCP as for QUIC.

const SHAPING = 0.8
const BANDWIDTH_BOUND = 0.85


const s = ms => `${(ms / 1000).toFixed(2)} s`
const pct = x => `${Math.round(x * 100)} %`

// The time a row's runs took by its own timer: its samples' sum when there is
// one for each metered run, else their mean for each (a page batch left out
// was metered but is no sample). Null without samples.
function timedMsOf (row) {
  if (!row.costs || !row.samples || !row.samples.length) return null
  const sum = row.samples.reduce((a, b) => a + b, 0)
  return row.samples.length === row.costs.runs ? sum : sum / row.samples.length * row.costs.runs
}

// → { shares: { clientCpu, serverCpu, bandwidth, latency }, dominant: 'client CPU: Chromium 1.31 s of CPU in 1.50 s', cpuShaped, loss }
// `costs`: sumCosts(); `bound`: bounds.js boundOf() of the row (its round trips and rate), or null;
// `browser`: the browser's (or load tool's) name for the sentence; `timedMs`: the runs'
// time by the cell's own timer (timedMsOf). CPU is a share of the meter's windows (CPU
// time and wall time over the same span); the link's busy time and the round trips are
// shares of the timed time, as the window also holds the meter's own hand-over (a few
// ms a run in Chromium, more over Firefox's BiDi), when neither the link nor the round trips are at work.
// `transport`: 'tcp', or 'quic' for a row whose protocol is HTTP/3.
function dominantCost (costs, bound, browser = 'the browser', timedMs = null, transport = 'tcp') {
  if (!costs || !costs.wallMs) return null
  const wall = costs.wallMs
  const timed = timedMs || wall
  const over = `${costs.runs} run${costs.runs === 1 ? '' : 's'}`
  const shares = {}
  const sentences = {}
  if (costs.toolCpuMs !== null && costs.toolCpuMs !== undefined && costs.browserCpuMs === null) {
    shares.clientCpu = costs.toolCpuMs / wall
    sentences.clientCpu = `client CPU: ${browser} ${s(costs.toolCpuMs)} of CPU in ${s(wall)} over ${over}`
  } else if (costs.browserCpuMs !== null || costs.pageTaskMs !== null) {
    const cpu = costs.browserCpuMs ?? 0
    const tasks = costs.pageTaskMs ?? 0
    shares.clientCpu = Math.max(cpu, tasks) / wall
    sentences.clientCpu = tasks > cpu
      ? `client CPU: ${browser}'s page busy ${s(tasks)} of ${s(wall)} over ${over} (main-thread tasks; ${costs.browserCpuMs === null ? 'CPU time not measured' : `${s(cpu)} of CPU`})`
      : `client CPU: ${browser} ${s(cpu)} of CPU in ${s(wall)} over ${over}`
  }
  if (costs.serverCpuMs !== null) {
    shares.serverCpu = costs.serverCpuMs / wall
    sentences.serverCpu = `server CPU: ${s(costs.serverCpuMs)} of CPU in ${s(wall)} over ${over}`
  }
  if (costs.link && bound && bound.downBitsPerSecond) {
    const busyMs = costs.link.down.bytes * 8 / bound.downBitsPerSecond * 1000
    shares.bandwidth = busyMs / timed
    sentences.bandwidth = `bandwidth: the downlink busy ${pct(shares.bandwidth)} of the time (${(costs.link.down.bytes / 1e6).toFixed(2)} MB at ${+(bound.downBitsPerSecond / 1e6).toPrecision(3)} Mbit/s)`
  }
  if (bound && bound.rttMs > 0) {
    const perRun = bound.latencyMs
    shares.latency = perRun * costs.runs / timed
    sentences.latency = `latency: ${bound.rounds} round trip${bound.rounds === 1 ? '' : 's'} of ${+bound.rttMs.toFixed(1)} ms a run, ${pct(shares.latency)} of the time`
  }
  // A corrupted packet is lost to TCP (its receiver drops it on the checksum) as it is to QUIC. Records from before
  // otherDropped and corrupted were kept have none.
  const dropsOf = d => d.lost + d.queueDropped + (d.otherDropped || 0) + (d.corrupted || 0)
  const drops = costs.link ? dropsOf(costs.link.down) + dropsOf(costs.link.up) : 0
  const corrupted = costs.link ? (costs.link.down.corrupted || 0) + (costs.link.up.corrupted || 0) : 0
  const quic = transport === 'quic'
  // Over QUIC, the server's qlog where it was read (load cells), else nothing: the namespaces' TCP counters see other traffic.
  const qlog = quic && costs.quic && costs.quic.runs === costs.runs ? costs.quic : null
  const tcp = quic ? [] : ['server', 'client'].map(k => costs.tcp[k]).filter(Boolean)
  const timeouts = qlog ? qlog.ptoExpired : tcp.reduce((n, t) => n + t.timeouts, 0)
  const retransmitted = tcp.reduce((n, t) => n + t.retransmitted, 0)
  // Over QUIC a loss the link did not count (a corrupted packet, dropped by its receiver) is in the qlog.
  const lossy = drops > 0 || (qlog !== null && qlog.packetsLost > 0)
  const loss = !lossy ? null
    : qlog ? { drops, transport, declaredLost: qlog.packetsLost, timeouts }
      : quic ? { drops, transport } : { drops, timeouts, retransmitted }
  const [top] = Object.entries(shares).sort((a, b) => b[1] - a[1])
  // The bound's bandwidth time over the time measured: at 85 % or more the link's rate explains the cell, whatever the CPU did.
  const boundShare = bound && bound.bandwidthMs ? bound.bandwidthMs * costs.runs / timed : 0
  const bandwidthBound = boundShare >= BANDWIDTH_BOUND
  let dominant
  if (loss && (top[1] < 0.5 || timeouts > 0)) {
    const recovery = qlog
      ? `the server's QUIC declared ${qlog.packetsLost} packets lost and ${qlog.ptoExpired} probe timeouts fired (its qlog; the client's own recovery is not logged)`
      : quic ? 'recovered by QUIC (its retransmissions are not counted here)' : `${retransmitted} TCP retransmissions, ${timeouts} timeouts`
    dominant = `loss recovery: ${drops || !qlog ? `${drops} packets dropped${corrupted ? ` (${corrupted} corrupted)` : ''}, ` : ''}${recovery} (over ${over})` +
      `; next, ${sentences[top[0]]}`
  } else if (bandwidthBound) {
    dominant = `bandwidth-bound: the bound's ${s(bound.bandwidthMs)} a run at the network's rate is ${pct(boundShare)} of the time (${pct(BANDWIDTH_BOUND)} or more)`
  } else if (top[1] >= SHAPING) {
    dominant = sentences[top[0]]
  } else {
    dominant = `none dominates: ${Object.entries(shares).sort((a, b) => b[1] - a[1]).map(([k, v]) => `${{ clientCpu: 'client CPU', serverCpu: 'server CPU', bandwidth: 'bandwidth', latency: 'latency' }[k]} ${pct(v)}`).join(', ')} of the time`
  }
  const cpuShaped = !bandwidthBound && Math.max(shares.clientCpu || 0, shares.serverCpu || 0) >= SHAPING
  return { shares, dominant, cpuShaped, loss }
}

module.exports = { dominantCost, timedMsOf, SHAPING, BANDWIDTH_BOUND }

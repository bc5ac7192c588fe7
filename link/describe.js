'use strict'

// A link in words (link/spec.js's link objects): "Regular 3G: 768 kbit/s
// down, 256 kbit/s up, 100 ms RTT, queue 1000 packets", the description
// every link carries and h2bench-link --list prints; and whether a link
// emulates anything at all. A droptail queue reads as it always has
// ("queue 1000 packets"): descriptions are recorded with every result, and
// an old one must still match a new one for the same link.

const path = require('node:path')
const { num, DIRECTIONS, gemodelMeans } = require('./spec-values')

function fmtTime (us) {
  if (us === 0) return '0 ms'
  if (us < 1000) return `${us} µs`
  return `${num(us / 1000)} ms`
}

function fmtRate (bps) {
  for (const [unit, mult] of [['Gbit/s', 1e9], ['Mbit/s', 1e6], ['kbit/s', 1e3]]) {
    if (bps >= mult) return `${Number((bps / mult).toPrecision(4))} ${unit}`
  }
  return `${bps} bit/s`
}

function fmtQueue (queue) {
  if (queue === null) return 'unlimited'
  if (queue.packets) return `${queue.packets} packet${queue.packets === 1 ? '' : 's'}`
  for (const [unit, mult] of [['MiB', 1024 ** 2], ['MB', 1e6], ['KiB', 1024], ['KB', 1e3]]) {
    if (queue.bytes % mult === 0) return `${queue.bytes / mult} ${unit}`
  }
  return `${queue.bytes} bytes`
}

const fmtPercent = fraction => `${num(fraction * 100)} %`
// A step's time or an outage's period: seconds read better than "5000 ms" there.
const fmtAt = us => us >= 1e6 ? `${num(us / 1e6)} s` : fmtTime(us)
// Packets N…M: "packets 100–199", one alone "packet 0".
const fmtRange = r => r.count === 1 ? `packet ${r.from}` : `packets ${r.from}–${r.from + r.count - 1}`
const hasBottleneck = d => d.rateBps !== null || d.trace !== null
// Where packets can queue: a rate or trace now, or a step that sets a rate later.
const queues = d => hasBottleneck(d) || (d.steps || []).some(s => s.rateBps)
const bottleneck = d => d.trace
  ? `trace ${path.basename(d.trace.path)} (${fmtRate(d.trace.meanBitsPerSecond)} mean)`
  : d.rateBps !== null ? fmtRate(d.rateBps) : 'unlimited'

// "X" when both directions say X, else "X down, Y up" over the directions
// where `shown` holds.
function perDirection (link, text, shown = () => true) {
  const [down, up] = [link.down, link.up].map(d => shown(d) ? text(d) : null)
  if (down !== null && down === up) return down
  return [['down', down], ['up', up]].filter(([, t]) => t !== null).map(([dir, t]) => `${t} ${dir}`).join(', ')
}

// " down" or " up" when only that direction has it, "" when both do.
function where (link, has) {
  if (has(link.down) && has(link.up)) return ''
  return has(link.down) ? ' down' : ' up'
}

// Effects a direction holds only when set (link/spec.js leaves them out otherwise).
const OPTIONAL = ['gemodel', 'drop', 'dropflow', 'outage', 'aqm', 'ecn', 'steps', 'cross', 'rebind']

function isUnimpaired (link) {
  return DIRECTIONS.every(dir => {
    const d = link[dir]
    return d.delayUs === 0 && d.jitterUs === 0 && !hasBottleneck(d) && d.loss === 0 && d.dup === 0 && d.corrupt === 0 && d.reorder === 0 &&
      OPTIONAL.every(k => !d[k])
  })
}

// One part per direction ("steps down: …"), or one for both when they say the same ("steps each way: …").
function perDirectionParts (link, label, text, shown) {
  const [down, up] = [link.down, link.up].map(d => shown(d) ? text(d) : null)
  if (down !== null && down === up) return [`${label} each way: ${down}`]
  return [['down', down], ['up', up]].filter(([, t]) => t !== null).map(([dir, t]) => `${label} ${dir}: ${t}`)
}

// The queue of a direction with its discipline, Linux's names: "CoDel queue (target 5 ms, interval 100 ms, 1000 packets)".
const AQM_NAMES = { codel: 'CoDel', fq_codel: 'FQ-CoDel', pie: 'PIE' }
function fmtDiscipline (d) {
  if (!d.aqm) return `droptail queue ${fmtQueue(d.queue)}`
  const interval = d.aqm.intervalUs ? `, interval ${fmtTime(d.aqm.intervalUs)}` : ''
  return `${AQM_NAMES[d.aqm.kind]} queue (target ${fmtTime(d.aqm.targetUs)}${interval}, ${fmtQueue(d.queue)})`
}

// "at 5 s 1 Mbit/s 150 ms", "at 10 s delay 20 ms": a step's new rate and one-way delay, what it leaves out kept.
function fmtStep (s) {
  const rate = s.rateBps === undefined ? null : s.rateBps === null ? 'unlimited rate' : fmtRate(s.rateBps)
  const delay = s.delayUs === undefined ? null : rate ? fmtTime(s.delayUs) : `delay ${fmtTime(s.delayUs)}`
  return `at ${fmtAt(s.atUs)} ${[rate, delay].filter(Boolean).join(' ')}`
}

// "CUBIC, web", a flow named twice "CUBIC ×2".
const FLOW_NAMES = { cubic: 'CUBIC', bbr: 'BBR', reno: 'Reno', quic: 'QUIC', web: 'web' }
function fmtFlows (flows) {
  const counts = new Map()
  for (const f of flows) counts.set(f, (counts.get(f) || 0) + 1)
  return [...counts].map(([f, n]) => `${FLOW_NAMES[f] || f}${n > 1 ? ` ×${n}` : ''}`).join(', ')
}

// "Regular 3G: 768 kbit/s down, 256 kbit/s up, 100 ms RTT, queue 1000 packets"
function describeLink (link) {
  let prefix = ''
  if (link.name) {
    const overrides = link.text ? link.text.split(',').slice(1).map(s => s.trim()).join(', ') : ''
    prefix = `${link.name}${overrides ? ` with ${overrides}` : ''}: `
  }
  if (isUnimpaired(link)) return `${prefix}nothing emulated (no delay, rate limit or loss)`
  const parts = []
  const { up, down } = link
  if (!hasBottleneck(up) && !hasBottleneck(down)) parts.push('unlimited rate')
  else if (bottleneck(up) === bottleneck(down)) parts.push(`${bottleneck(down)} each way`)
  else parts.push(`${bottleneck(down)} down, ${bottleneck(up)} up`)
  if (up.delayUs === down.delayUs && up.jitterUs === down.jitterUs) {
    if (up.delayUs > 0) parts.push(`${fmtTime(2 * up.delayUs)} RTT${up.jitterUs ? ` (±${fmtTime(up.jitterUs)} jitter each way)` : ''}`)
  } else {
    parts.push(`delay ${perDirection(link, d => fmtTime(d.delayUs) + (d.jitterUs ? ` ±${fmtTime(d.jitterUs)}` : ''), d => d.delayUs > 0)}`)
  }
  if (up.aqm || down.aqm) parts.push(perDirection(link, fmtDiscipline, queues))
  else if (queues(up) || queues(down)) parts.push(`queue ${perDirection(link, d => fmtQueue(d.queue), queues)}`)
  if (up.ecn || down.ecn) parts.push(`ECN marking${where(link, d => Boolean(d.ecn))}`)
  for (const what of ['loss', 'dup', 'corrupt', 'reorder']) {
    if (up[what] > 0 || down[what] > 0) parts.push(`${what} ${perDirection(link, d => fmtPercent(d[what]), d => d[what] > 0)}`)
    if (what === 'loss' && (up.gemodel || down.gemodel)) {
      parts.push(`bursty loss ${perDirection(link, d => {
        if (!d.gemodel) return ''
        const g = d.gemodel
        const m = gemodelMeans(g)
        return `(Gilbert-Elliott: into bursts ${fmtPercent(g.p)}, out ${fmtPercent(g.r)}, lost in bursts ${fmtPercent(g.badLoss)}, between ${fmtPercent(g.goodLoss)}; ${+(m.loss * 100).toPrecision(3)} % on average, bursts of ${+m.meanBadPackets.toPrecision(3)} packets)`
      }, d => Boolean(d.gemodel))}`)
    }
  }
  if (up.drop || down.drop) parts.push(perDirection(link, d => `${fmtRange(d.drop)} dropped`, d => Boolean(d.drop)))
  if (up.dropflow || down.dropflow) parts.push(perDirection(link, d => `${fmtRange(d.dropflow)} of every flow dropped`, d => Boolean(d.dropflow)))
  if (up.outage || down.outage) parts.push(`outages ${perDirection(link, d => `(up ${fmtAt(d.outage.onUs)}, dark ${fmtAt(d.outage.offUs)}, ${d.outage.count ? `${d.outage.count} time${d.outage.count === 1 ? '' : 's'}` : 'repeating'})`, d => Boolean(d.outage))}`)
  parts.push(...perDirectionParts(link, 'steps', d => d.steps.map(fmtStep).join(', '), d => Boolean(d.steps)))
  parts.push(...perDirectionParts(link, 'cross traffic', d => fmtFlows(d.cross), d => Boolean(d.cross)))
  if (up.rebind) {
    const r = up.rebind
    parts.push(`NAT rebinding: the client's ${r.kind} changes at ${fmtAt(r.firstUs)}${r.everyUs ? `, then every ${fmtAt(r.everyUs)}` : ''}`)
  }
  return prefix + parts.join(', ')
}

module.exports = { describeLink, isUnimpaired, fmtTime, fmtRate, fmtQueue, AQM_NAMES, FLOW_NAMES }

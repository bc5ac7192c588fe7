'use strict'

// A link in words (link/spec.js's link objects): "Regular 3G: 768 kbit/s
// down, 256 kbit/s up, 100 ms RTT, queue 1000 packets", the description
// every link carries and h2bench-link --list prints; and whether a link
// emulates anything at all.

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
const hasBottleneck = d => d.rateBps !== null || d.trace !== null
const bottleneck = d => d.trace
  ? `trace ${path.basename(d.trace.path)} (${fmtRate(d.trace.meanBitsPerSecond)} mean)`
  : d.rateBps !== null ? fmtRate(d.rateBps) : 'unlimited'

// "X" when both directions say X, else "X down, Y up" over the directions
// where `shown` holds.
function perDirection (link, text, shown = () => true) {
  const down = text(link.down)
  const up = text(link.up)
  if (shown(link.down) && shown(link.up) && down === up) return down
  return [['down', link.down, down], ['up', link.up, up]].filter(([, d]) => shown(d)).map(([dir, , t]) => `${t} ${dir}`).join(', ')
}

function isUnimpaired (link) {
  return DIRECTIONS.every(dir => {
    const d = link[dir]
    return d.delayUs === 0 && d.jitterUs === 0 && !hasBottleneck(d) && d.loss === 0 && !d.gemodel && !d.drop && !d.outage && d.dup === 0 && d.corrupt === 0 && d.reorder === 0
  })
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
  if (hasBottleneck(up) || hasBottleneck(down)) parts.push(`queue ${perDirection(link, d => fmtQueue(d.queue), hasBottleneck)}`)
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
  if (up.drop || down.drop) parts.push(`packets ${perDirection(link, d => d.drop ? `${d.drop.from}–${d.drop.from + d.drop.count - 1} dropped` : '', d => Boolean(d.drop))}`)
  if (up.outage || down.outage) parts.push(`outages ${perDirection(link, d => d.outage ? `(up ${fmtTime(d.outage.onUs)}, dark ${fmtTime(d.outage.offUs)}, repeating)` : '', d => Boolean(d.outage))}`)
  return prefix + parts.join(', ')
}

module.exports = { describeLink, isUnimpaired, fmtTime }

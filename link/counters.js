'use strict'

// The forwarder's counters (its `stats` JSON) as a table, one column per
// direction: what a user reads after h2bench-link.

const ROWS = [
  ['packets in', d => d.in_packets],
  ['bytes in', d => d.in_bytes],
  ['packets forwarded', d => d.out_packets],
  ['bytes forwarded', d => d.out_bytes],
  ['dropped: loss', d => d.lost],
  ['dropped: queue full', d => d.queue_dropped],
  ['duplicated', d => d.duplicated],
  ['corrupted', d => d.corrupted],
  ['reordered', d => d.reordered],
  ['queueing delay p50', d => ms(d.queue_delay_ms.p50)],
  ['queueing delay p99', d => ms(d.queue_delay_ms.p99)],
  ['queueing delay max', d => ms(d.queue_delay_ms.max)],
  ['forwarder lateness p99', d => ms(d.late_ms.p99)]
]

// The forwarder's counters that only some links use, in the order shown.
const OPTIONAL_ROWS = {
  scheduled_dropped: 'dropped: scheduled',
  flow_dropped: 'dropped: flow\'s first packets',
  blackholed: 'dropped: outage',
  aqm_dropped: 'dropped: AQM',
  ecn_marked: 'ECN-marked (CE)',
  nat_dropped: 'dropped: old NAT binding',
  steps_applied: 'steps applied',
  overflow_dropped: 'overflow dropped',
  write_errors: 'write errors'
}

function ms (x) {
  return x >= 100 ? `${x.toFixed(0)} ms` : x >= 1 ? `${x.toFixed(1)} ms` : `${x.toFixed(3)} ms`
}

function count (x) {
  return typeof x === 'number' ? x.toLocaleString('en-US') : x
}

function formatStats (stats) {
  const width = Math.max(...ROWS.map(([label]) => label.length), ...Object.values(OPTIONAL_ROWS).map(label => label.length))
  const lines = [`${'link counters'.padEnd(width)}  ${'up (client → lanes)'.padStart(22)}  ${'down (lanes → client)'.padStart(22)}`]
  for (const [label, get] of ROWS) {
    lines.push(`${label.padEnd(width)}  ${String(count(get(stats.up))).padStart(22)}  ${String(count(get(stats.down))).padStart(22)}`)
  }
  // Rows that only some links have (scheduled drops, outages, queue disciplines, NAT rebinding) and errors: shown when not 0.
  const optional = Object.keys(OPTIONAL_ROWS).filter(k => stats.up[k] || stats.down[k])
  for (const k of optional) lines.push(`${OPTIONAL_ROWS[k].padEnd(width)}  ${String(count(stats.up[k] || 0)).padStart(22)}  ${String(count(stats.down[k] || 0)).padStart(22)}`)
  return lines.join('\n')
}

module.exports = { formatStats }

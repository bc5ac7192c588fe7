'use strict'

// npm run bench:link's figures: the median over repeats of each measurement,
// and the tables printed from them.

const stats = require('../../shared/stats')

// The median of the finite numbers among `values` (stats.js's, the one median), or null.
const median = values => {
  const v = values.filter(x => typeof x === 'number' && Number.isFinite(x))
  return v.length ? stats.median(v) : null
}
const get = (obj, dotted) => dotted.split('.').reduce((o, k) => (o === null || o === undefined ? null : o[k]), obj)

// The fields summarised (median of the repeats; with the range in the JSON).
const FIELDS = [
  'offeredMbps', 'deliveredMbps', 'deliveredPps', 'meanPacketBytes', 'lossPercent', 'sinkDrops',
  'cpuPercent.forwarder', 'cpuPercent.sender', 'cpuPercent.sink', 'cpuPercent.system',
  'addedDelayMs.p50', 'addedDelayMs.p90', 'addedDelayMs.p99', 'addedDelayMs.max',
  'forwarderLateMs.p50', 'forwarderLateMs.p90', 'forwarderLateMs.p99', 'forwarderLateMs.max'
]

function summarise (runs) {
  const out = {}
  for (const field of FIELDS) {
    const values = runs.map(r => get(r, field)).filter(x => typeof x === 'number' && Number.isFinite(x))
    if (!values.length) continue
    out[field] = { median: median(values), min: Math.min(...values), max: Math.max(...values) }
  }
  return out
}

const fmt = (x, digits = 0) => x === null || x === undefined ? '—' : x.toFixed(digits)
const ms = x => x === null || x === undefined ? '—' : x.toFixed(x < 10 ? 2 : 1)
const pair = (a, b) => a === null || a === undefined ? '—' : `${ms(a)} / ${ms(b)}`
const m = (s, field) => s && s[field] ? s[field].median : null

function table (header, rows) {
  const all = [header, ...rows]
  const widths = header.map((_, i) => Math.max(...all.map(r => String(r[i]).length)))
  const line = r => r.map((c, i) => i === 0 ? String(c).padEnd(widths[i]) : String(c).padStart(widths[i])).join('  ')
  return [line(header), widths.map(w => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n')
}

// results: { paths: [{ key, name }], loads: [{ id, … }], summary: { [path]: { [load]: summary } }, delayMs }
function formatTables ({ paths, summary, rates, delayMs }) {
  const s = (p, id) => summary[p.key] && summary[p.key][id]
  const delayIds = rates.map(r => `udp${r}`)
  const top = rates[rates.length - 1]
  const main = table(
    ['path', 'max Mbit/s', 'kpps', 'CPU %', `CPU % @${top}`, ...rates.flatMap(r => [`@${r} probe`, `@${r} own`])],
    paths.map(p => [
      p.name,
      fmt(m(s(p, 'tcp'), 'deliveredMbps')),
      fmt(m(s(p, 'tcp'), 'deliveredPps') / 1000, 1),
      p.key === 'veth' ? '(kernel)' : fmt(m(s(p, 'tcp'), 'cpuPercent.forwarder')),
      p.key === 'veth' ? '(kernel)' : fmt(m(s(p, `udp${top}`), 'cpuPercent.forwarder')),
      ...delayIds.flatMap(id => [
        pair(m(s(p, id), 'addedDelayMs.p50'), m(s(p, id), 'addedDelayMs.p99')),
        pair(m(s(p, id), 'forwarderLateMs.p50'), m(s(p, id), 'forwarderLateMs.p99'))
      ])
    ])
  )
  const rate = table(
    ['path', 'load', 'offered Mbit/s', 'delivered Mbit/s', 'kpps', 'B/packet', 'forwarder CPU %', 'sender CPU %', 'sink CPU %', 'all CPUs %'],
    paths.flatMap(p => ['tcp', 'flood'].map(id => {
      const x = s(p, id)
      return [
        p.name, id === 'tcp' ? 'TCP bulk' : 'UDP flood', fmt(m(x, 'offeredMbps')), fmt(m(x, 'deliveredMbps')),
        fmt(m(x, 'deliveredPps') / 1000, 1), fmt(m(x, 'meanPacketBytes')), fmt(m(x, 'cpuPercent.forwarder')),
        fmt(m(x, 'cpuPercent.sender')), fmt(m(x, 'cpuPercent.sink')), fmt(m(x, 'cpuPercent.system'))
      ]
    }))
  )
  const delay = table(
    ['path', 'load Mbit/s', 'offered', 'probe p50', 'p90', 'p99', 'max', 'late_ms p50', 'p99', 'max', 'loss %', 'forwarder CPU %', 'all CPUs %'],
    paths.flatMap(p => rates.map(r => {
      const x = s(p, `udp${r}`)
      return [
        p.name, r, fmt(m(x, 'offeredMbps')),
        ms(m(x, 'addedDelayMs.p50')), ms(m(x, 'addedDelayMs.p90')), ms(m(x, 'addedDelayMs.p99')), ms(m(x, 'addedDelayMs.max')),
        ms(m(x, 'forwarderLateMs.p50')), ms(m(x, 'forwarderLateMs.p99')), ms(m(x, 'forwarderLateMs.max')),
        fmt(m(x, 'lossPercent'), 2), fmt(m(x, 'cpuPercent.forwarder')), fmt(m(x, 'cpuPercent.system'))
      ]
    }))
  )
  return [
    'Summary. max: a TCP bulk transfer at IP level, 1500-byte packets, nothing emulated; CPU %: the forwarder\'s there',
    `and at ${top} Mbit/s offered. Delay added beyond the configured one (${delayMs} ms each way; veth: none), p50 / p99 in ms,`,
    `at ${rates.join(', ')} Mbit/s of paced UDP offered: probe = one-way delay sender → sink minus the configured delay;`,
    'own = the forwarder\'s late_ms (the time it wrote a packet minus the time it was due, by its own clock).',
    '',
    main,
    '',
    'Maximum rate, nothing emulated (delivered: what the server-side device received, at IP level):',
    '',
    rate,
    '',
    `Added delay (ms) under paced UDP load of 1500-byte packets, ${delayMs} ms configured each way on the forwarders`,
    '(probe: one-way delay minus the configured delay; late_ms: the forwarder\'s own):',
    '',
    delay
  ].join('\n')
}

module.exports = { summarise, formatTables, median }

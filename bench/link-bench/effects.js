'use strict'

// npm run bench:link -- --effects: what each of the link's effects costs the
// C forwarder. The same two loads per effect, on top of the configured delay:
// a UDP flood (the most it moves with the effect on: delivered rate and its
// CPU) and paced UDP at 100 Mbit/s (the delay it adds: the probe's one-way
// delay minus the configured one, and its own lateness). Each effect is on the
// up direction, where the load goes (the sender is in the client namespace),
// and is chosen so that it works on every packet without changing the
// traffic much: 1 % loss, not 30 %; an outage and a step an hour away (each
// packet still checks them); a queue discipline under a 400 Mbit/s rate, which
// the flood fills and the 100 Mbit/s load does not.

const { median } = require('./report')

const EFFECTS = [
  { id: 'none', spec: '', what: 'nothing but the delay' },
  { id: 'jitter', spec: 'jitter.up=2ms', what: '±2 ms uniform (the probe shows it; the forwarder\'s lateness does not)' },
  { id: 'loss', spec: 'loss.up=1%', what: 'Bernoulli loss' },
  { id: 'gemodel', spec: 'gemodel.up=1%/30%', what: 'Gilbert-Elliott loss' },
  { id: 'dup', spec: 'dup.up=1%', what: 'duplication' },
  { id: 'corrupt', spec: 'corrupt.up=1%', what: 'one bit flipped' },
  { id: 'reorder', spec: 'reorder.up=1%', what: 'reordering (a reordered packet skips the delay)' },
  { id: 'drop', spec: 'drop.up=0-999', what: 'the first 1000 packets since the seed' },
  { id: 'dropflow', spec: 'dropflow.up=0-9', what: 'the first 10 packets of each flow (a flow table lookup a packet)' },
  { id: 'outage', spec: 'outage.up=3600s/1s', what: 'an outage an hour away' },
  { id: 'step', spec: 'step.up=3600s/-/20ms', what: 'a step an hour away' },
  { id: 'rebind', spec: 'rebind=10ms', what: 'the client\'s port rebound after 10 ms: every packet rewritten (checksums fixed up)' },
  { id: 'droptail', spec: 'up=400mbit', what: '400 Mbit/s, droptail 1000 packets' },
  { id: 'codel', spec: 'up=400mbit,aqm.up=codel', what: '400 Mbit/s, CoDel' },
  { id: 'fq_codel', spec: 'up=400mbit,aqm.up=fq_codel', what: '400 Mbit/s, FQ-CoDel' },
  { id: 'pie', spec: 'up=400mbit,aqm.up=pie', what: '400 Mbit/s, PIE' }
]

const EFFECT_RATE_MBPS = 100

// The measurements of --effects: per effect, the flood then the paced load.
function effectsPlan (effects = EFFECTS) {
  return effects.flatMap(e => [
    { id: `${e.id}:flood`, effect: e, what: `${e.id} flood`, mode: 'udp', rateBps: 0 },
    { id: `${e.id}:udp${EFFECT_RATE_MBPS}`, effect: e, what: `${e.id} ${EFFECT_RATE_MBPS} Mbit/s`, mode: 'udp', rateBps: EFFECT_RATE_MBPS * 1e6 }
  ])
}

// `--effects loss,codel` → those effects; an unknown one is an error naming the known.
function pickEffects (text) {
  if (text === true || text === '' || text === 'all') return EFFECTS
  const ids = String(text).split(',').map(s => s.trim()).filter(Boolean)
  const unknown = ids.filter(id => !EFFECTS.some(e => e.id === id))
  if (unknown.length) return { error: `unknown effect "${unknown[0]}"; effects are ${EFFECTS.map(e => e.id).join(', ')} (or all)` }
  return EFFECTS.filter(e => ids.includes(e.id))
}

const fmt = (x, digits = 0) => x === null || x === undefined ? '—' : x.toFixed(digits)
const ms = x => x === null || x === undefined ? '—' : x.toFixed(x < 10 ? 2 : 1)
const get = (obj, dotted) => dotted.split('.').reduce((o, k) => (o === null || o === undefined ? null : o[k]), obj)

// The table: one row per effect, medians over the repeats, each figure beside the same run's "none".
function formatEffects ({ runs, effects, delayMs }) {
  const med = (id, field) => median(runs.filter(r => r.load === id).map(r => get(r, field)))
  const noneFlood = med('none:flood', 'deliveredMbps')
  const header = ['effect', 'spec (up)', 'flood Mbit/s', '÷ none', 'forwarder CPU %', `@${EFFECT_RATE_MBPS} probe p50 / p99`, 'late p99', 'loss %']
  const rows = effects.map(e => {
    const flood = med(`${e.id}:flood`, 'deliveredMbps')
    const paced = `${e.id}:udp${EFFECT_RATE_MBPS}`
    return [
      e.id, e.spec || '—', fmt(flood), flood !== null && noneFlood ? (flood / noneFlood).toFixed(2) : '—',
      fmt(med(`${e.id}:flood`, 'cpuPercent.forwarder')),
      `${ms(med(paced, 'addedDelayMs.p50'))} / ${ms(med(paced, 'addedDelayMs.p99'))}`,
      ms(med(paced, 'forwarderLateMs.p99')),
      fmt(med(paced, 'lossPercent'), 2)
    ]
  })
  const all = [header, ...rows]
  const widths = header.map((_, i) => Math.max(...all.map(r => String(r[i]).length)))
  const line = r => r.map((c, i) => i <= 1 ? String(c).padEnd(widths[i]) : String(c).padStart(widths[i])).join('  ')
  return [
    `The C forwarder with each effect on (up direction, on top of ${delayMs} ms each way), medians over the repeats:`,
    'flood = UDP of 1500-byte packets as fast as the sender can, delivered at IP level, and the forwarder\'s CPU then;',
    `÷ none = the flood's rate over the same run's rate with nothing but the delay; @${EFFECT_RATE_MBPS} = paced UDP at ${EFFECT_RATE_MBPS} Mbit/s:`,
    'probe = one-way delay minus the configured delay (ms), late p99 = the forwarder\'s own lateness (ms), loss % = of what was sent.',
    '',
    line(header),
    widths.map(w => '-'.repeat(w)).join('  '),
    ...rows.map(line),
    '',
    ...effects.map(e => `  ${e.id.padEnd(9)} ${e.what}`)
  ].join('\n')
}

module.exports = { EFFECTS, EFFECT_RATE_MBPS, effectsPlan, pickEffects, formatEffects }

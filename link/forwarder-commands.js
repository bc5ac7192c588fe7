'use strict'

// A link (link/spec.js's link objects) as the forwarder's control lines:
// what openLink (link/namespace.js) and configure() (link/forwarder/)
// write to the forwarder's stdin.

const { LinkSpecError } = require('./spec-error')
const { num, DIRECTIONS } = require('./spec-values')

const AQM_CODES = { codel: 1, fq_codel: 2, pie: 3 }

// One `set` line per direction for the forwarder's stdin (see the header of
// link/forwarder/forwarder.c): rate_bps=0 is no limit, queue_packets and
// queue_bytes both 0 an unlimited queue, fractions 0…1, trace=- none.
function forwarderCommands (link) {
  return DIRECTIONS.map(dir => {
    const d = link[dir]
    if (d.trace && /[\s=]/.test(d.trace.path)) {
      throw new LinkSpecError(`trace.${dir}: trace path must not contain spaces or "=": ${JSON.stringify(d.trace.path)}`, { param: `trace.${dir}` })
    }
    const q = d.queue || {}
    const fields = {
      delay_us: d.delayUs,
      jitter_us: d.jitterUs,
      rate_bps: d.rateBps || 0,
      queue_packets: q.packets || 0,
      queue_bytes: q.bytes || 0,
      loss: num(d.loss),
      dup: num(d.dup),
      corrupt: num(d.corrupt),
      reorder: num(d.reorder),
      // Gilbert-Elliott loss: ge=0 turns it off (a link changed from one with it).
      ge: d.gemodel ? 1 : 0,
      ...(d.gemodel ? { ge_p: num(d.gemodel.p), ge_r: num(d.gemodel.r), ge_bad: num(d.gemodel.badLoss), ge_good: num(d.gemodel.goodLoss) } : {}),
      // Scheduled drops and outages: a count or dark period of 0 is none (a link changed from one with them).
      ...(d.drop ? { drop_from: d.drop.from } : {}),
      drop_count: d.drop ? d.drop.count : 0,
      ...(d.outage ? { outage_on_us: d.outage.onUs, outage_count: d.outage.count || 0 } : {}),
      outage_off_us: d.outage ? d.outage.offUs : 0,
      // The queue discipline (0 droptail, 1 CoDel, 2 FQ-CoDel, 3 PIE) and ECN marking in place of drops.
      aqm: d.aqm ? AQM_CODES[d.aqm.kind] : 0,
      ...(d.aqm ? { aqm_target_us: d.aqm.targetUs, aqm_interval_us: d.aqm.intervalUs || 0 } : {}),
      ecn: d.ecn ? 1 : 0,
      // Drops of every flow's packets N…M (its first flight): a count of 0 is none.
      ...(d.dropflow ? { flowdrop_from: d.dropflow.from } : {}),
      flowdrop_count: d.dropflow ? d.dropflow.count : 0,
      // Steps: AT_US:RATE_BPS:DELAY_US joined by ";", "k" keeps a value, a rate of 0 is unlimited; "-" none.
      steps: d.steps ? d.steps.map(s => `${s.atUs}:${s.rateBps === undefined ? 'k' : s.rateBps || 0}:${s.delayUs === undefined ? 'k' : s.delayUs}`).join(';') : '-',
      // The client's NAT (on the up line only: it is one for both directions); a first rebinding at 0 is none.
      ...(dir === 'up' ? { rebind_kind: d.rebind ? (d.rebind.kind === 'address' ? 2 : 1) : 0, rebind_first_us: d.rebind ? d.rebind.firstUs : 0, rebind_every_us: d.rebind ? d.rebind.everyUs : 0 } : {}),
      trace: d.trace ? d.trace.path : '-'
    }
    return `set ${dir} ${Object.entries(fields).map(([k, v]) => `${k}=${v}`).join(' ')}`
  })
}

module.exports = { forwarderCommands }

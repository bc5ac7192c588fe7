'use strict'

// The link's counters as h2bench-link prints them (link/counters.js).
const assert = require('node:assert/strict')
const { formatStats } = require('../../link/counters')

const hist = { n: 0, p50: 0, p90: 0, p99: 0, max: 0 }
const dir = extra => ({
  in_packets: 1000, in_bytes: 1500000, out_packets: 990, out_bytes: 1485000, lost: 0, queue_dropped: 0, duplicated: 0,
  corrupted: 0, reordered: 0, overflow_dropped: 0, write_errors: 0, scheduled_dropped: 0, blackholed: 0, flow_dropped: 0,
  aqm_dropped: 0, ecn_marked: 0, nat_dropped: 0, steps_applied: 0, queue_delay_ms: hist, late_ms: hist, ...extra
})

describe('the link counters table', () => {
  it('shows the rows every link has, and the others only when a direction counted something', () => {
    const plain = formatStats({ up: dir(), down: dir() })
    assert.doesNotMatch(plain, /AQM|ECN|NAT|steps|flow's/)
    const table = formatStats({ up: dir({ flow_dropped: 2 }), down: dir({ aqm_dropped: 1234, ecn_marked: 56, nat_dropped: 160, steps_applied: 1 }) })
    const row = label => table.split('\n').find(l => l.startsWith(label))
    assert.match(row('dropped: AQM'), /\s0\s+1,234$/)
    assert.match(row('ECN-marked (CE)'), /\s56$/)
    assert.match(row('dropped: old NAT binding'), /\s160$/)
    assert.match(row('dropped: flow\'s first packets'), /\s2\s+0$/)
    assert.match(row('steps applied'), /\s1$/)
    // One column width for every row.
    const widths = new Set(table.split('\n').map(l => l.length))
    assert.equal(widths.size, 1, `rows of different lengths: ${[...widths]}`)
  })
})

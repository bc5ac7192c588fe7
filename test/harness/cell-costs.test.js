'use strict'

// The cost meter's instruments against independent observers (harness/cell-costs.js).
const assert = require('node:assert/strict')
const { execFileSync } = require('node:child_process')
const { reapedChildrenCpuMs, procStat, ticksPerSecond } = require('../../harness/cell-costs')

describe('harness/cell-costs.js: the CPU a load tool used', () => {
  it('a reaped child\'s CPU time, as this process\'s children\'s, agrees with what the child measured of itself', () => {
    const before = reapedChildrenCpuMs()
    // The child burns 400 ms of its own CPU in a busy loop (counted by its CPU time, not the wall's: on a busy
    // machine 400 ms of wall gave it less), then says its own CPU time.
    const child = 'let u = process.cpuUsage(); while (u.user + u.system < 400000) u = process.cpuUsage(); console.log(JSON.stringify((u.user + u.system) / 1000))'
    const own = JSON.parse(execFileSync(process.execPath, ['-e', child], { encoding: 'utf8' }))
    const seen = reapedChildrenCpuMs() - before
    const tick = 1000 / ticksPerSecond()
    assert.ok(own >= 400, `the child used ${own} ms`)
    // /proc counts in clock ticks; the child's own figure leaves out its exit: within two ticks and 10 %.
    assert.ok(Math.abs(seen - own) <= 2 * tick + 0.1 * own, `reaped ${seen} ms, the child's own ${own} ms`)
  })

  it('reads /proc/<pid>/stat after the command name, whatever it holds', () => {
    const s = procStat('self')
    assert.ok(s.ppid > 0 && s.ticks >= 0 && s.childTicks >= 0, JSON.stringify(s))
    assert.equal(procStat(2 ** 22 + 7), null)
  })
})

'use strict'

// The cost meter's instruments against independent observers (harness/cell-costs.js).
const assert = require('node:assert/strict')
const { execFileSync } = require('node:child_process')
const { spawn } = require('node:child_process')
const { cmdlineOf } = require('../../common/proc')
const { reapedChildrenCpuMs, procStat, ticksPerSecond, processTypeOf } = require('../../harness/cell-costs')

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

describe('harness/cell-costs.js: the kind of each Chromium process, by its own switches', () => {
  it('browser (no --type), renderer, network (the network service utility), gpu, other', async () => {
    const kinds = [
      [[], 'browser'],
      [['--type=renderer'], 'renderer'],
      [['--type=utility', '--utility-sub-type=network.mojom.NetworkService'], 'network'],
      [['--type=utility', '--utility-sub-type=storage.mojom.StorageService'], 'other'],
      [['--type=gpu-process'], 'gpu'],
      [['--type=zygote'], 'other']
    ]
    // Real processes whose command lines carry the switches (/proc/<pid>/cmdline is what is read).
    const children = kinds.map(([args]) => spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30000)', '--', ...args], { stdio: 'ignore' }))
    try {
      // Each child's own command line once it has exec'd (before that it is this process's).
      while (!children.every(c => (cmdlineOf(c.pid) || []).includes('--'))) await new Promise(resolve => setTimeout(resolve, 20))
      assert.deepEqual(children.map(c => processTypeOf(c.pid)), kinds.map(([, kind]) => kind))
    } finally {
      children.forEach(c => c.kill())
    }
    assert.equal(processTypeOf(2 ** 22 + 1), 'browser') // gone (no command line): counted with the browser's own
  })
})

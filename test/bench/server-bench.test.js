'use strict'

// npm run bench:server's CPU per cell (bench/server-bench/server-bench.js):
// on constructed readings and a constructed /proc, no process measured.
const assert = require('node:assert/strict')
const { cellCpu, cpuTicks, cpuCells } = require('../../bench/server-bench/server-bench')
const { makeProc } = require('../support/proc-fixture')

describe('npm run bench:server: the CPU each cell cost', () => {
  it('per process: CPU ms over the measured interval, cores (CPU time over wall time) and ms per request at the measured req/s', () => {
    // 5 s measured at 100 req/s: 500 requests. Ticks at 100 Hz: 500 ticks = 5,000 ms.
    const start = { atMs: 1000, app: 100, edge: 50, h2load: 10 }
    const end = { atMs: 6000, app: 600, edge: 300, h2load: 260 }
    const cpu = cellCpu(start, end, 100, 100)
    assert.equal(cpu.intervalMs, 5000)
    assert.deepEqual(cpu.app, { ms: 5000, cores: 1, msPerRequest: 10 })
    assert.deepEqual(cpu.edge, { ms: 2500, cores: 0.5, msPerRequest: 5 })
    assert.deepEqual(cpu.h2load, { ms: 2500, cores: 0.5, msPerRequest: 5 })
    assert.deepEqual(cpu.servers, { ms: 7500, cores: 1.5, msPerRequest: 15 }, 'the servers: the app and Caddy together')
  })

  it('without Caddy (no edge lane) or a reading gone: null there, the servers are the app alone', () => {
    const cpu = cellCpu({ atMs: 0, app: 0, edge: null, h2load: null }, { atMs: 2000, app: 100, edge: null, h2load: 40 }, 250, 100)
    assert.equal(cpu.edge, null)
    assert.equal(cpu.h2load, null, 'no reading at the start of the interval')
    assert.deepEqual(cpu.app, { ms: 1000, cores: 0.5, msPerRequest: 2 })
    assert.deepEqual(cpu.servers, cpu.app)
  })

  it('nothing answered: cores still, no ms per request', () => {
    const cpu = cellCpu({ atMs: 0, app: 0, edge: 0, h2load: 0 }, { atMs: 1000, app: 50, edge: 0, h2load: 10 }, 0, 100)
    assert.deepEqual(cpu.app, { ms: 500, cores: 0.5, msPerRequest: null })
  })

  it('reads the app\'s process alone, Caddy\'s whole process tree and h2load\'s from /proc/<pid>/stat', () => {
    const proc = makeProc({
      self: 1,
      processes: [
        { pid: 1, ppid: 0, ticks: 7 },
        { pid: 10, ppid: 1, comm: 'node', ticks: 400 }, // the app, Caddy's parent
        { pid: 20, ppid: 10, comm: 'caddy', ticks: 300 },
        { pid: 21, ppid: 20, comm: 'caddy child', ticks: 5 },
        { pid: 30, ppid: 1, comm: 'h2load', ticks: 90 },
        { pid: 40, ppid: 1, comm: 'other', ticks: 1000 }
      ]
    })
    try {
      assert.deepEqual(cpuTicks({ appPid: 10, edgePid: 20, h2loadPid: 30 }, { proc: proc.root }), { app: 400, edge: 305, h2load: 90 })
      assert.deepEqual(cpuTicks({ appPid: 10 }, { proc: proc.root }), { app: 400, edge: null, h2load: null }, 'no edge lane, no h2load')
      assert.deepEqual(cpuTicks({ appPid: 11, edgePid: 22, h2loadPid: 33 }, { proc: proc.root }), { app: null, edge: null, h2load: null }, 'gone')
    } finally {
      proc.remove()
    }
  })

  it('the table\'s cells: ms per request of the app, Caddy and h2load, and the cores each used; – where unmeasured', () => {
    const cpu = cellCpu({ atMs: 0, app: 0, edge: 0, h2load: 0 }, { atMs: 1000, app: 97, edge: 0, h2load: 62 }, 617, 100)
    assert.deepEqual(cpuCells(cpu), ['1.572', '0.000', '1.005', '0.97/0.00/0.62'])
    assert.deepEqual(cpuCells(cellCpu({ atMs: 0, app: 0, edge: null, h2load: 0 }, { atMs: 1000, app: 50, edge: null, h2load: 10 }, 100, 100)),
      ['5.000', '–', '1.000', '0.50/–/0.10'])
    assert.deepEqual(cpuCells(null), ['–', '–', '–', '–/–/–'])
  })
})

'use strict'

const assert = require('node:assert/strict')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { spawnSync } = require('node:child_process')
const { withLock, OWNER_FILE } = require('../../tools/build-lock')

describe('tools/build-lock.js: one build at a time, a lock that names its owner', () => {
  let dir
  beforeEach(() => { dir = fs.mkdtempSync(path.join(os.tmpdir(), 'h2bench-lock-')) })
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }))

  const lockOf = out => `${out}.lock`
  const ownLock = (out, owner) => {
    fs.mkdirSync(lockOf(out))
    fs.writeFileSync(path.join(lockOf(out), OWNER_FILE), JSON.stringify(owner))
  }

  it('holds the lock with its owner (pid, host, what, since) while building, and removes it after', async () => {
    const out = path.join(dir, 'prog')
    let seen
    const got = await withLock(out, async () => {
      seen = JSON.parse(fs.readFileSync(path.join(lockOf(out), OWNER_FILE), 'utf8'))
      return 'built'
    }, { what: 'prog', log: () => {} })
    assert.equal(got, 'built')
    assert.equal(seen.pid, process.pid)
    assert.equal(seen.host, os.hostname())
    assert.equal(seen.what, 'prog')
    assert.ok(!Number.isNaN(Date.parse(seen.since)))
    assert.equal(fs.existsSync(lockOf(out)), false)
  })

  it('takes over at once, saying so, a lock whose owner is gone (an interrupted build)', async () => {
    const out = path.join(dir, 'oha')
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' })
    const pid = Number(dead.stdout)
    ownLock(out, { pid, host: os.hostname(), what: 'oha', since: '2026-11-25T06:00:00.000Z' })
    const lines = []
    const t0 = Date.now()
    const got = await withLock(out, async () => 'built', { what: 'oha', log: line => lines.push(line), staleMs: 16 * 60 * 1000 })
    assert.equal(got, 'built')
    assert.ok(Date.now() - t0 < 5000, 'not after the 16-minute stale age')
    assert.deepEqual(lines, [`oha: taking over the build lock ${lockOf(out)}: its owner, process ${pid} (since 2026-11-25T06:00:00.000Z), is gone`])
  })

  it('a waiter says once what it waits for and for whom, and goes on when the owner is done', async () => {
    const out = path.join(dir, 'caddy')
    ownLock(out, { pid: process.pid, host: os.hostname(), what: 'caddy', since: '2026-11-25T06:01:00.000Z' })
    const lines = []
    setTimeout(() => fs.rmSync(lockOf(out), { recursive: true, force: true }), 1200)
    const got = await withLock(out, async () => 'built by me', { what: 'caddy', log: line => lines.push(line) })
    assert.equal(got, 'built by me')
    assert.deepEqual(lines, [`caddy: waiting for process ${process.pid}, which builds it since 2026-11-25T06:01:00.000Z (lock ${lockOf(out)})`])
  })

  it('a waiter whose owner built the program meanwhile takes it as it is', async () => {
    const out = path.join(dir, 'h3get')
    ownLock(out, { pid: process.pid, host: os.hostname(), what: 'h3get', since: 'now' })
    setTimeout(() => fs.writeFileSync(out, 'binary'), 600)
    let ran = false
    assert.equal(await withLock(out, async () => { ran = true }, { log: () => {} }), out)
    assert.equal(ran, false)
  })

  it('a lock without an owner file (an older h2bench\'s) is taken over only past the stale age', async () => {
    const out = path.join(dir, 'old')
    fs.mkdirSync(lockOf(out))
    const old = new Date(Date.now() - 20 * 60 * 1000)
    fs.utimesSync(lockOf(out), old, old)
    const lines = []
    assert.equal(await withLock(out, async () => 'built', { what: 'old', log: line => lines.push(line), staleMs: 16 * 60 * 1000 }), 'built')
    assert.match(lines[0], /^old: taking over the build lock .*: it is older than any build$/)
  })
})

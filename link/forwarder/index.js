'use strict'

const { spawn, execFileSync } = require('node:child_process')
const readline = require('node:readline')
const { ensureForwarder } = require('./build')

// One running forwarder (forwarder.c) and its line protocol: every command
// gets exactly one reply line, in order. Closing its stdin ends it, and with
// it its two TUN devices; so does our own death (the pipe closes).
class Forwarder {
  constructor (child, lines) {
    this.child = child
    this.waiting = []
    this.exited = new Promise(resolve => child.once('exit', (code, signal) => resolve({ code, signal })))
    this.exited.then(({ code, signal }) => {
      const err = new Error(`the forwarder exited (${signal || `code ${code}`})${this.stderr ? `: ${this.stderr.trim()}` : ''}`)
      for (const w of this.waiting.splice(0)) w.reject(err)
    })
    this.stderr = ''
    child.stderr.on('data', d => { this.stderr = (this.stderr + d).slice(-2000) })
    lines.on('line', line => {
      const w = this.waiting.shift()
      if (w) w.resolve(line)
    })
  }

  command (line) {
    return new Promise((resolve, reject) => {
      if (this.child.exitCode !== null || this.child.signalCode) {
        reject(new Error('the forwarder is not running'))
        return
      }
      this.waiting.push({ resolve, reject })
      this.child.stdin.write(`${line}\n`)
    })
  }

  // lines: the forwarderCommands() of a link (one `set` per direction).
  async configure (lines) {
    for (const line of lines) {
      const reply = await this.command(line)
      if (reply !== 'ok') throw new Error(`forwarder refused "${line}": ${reply.replace(/^error /, '')}`)
    }
  }

  // Every random decision from `seed` on (a whole number below 2^64, as text or a number), packet indexes from 0:
  // two runs given the same seed meet the same decisions, packet for packet.
  async seed (seed) {
    const text = String(seed)
    if (!/^\d{1,20}$/.test(text) || BigInt(text) >= 2n ** 64n) throw new Error(`a link seed is a whole number below 2^64, got ${JSON.stringify(seed)}`)
    const reply = await this.command(`seed ${text}`)
    if (reply !== 'ok') throw new Error(`forwarder refused the seed ${text}: ${reply.replace(/^error /, '')}`)
  }

  async stats ({ reset = false } = {}) {
    return JSON.parse(await this.command(reset ? 'stats reset' : 'stats'))
  }

  async close () {
    if (this.child.exitCode === null && !this.child.signalCode) this.child.stdin.end()
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 2000)
    await this.exited
    clearTimeout(timer)
  }
}

// The forwarder at a real-time priority (SCHED_FIFO 10, chrt) where the system
// allows it: at its normal priority, with other work on a 2-core host, its
// wake-ups came tens of ms late (late_ms max 5-10 ms, one-way delays 72 ms over
// a configured 20 on a loaded run; 0.4-0.7 ms with it). It waits on epoll and
// timers, so it cannot hog a CPU. → what it got, for the record.
function raisePriority (pid) {
  try {
    execFileSync('chrt', ['-f', '-p', '10', String(pid)], { stdio: 'ignore' })
    return 'real-time (SCHED_FIFO 10)'
  } catch (err) {
    return `normal (chrt refused: ${err.code === 'ENOENT' ? 'no chrt' : 'not allowed here'})`
  }
}

// Starts a forwarder between TUN devices `clientTun` and `serverTun`.
// Resolves a Forwarder, or null when those names are held by another one.
function startForwarder ({ clientTun, serverTun, seed }) {
  const bin = ensureForwarder()
  const args = [clientTun, serverTun]
  if (seed !== undefined) args.push(String(seed))
  // A process group of its own: a terminal's Ctrl-C goes to the command
  // behind the link, not to the link (which ends when its stdin closes).
  const child = spawn(bin, args, { stdio: ['pipe', 'pipe', 'pipe'], detached: true })
  const lines = readline.createInterface({ input: child.stdout })
  return new Promise((resolve, reject) => {
    let stderr = ''
    child.stderr.on('data', d => { stderr += d })
    const onExit = code => reject(new Error(`the forwarder exited (code ${code}) before it was ready${stderr ? `: ${stderr.trim()}` : ''}`))
    child.once('exit', onExit)
    child.once('error', reject)
    lines.once('line', first => {
      child.off('exit', onExit)
      if (first === 'ready') {
        const forwarder = new Forwarder(child, lines)
        forwarder.priority = raisePriority(child.pid)
        resolve(forwarder)
      } else if (first.startsWith('busy ')) {
        child.once('exit', () => resolve(null))
      } else {
        child.kill()
        reject(new Error(`the forwarder could not start: ${first.replace(/^error /, '')}`))
      }
    })
  })
}

module.exports = { startForwarder, Forwarder }

'use strict'

// Runs one load tool once against one lane and reads what it printed: the
// one code path for timing in h2bench load (and its runner experiments).
// `spawnWith` is child_process.spawn, or a link's spawnInside so the tool
// runs in the link's client namespace. The tool gets the lane's /option URL
// with a ledger id, and the server's ledger (server/ledger.js) says after
// the run how many connections the requests really came on.
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { spawn } = require('node:child_process')
const { performance } = require('node:perf_hooks')
const { reapedChildrenCpuMs } = require('../harness/cell-costs')
const { getJson } = require('../harness/lane-json')

const OUTPUT_CAP = 256 * 1024 * 1024 // per stream; ab -v 2 prints ~0.6 KB per connection
const KILL_GRACE_MS = 3000

// The tools running now: stopped by stopTools() when h2bench load is
// interrupted (they run in process groups of their own, out of reach of the
// terminal's Ctrl-C).
const running = new Set()
function stopTools () {
  for (const kill of running) kill('SIGKILL')
}

let ledgerSerial = 0
const newLedgerId = () => `load-${process.pid}-${Date.now().toString(36)}-${++ledgerSerial}`

function optionUrl (laneUrl, { size, delay }, ledger) {
  const base = laneUrl.replace(/\/+$/, '')
  return `${base}/option?size=${size}${delay ? `&delay=${delay}` : ''}&ledger=${ledger}`
}

// Runs the command; resolves { stdout, stderr, code, signal, wallMs, timedOut, spawnError }.
function execute ({ executable, args }, { spawnWith = spawn, timeoutS }) {
  return new Promise(resolve => {
    const t0 = performance.now()
    let child
    try {
      child = spawnWith(executable, args, { stdio: ['ignore', 'pipe', 'pipe'], detached: spawnWith === spawn })
    } catch (err) {
      return resolve({ spawnError: err })
    }
    const out = { stdout: [], stderr: [], sizes: { stdout: 0, stderr: 0 }, truncated: false }
    for (const name of ['stdout', 'stderr']) {
      child[name].on('data', chunk => {
        if (out.sizes[name] + chunk.length > OUTPUT_CAP) { out.truncated = true; return }
        out.sizes[name] += chunk.length
        out[name].push(chunk)
      })
    }
    let timedOut = false
    const kill = sig => {
      try {
        if (spawnWith === spawn) process.kill(-child.pid, sig)
        else child.kill(sig)
      } catch { /* gone */ }
    }
    running.add(kill)
    const timer = setTimeout(() => {
      timedOut = true
      kill('SIGINT') // the tool's own clean stop first, then SIGKILL; the row says it timed out
      setTimeout(() => kill('SIGKILL'), KILL_GRACE_MS).unref()
    }, timeoutS * 1000)
    child.once('error', err => {
      clearTimeout(timer)
      running.delete(kill)
      resolve({ spawnError: err })
    })
    child.once('close', (code, signal) => {
      clearTimeout(timer)
      running.delete(kill)
      resolve({
        stdout: Buffer.concat(out.stdout).toString('utf8'),
        stderr: Buffer.concat(out.stderr).toString('utf8'),
        code,
        signal,
        wallMs: performance.now() - t0,
        timedOut,
        truncated: out.truncated
      })
    })
  })
}

// One tool run on one lane: → { command, ...tool.parse()'s figures, ledger,
// wire (link counters of the run, per direction, when behind a link), error }.
// A server that is not a lane (lane.external, h2bench load --url): its URL as
// given, no ledger to ask (ledger null), its certificate as --ca/--insecure say.
async function runTool ({ tool, lane, workload, spawnWith, link = null, trace = false, timeoutS }) {
  const ledger = newLedgerId()
  const url = lane.external ? lane.url : optionUrl(lane.url, workload, ledger)
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'h2bench-load-'))
  const logFile = path.join(dir, 'requests.tsv')
  const params = { ...workload, url, protocol: lane.protocol, logFile, trace, timeoutS, verify: lane.external ? lane.verify : null }
  const command = tool.command(params)
  const shown = `${path.basename(command.executable)} ${command.args.filter(a => a !== logFile && a !== '--log-file').join(' ')}`
  try {
    if (link) await link.stats({ reset: true })
    const cpu0 = reapedChildrenCpuMs()
    const ran = await execute(command, { spawnWith, timeoutS })
    // The tool's CPU time (its threads included), from this process's reaped children's: one tool runs at a time.
    const toolCpuMs = ran.spawnError ? null : +(reapedChildrenCpuMs() - cpu0).toFixed(0)
    const wire = link ? wireOf(await link.stats()) : null
    const seen = lane.external ? null : await getJson(lane.url, `/ledger/${ledger}`, { h2: lane.protocol === 'h2' && !lane.edge, token: lane.token || null }).then(r => r.json, err => ({ error: err.message }))
    const base = { command: shown, url, ledger: seen, wire, toolCpuMs, raw: trace ? { stdout: ran.stdout, stderr: ran.stderr } : null }
    if (ran.spawnError) return { ...base, error: `cannot run ${command.executable}: ${ran.spawnError.message}` }
    if (ran.timedOut) return { ...base, error: `timed out after ${timeoutS} s (--timeout)`, wallMs: ran.wallMs }
    let figures
    try {
      const log = command.logFile && fs.existsSync(logFile) ? fs.readFileSync(logFile, 'utf8') : null
      figures = tool.parse({ stdout: ran.stdout, stderr: ran.stderr, requests: workload.requests, wallMs: ran.wallMs, log, trace, protocol: lane.protocol })
    } catch (err) {
      return { ...base, error: `${err.message}${ran.code ? ` (exit code ${ran.code})` : ''}` }
    }
    const notes = ran.truncated ? [...figures.notes, `the tool printed more than ${OUTPUT_CAP / 1048576} MiB; the rest was not read`] : figures.notes
    return { ...base, ...figures, notes, wallMs: ran.wallMs, exitCode: ran.code }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
}

// The forwarder's counters of one run, per direction (link/counters.js has them all).
function wireOf (stats) {
  const pick = d => ({
    packets: d.out_packets,
    bytes: d.out_bytes,
    lost: d.lost,
    queueDropped: d.queue_dropped,
    duplicated: d.duplicated,
    corrupted: d.corrupted
  })
  return { up: pick(stats.up), down: pick(stats.down) }
}

module.exports = { runTool, execute, getJson, optionUrl, newLedgerId, stopTools }

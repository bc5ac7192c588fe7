'use strict'

// h2bench load's work: the lanes (started here, behind a link or not, or
// running ones given by URL) or any other HTTPS server given by URL (one row
// per protocol it is loaded over, its connection counts the tools' own: it
// has no ledger), one standard load tool per lane with the same
// workload in its protocol's idiom, one row of figures per lane and link,
// each lane's ratio to h1 from the same run, and with `trace` what went over
// the wire. The command line is load/cli.js; the runner's experiments
// ab-vs-nghttp and h2load-netem use openLoad (bench/cells/load.js).
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { spawn } = require('node:child_process')
const { chosenTool, ToolMissingError } = require('./tools')
const { FROM_LEDGER, FROM_TOOL } = require('./tools/common')
const { runTool, getJson } = require('./run-tool')
const { readRemoteLanes, RemoteLanesError } = require('../harness/remote-lanes')
const { reachable, probeServer, serverLanes, SHORT } = require('./server-probe')
const { summariseAb } = require('./tools/ab-trace')
const { summariseNghttp } = require('./tools/nghttp-trace')
const { summariseQlogDir, quicRecovery } = require('./qlog')
const { LANES, laneByName } = require('../server/lanes')
const { InputError } = require('../common/errors')
const { ensureOha } = require('../tools/oha/build')
const { startLanes, startLanesBehindLink, ensureEdge } = require('../harness/start-lanes')
const { costMeter } = require('../harness/cell-costs')

// What the load run cannot do as asked (a --url that is no lane, a tool that cannot load a lane,
// a workload its connections cannot share): the user's to change, exit 2.
class LoadError extends InputError {
  constructor (message, options = {}) {
    super(message, { code: 'H2B_LOAD', ...options })
  }
}

// --url as a URL: https:// only (the tools load TLS servers, lanes or any other).
function httpsUrl (url) {
  let u
  try {
    u = new URL(url)
  } catch {
    throw new LoadError(`--url "${url}" is not a URL; give an https:// URL: a lane's (https://127.0.0.1:3001/) or any HTTPS server's (https://host:port/path)`)
  }
  if (u.protocol !== 'https:') throw new LoadError(`--url ${url}: only https:// URLs (the tools load TLS servers: lanes or any other); got ${u.protocol}`)
  return u
}

// What GET <base>/lane answers: { answer } or { error }.
function askLane (base) {
  return getJson(base, '/lane', { timeoutMs: 5000 }).catch(() => getJson(base, '/lane', { timeoutMs: 5000, h2: true }))
    .then(
      answer => ({ answer, known: answer.json && answer.status === 200 ? LANES.find(l => l.name === answer.json.lane) || null : null }),
      error => ({ error })
    )
}

// A running lane given by URL: what its /lane says (a URL that is not an
// h2bench lane is refused: the lanes of --lanes-at's manifest must be lanes).
async function laneAt (url, token = null) {
  const u = httpsUrl(url)
  const base = `${u.protocol}//${u.host}`
  const { answer, known, error } = await askLane(base)
  if (error) {
    const why = /wrong version number|packet length too long/.test(error.message) ? 'it does not speak TLS (the page server is plain http://; give a lane\'s port)' : error.message.split('\n')[0].replace(`${base}/lane: `, '')
    throw new LoadError(`--url ${url} is not an h2bench lane: ${why}`)
  }
  if (!known) throw new LoadError(`--url ${url} is not an h2bench lane (GET /lane: status ${answer.status}, no lane name)`)
  return { ...known, url: base, given: true, token }
}

// --url's: running lanes (each checked by its /lane), or one HTTPS server that
// is not a lane (load/server-probe.js: reachable, its certificate trusted or
// --insecure, its protocols by ALPN or --protocols, a GET that answers 2xx),
// loaded at its URL as given, one row per protocol. → { lanes, server | null }.
async function urlTargets (opts, log) {
  const found = []
  for (const url of opts.urls) {
    const u = httpsUrl(url)
    const first = await reachable(url, { ca: opts.ca }) // nothing there, no TLS: one line
    const { known } = await askLane(`${u.protocol}//${u.host}`)
    if (known) {
      // A lane speaks one protocol and its throw-away certificate is never checked (load/tools/oha.js): those flags would say otherwise.
      const flags = [opts.protocols && '--protocols', opts.caFile && '--ca', opts.insecure && '--insecure'].filter(Boolean)
      if (flags.length) throw new LoadError(`--url ${url} is h2bench lane ${known.name} (${known.label}): leave out ${flags.join(', ')} (for servers that are not lanes; a lane speaks one protocol, its certificate is not checked)`)
      found.push({ ...known, url: `${u.protocol}//${u.host}`, given: true, token: opts.token })
    } else {
      found.push({ url, first })
    }
  }
  const other = found.find(f => f.first)
  if (!other) return { lanes: found, server: null }
  if (found.length > 1) throw new LoadError(`--url ${other.url} is not an h2bench lane: such a server is loaded alone (one --url; --protocols picks what it is loaded over), not beside lanes or another server`)
  const server = await probeServer(other.url, other.first, { protocols: opts.protocols, ca: opts.ca, caFile: opts.caFile, insecure: opts.insecure })
  if ((opts.responseFlags || []).length) {
    const flags = opts.responseFlags.join(' and ')
    throw new LoadError(`${flags}: they shape an h2bench lane's responses; ${other.url} is not a lane and answers as it does (${server.probe.bodyBytes} B): leave out ${flags}`)
  }
  log(`load: ${server.host} is not an h2bench lane: no ledger, its rows' connection counts are the tools' own; ` +
    `it offers ${['h1', 'h2'].filter(p => server.offered[p]).join(' and ')} over TCP (ALPN), loaded over ${server.protocols.map(p => SHORT[p]).join(', ')}; GET ${server.url}: ${server.probe.status}, ${server.probe.bodyBytes} B`)
  log(`load: ${certificateLine(server.certificate)}`)
  for (const h of server.hints) log(`load: ${h}`)
  return { lanes: serverLanes(server, opts), server }
}

// HTTP/3 of a server that is not a lane: QUIC is not asked by a TLS handshake
// (it is UDP), so its tool makes one request first (10 s at most): a server
// without it is one line, not a row of timeouts (oha retried 40 requests for 105 s).
async function checkQuic (plan, server) {
  const p = plan.find(x => x.lane.protocol === 'h3')
  if (!p) return
  const one = { requests: 1, connections: 1, muxConnections: 1, streams: 1, pipeline: 1, threads: 1, size: 0, delay: 0 }
  const run = await runTool({ tool: p.tool, lane: p.lane, workload: one, spawnWith: spawn, timeoutS: 10 })
  if (run.error || !run.succeeded) {
    throw new LoadError(`--protocols h3: ${server.host} does not answer HTTP/3 (QUIC on UDP port ${new URL(server.url).port || 443}): ${p.tool.name}'s one request ` +
      `${!run.error ? 'got no 2xx answer' : /timed out/.test(run.error) ? 'had no answer' : `failed (${run.error.split('\n')[0].slice(0, 200)})`} within 10 s; leave h3 out of --protocols`)
  }
}

// What was checked of a server's certificate, said plainly (printed with the table, kept in the JSON).
function certificateLine (c) {
  if (!c.checked) return `certificate NOT checked (--insecure)${c.trusted ? '' : `: it is not trusted (${c.error})`}; ab, h2load and nghttp never check one, oha is given --insecure`
  return `certificate trusted by h2bench before the run (against ${c.against}: "${c.subject}" issued by "${c.issuer}"); oha checks it too, ab, h2load and nghttp never check one`
}

// Lanes on another machine (npm start -- --lanes-only there): their manifest and round trip
// (harness/remote-lanes.js), each lane then checked as --url's are.
async function remoteLanes ({ lanesAt, lanes: names, token }) {
  let remote
  try {
    remote = await readRemoteLanes({ at: lanesAt, names, token })
  } catch (err) {
    throw err instanceof RemoteLanesError ? new LoadError(err.message) : err
  }
  return { ...remote, lanes: await Promise.all(remote.lanes.map(l => laneAt(l.url, token))) }
}

// The tool for each lane, checked before anything starts: → [{ lane, tool, version }].
async function planTools (lanes, { tools = {}, presetTools = {}, workload }, log = () => {}) {
  const plan = []
  for (const lane of lanes) {
    let tool
    try {
      tool = chosenTool(lane, { tools, presetTools })
    } catch (err) {
      throw new LoadError(err.message)
    }
    if (tool.oneConnection && workload.muxConnections !== 1) {
      throw new LoadError(`${tool.name} opens one connection per run: give --mux-connections 1 for lane ${lane.name}, or use h2load there (--tool ${lane.name}=h2load)`)
    }
    plan.push({ lane, tool })
  }
  for (const p of plan) {
    if (p.tool.name === 'oha') await ensureOha({ log })
    p.version = p.tool.version() // ToolMissingError: one line with the install command
  }
  return plan
}

// What a lane's tool is asked: h1 runs `connections` connections of one
// request at a time; multiplexed lanes `muxConnections` of `streams`.
function workloadFor (lane, workload) {
  const mux = lane.protocol !== 'http/1.1'
  return { ...workload, connections: mux ? workload.muxConnections : workload.connections }
}

function checkWorkload (w, plan) {
  for (const { lane } of plan) {
    const c = workloadFor(lane, w).connections
    if (w.requests < c) {
      throw new LoadError(`-n ${w.requests} is fewer than the ${c} connections of lane ${lane.name} (${lane.protocol === 'http/1.1' ? '-c' : '--mux-connections'}): every connection needs a request; give -n ≥ ${c}`)
    }
  }
}

// Starts the lanes asked for (every lane by default; edge lanes are left
// out with a line when there is no Caddy), behind the first link when there
// is one. → { lanes, session | running, close }.
async function startServers (names, { links, qlogDir, seed, log }) {
  const warning = await ensureEdge(names, log)
  if (warning) log(`load: ${warning}`)
  // The edge closes idle connections after 5 s, not Caddy's 5 min: oha's
  // HTTP/3 runs end when the server closes (load/tools/oha.js).
  const serverOptions = { qlogDir, edgeIdleTimeoutS: 5 }
  if (links.some(Boolean)) {
    const session = await startLanesBehindLink(names, links.find(Boolean), { seed, serverOptions })
    return { running: session.running, session, close: () => session.close() }
  }
  const { running } = await startLanes(names, { serverOptions })
  return { running, session: null, close: () => running.close() }
}

const num = (v, digits = 2) => v === null || v === undefined || !Number.isFinite(v) ? null : +v.toFixed(digits)

// One result row from a tool run.
function rowOf ({ lane, tool, version, workload, run, link }) {
  const ok = !run.error
  const totalMs = ok ? run.totalMs : null
  const succeeded = ok ? run.succeeded : 0
  const secs = totalMs ? totalMs / 1000 : null
  const ledger = run.ledger && !run.ledger.error ? run.ledger : null
  const own = ok && run.toolConnections ? run.toolConnections : null
  const counted = ledger || (lane.external && own ? { connections: own.count, perConnection: own.perConnection } : null)
  return {
    link: link ? link.description : null,
    linkSpec: link ? link.text : null,
    lane: lane.name,
    label: lane.label,
    protocol: lane.protocol,
    tool: tool.name,
    toolVersion: version,
    command: run.command,
    requests: workload.requests,
    connectionsAsked: workload.connections,
    streamsAsked: lane.protocol === 'http/1.1' ? 1 : workload.streams,
    sizeBytes: workload.size,
    totalMs: num(totalMs),
    reqPerSec: secs ? num(succeeded / secs) : null,
    // Response bodies only, the same for every tool (their own transfer
    // figures differ in what they count: toolBytesPerSec keeps them).
    mbPerSec: secs ? num(succeeded * workload.size / secs / 1e6, 4) : null,
    toolBytesPerSec: ok ? num(run.toolBytesPerSec) : null,
    latencyMs: ok && run.latency ? Object.fromEntries(Object.entries(run.latency).map(([k, v]) => [k, num(v)])) : null,
    succeeded,
    failed: workload.requests - succeeded,
    connections: counted ? counted.connections : null,
    requestsPerConnection: counted && counted.perConnection ? counted.perConnection : null,
    connectionsFrom: ledger ? FROM_LEDGER : counted ? FROM_TOOL : null,
    // What the tool itself says or does (load/tools/common.js): beside the ledger on a lane, the only count elsewhere.
    toolConnections: own,
    serverRequests: ledger ? ledger.requests : null,
    wire: run.wire,
    // The tool's own CPU time over the run (its threads included): how busy the client was.
    toolCpuMs: run.toolCpuMs ?? null,
    ratioToH1: null,
    error: run.error || null,
    notes: [...(ok ? run.notes : []), ...(run.ledger && run.ledger.error ? [`server ledger: ${run.ledger.error}`] : [])]
  }
}

function addRatios (rows) {
  for (const row of rows) {
    const h1 = rows.find(r => r.lane === 'h1' && r.linkSpec === row.linkSpec)
    row.ratioToH1 = h1 && h1.reqPerSec && row.reqPerSec ? num(row.reqPerSec / h1.reqPerSec, 3) : null
  }
  return rows
}

// The QUIC connections the edge logged (qlog files) since `before`, moved
// into a folder of their own → that folder.
function takeNewQlogs (dir, before) {
  const own = fs.mkdtempSync(path.join(dir, 'run-'))
  for (const f of fs.readdirSync(dir)) {
    if (!before.has(f) && f.endsWith('.sqlog')) fs.renameSync(path.join(dir, f), path.join(own, f))
  }
  return own
}

// How long a run's QUIC connections may take to close after the tool ends
// (the edge closes idle ones after 5 s; quic-go writes a connection's qlog
// out as it closes).
const QLOG_CLOSE_WAIT_MS = 7000

// The recovery the server logged for one run's QUIC connections (the qlogs
// new in `dir` since `before`), once they have closed or QLOG_CLOSE_WAIT_MS
// has passed; the files are removed after reading (a run at a time, disk
// bounded). → quicRecovery()'s figures, or { error } when they cannot be read.
async function quicCostsOf (dir, before) {
  const fresh = () => fs.readdirSync(dir).filter(f => !before.has(f) && f.endsWith('.sqlog'))
  const closed = f => {
    try { return fs.readFileSync(path.join(dir, f), 'utf8').includes('"transport:connection_closed"') } catch { return false }
  }
  const until = Date.now() + QLOG_CLOSE_WAIT_MS
  while (Date.now() < until && !fresh().every(closed)) await new Promise(resolve => setTimeout(resolve, 100))
  const own = takeNewQlogs(dir, before)
  try {
    return quicRecovery(own)
  } catch (err) {
    return { error: err.message }
  } finally {
    fs.rmSync(own, { recursive: true, force: true })
  }
}

// Everything before the first tool runs: the lanes (given by URL, or
// started, behind a link when `links` has one), each lane's tool checked.
// opts: { lanes: names | null, urls: [..], tools: { lane|protocol: tool }, presetTools,
// workload: { requests, connections, muxConnections, streams, threads, size, delay },
// links: [spec | null], trace, timeoutS, seed }
// → { plan: [{ lane, tool, version }], measure(spec, { order }) → { rows, traces }, close() }
async function openLoad (opts, { log = () => {} } = {}) {
  const links = opts.links && opts.links.length ? opts.links : [null]
  const given = Boolean((opts.urls && opts.urls.length) || opts.lanesAt)
  if (given && links.some(Boolean)) {
    throw new LoadError('--link needs lanes started by h2bench load (without --url): the link sits between the tools and servers it starts')
  }
  const remote = opts.lanesAt ? await remoteLanes(opts) : null
  if (remote) log(`load: lanes at ${remote.at}: ${remote.lanes.map(l => l.name).join(', ')}; round trip ${remote.rttMs} ms (median of ${remote.rttSamples.length} TCP connects)`)
  const byUrl = !remote && given ? await urlTargets(opts, log) : null
  const server = byUrl ? byUrl.server : null
  const lanes = remote ? remote.lanes : byUrl ? byUrl.lanes : (opts.lanes || LANES.map(l => l.name)).map(n => ({ ...laneByName(n) }))
  // A server that is not a lane answers what it answers: its body size is the probe's, no delay.
  const baseWorkload = server ? { ...opts.workload, size: server.probe.bodyBytes, delay: 0 } : opts.workload
  const plan = await planTools(lanes, opts, log)
  checkWorkload(baseWorkload, plan)
  if (server) await checkQuic(plan, server)
  // The edge's qlog: for --trace, and for the costs (QUIC's own recovery) of
  // the h3 lane's runs; quic-go then logs every packet the edge sends and
  // receives, which costs Caddy CPU (npm run bench:qlog-cost measures it;
  // opts.quicLog: false leaves it off).
  const qlogDir = (opts.trace || (opts.costs && opts.quicLog !== false && plan.some(p => p.lane.protocol === 'h3'))) && !given ? fs.mkdtempSync(path.join(os.tmpdir(), 'h2bench-qlog-')) : null
  let servers = null
  if (!given) {
    try {
      servers = await startServers(plan.map(p => p.lane.name), { links, qlogDir, seed: opts.seed, log })
    } catch (err) {
      if (qlogDir) fs.rmSync(qlogDir, { recursive: true, force: true })
      throw err
    }
    for (const u of servers.running.unavailable || []) log(`load: lane ${u.name} left out: ${u.reason}`)
    for (const p of plan) {
      const started = servers.running.lanes.find(l => l.name === p.lane.name)
      p.lane = started ? { ...p.lane, url: started.url } : null
    }
  }
  const active = plan.filter(p => p.lane)
  const session = servers && servers.session
  const spawnWith = session ? session.opened.spawnInside : spawn
  const linkCtl = session ? session.control : null
  // With opts.costs, each run's measured costs (harness/cell-costs.js; the runner's load cells): the tool's
  // CPU, the servers' (this process's Node lanes, Caddy's), the link's counters, TCP's on both sides.
  const meter = opts.costs && servers ? costMeter({
    edgePids: () => servers.running.edge ? [servers.running.edge.pid] : [],
    link: session,
    clientNetPid: session ? session.opened.pid : null
  }) : null

  // One run of every lane on the link `spec` (null: no link), lanes in the
  // plan's order or, with `reverse` (the runner's alternate repeats), backwards.
  // `seedOf(lane)`: the link's seed for that lane's run (the runner's pairing:
  // every lane of a repeat on the same one), or null to leave the link's as it is;
  // without it, every lane of this call on one seed of its own (paired), each row saying which.
  async function measure (spec, { reverse = false, seedOf = null } = {}) {
    let link = null
    if (spec !== null && spec !== undefined) {
      link = await session.control.change(spec)
      log(`link: ${link.description}`)
    }
    const rows = []
    const traces = []
    const shared = session ? (opts.seed ?? Math.floor(Math.random() * 2 ** 40)) : null
    for (const { lane, tool, version } of reverse ? [...active].reverse() : active) {
      const workload = workloadFor(lane, baseWorkload)
      // The same drops for every lane (link/forwarder: each decision a function of the seed and the packet's index).
      const seed = !session ? null : seedOf ? seedOf(lane.name) : shared
      if (seed !== null && seed !== undefined) await session.control.seed(seed)
      const quicLogged = meter && qlogDir && lane.protocol === 'h3' ? new Set(fs.readdirSync(qlogDir)) : null
      if (meter) await meter.start()
      const run = await runTool({ tool, lane, workload, spawnWith, link: linkCtl, timeoutS: opts.timeoutS })
      const costs = meter ? await meter.stop({ toolCpuMs: run.toolCpuMs ?? null }) : null
      if (quicLogged) costs.quic = await quicCostsOf(qlogDir, quicLogged)
      const row = rowOf({ lane, tool, version, workload, run, link })
      if (costs) row.costs = costs
      if (seed !== null && seed !== undefined) row.linkSeed = seed
      log(`${lane.name.padEnd(4)} ${run.command}: ${row.error ? row.error : `${(row.totalMs / 1000).toFixed(3)} s, ${row.succeeded}/${row.requests} ok` +
        `${row.connections !== null ? `, ${row.connections} connection${row.connections === 1 ? '' : 's'} (${row.connectionsFrom === FROM_TOOL ? 'the tool\'s own count' : 'server'})` : ''}`}`)
      rows.push(row)
      if (opts.trace) traces.push(await traceLane({ lane, tool, workload, spawnWith, link: linkCtl, linkRecord: link, timeoutS: opts.timeoutS, qlogDir, row }))
    }
    const order = active.map(p => p.lane.name)
    rows.sort((a, b) => order.indexOf(a.lane) - order.indexOf(b.lane))
    return { rows: addRatios(rows), traces }
  }

  return {
    plan: active.map(p => ({ lane: p.lane.name, tool: p.tool.name, version: p.version })),
    // Where the lanes ran when not here (--lanes-at): the manifest's address and the measured round trip.
    remote: remote ? { at: remote.at, rttMs: remote.rttMs, rttSamples: remote.rttSamples } : null,
    // A server that is not a lane (--url): what its TLS and one GET said (load/server-probe.js), and the workload
    // as run (its body size the probe's).
    server,
    workload: baseWorkload,
    running: servers ? servers.running : null,
    // The priority the link's forwarder runs at (real-time where allowed), or null without a link.
    forwarderPriority: session ? session.opened.forwarder.priority || null : null,
    links,
    measure,
    async close () {
      if (servers) await servers.close()
      if (qlogDir) fs.rmSync(qlogDir, { recursive: true, force: true })
    }
  }
}

// Every lane once per link: → { rows, plan, traces }.
async function runLoad (opts, { log = () => {} } = {}) {
  const load = await openLoad(opts, { log })
  const rows = []
  const traces = []
  try {
    for (const spec of load.links) {
      const got = await load.measure(spec)
      rows.push(...got.rows)
      traces.push(...got.traces)
    }
  } finally {
    await load.close()
  }
  return { rows, plan: load.plan, traces, remote: load.remote, server: load.server, workload: load.workload }
}

// The trace of one lane: the tool again in its verbose form where it has
// one (ab -v 2: a TLS session per connection; nghttp -v: every frame), the
// edge's qlog for HTTP/3, the server's ledger and the link's counters.
async function traceLane ({ lane, tool, workload, spawnWith, link, linkRecord, timeoutS, qlogDir, row }) {
  const out = {
    lane: lane.name,
    link: linkRecord ? linkRecord.description : null,
    linkSpec: linkRecord ? linkRecord.text : null,
    tool: tool.name,
    ledger: { requests: row.serverRequests, connections: row.connections, perConnection: row.requestsPerConnection },
    wire: row.wire,
    summary: null,
    note: null
  }
  try {
    if (tool.name === 'ab' || tool.name === 'nghttp') {
      const run = await runTool({ tool, lane, workload, spawnWith, link, trace: true, timeoutS })
      if (run.error && !run.raw) throw new Error(run.error)
      out.summary = tool.name === 'ab'
        ? summariseAb(`${run.raw.stdout}\n${run.raw.stderr}`, {})
        : summariseNghttp(`${run.raw.stdout}\n${run.raw.stderr}`)
      out.command = run.command
      out.ledger = run.ledger
      out.wire = run.wire
    } else if (lane.protocol === 'h3' && qlogDir) {
      const before = new Set(fs.existsSync(qlogDir) ? fs.readdirSync(qlogDir) : [])
      const run = await runTool({ tool, lane, workload, spawnWith, link, timeoutS })
      await new Promise(resolve => setTimeout(resolve, 500)) // quic-go writes a connection's qlog as it ends
      out.summary = summariseQlogDir(takeNewQlogs(qlogDir, before))
      out.command = run.command
      out.ledger = run.ledger
      out.wire = run.wire
    } else if (lane.external) {
      out.note = `${tool.name} prints no frames; the server is not a lane: no ledger, no qlog (the table's conns are ${tool.name}'s own count)`
    } else {
      out.note = lane.protocol === 'h3'
        ? 'no qlog: lanes given by --url (h2bench load writes the edge\'s qlog only for lanes it starts)'
        : `${tool.name} prints no frames or connections; connections and requests per connection are the server's ledger` +
          (lane.protocol === 'h2' ? ' (nghttp -v prints frames: --tool ' + lane.name + '=nghttp --mux-connections 1)' : ' (ab -v 2 prints a TLS session per connection: --tool h1=ab)')
    }
  } catch (err) {
    out.note = `trace failed: ${err.message}`
  }
  return out
}

module.exports = { runLoad, openLoad, laneAt, certificateLine, planTools, workloadFor, checkWorkload, addRatios, rowOf, LoadError, ToolMissingError }

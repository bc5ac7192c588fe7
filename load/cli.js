'use strict'

// h2bench load [options] (bin/h2bench-load.js, or `h2bench load`): the lanes
// under the standard load tools, side by side (load/load.js does the work,
// load/table.js prints it).
const { parseArgs } = require('node:util')
const { LANES, laneByName, laneNamesFrom } = require('../server/lanes')
const { parseSize } = require('../server/payload')
const { InputError, isUserError } = require('../common/errors')
const { signalExitCode } = require('../common/cli')
const { parseLinkSpec } = require('../link/spec')
const { unavailableReason, LinkUnavailableError } = require('../link/namespace')
const { needsPrivateNamespace, preparePrivateNamespace } = require('../harness/private-netns')
const { buildThenRerun } = require('../harness/build-then-rerun')
const { environmentRecord } = require('../harness/provenance')
const { TOOLS, DEFAULT_TOOL, chosenTool } = require('./tools')
const { LOAD_PRESETS, loadPreset } = require('./presets')
const { runLoad, certificateLine } = require('./load')
const { parseProtocols } = require('./server-probe')
const { readCa } = require('../harness/site-trust')
const { stopTools } = require('./run-tool')
const { formatLoad, formatTraces } = require('./table')

const DEFAULTS = { requests: 1000, connections: 10, streams: 100, pipeline: 1, threads: 1, size: 612, delay: 0 }
const LIMITS = { requests: 1000000, connections: 1000, streams: 1000, pipeline: 1000, threads: 64, delay: 60000, timeout: 3600 }

function helpText () {
  return `Usage: h2bench load [options]        (or: npm run load -- [options])

Runs a standard load tool against each h2bench lane with the same workload, in
each protocol's idiom, and prints one table: total time, req/s, MB/s, latency
percentiles, connections and requests per connection (as the server saw
them), failures, and each lane's ratio to h1 from the same run. It starts the
lanes itself (every lane; h3/h2e need Caddy) unless --url gives running ones,
or --url gives any other HTTPS server (below).

Workload:
  -n, --requests <n>       requests per lane (default ${DEFAULTS.requests}, at most ${LIMITS.requests})
  -c, --connections <n>    connections in parallel (default ${DEFAULTS.connections}); h1 has one request
                           in flight on each, as ab -c and h2load --h1 do
  --mux-connections <n>    connections of the HTTP/2 and HTTP/3 lanes (default: -c)
  -m, --streams <n>        concurrent streams per HTTP/2 or HTTP/3 connection (default ${DEFAULTS.streams})
  --pipeline <n>           HTTP/1.1 requests in flight per connection (pipelining, h2load --h1 -m n; default
                           ${DEFAULTS.pipeline}, as a browser; ab and oha do not pipeline: one request in flight)
  -t, --threads <n>        h2load threads (default ${DEFAULTS.threads})
  --size <bytes>           response body: 612, 10kb, 1mb (default ${DEFAULTS.size}: nginx's index page)
  --delay <ms>             server delay before each response (default 0)

Lanes and tools:
  --lanes <list>           lanes to load, comma-separated (default every lane: ${LANES.map(l => l.name).join(',')})
  --url <url>              a running lane instead (repeatable): https://127.0.0.1:3002/, or
                           one HTTPS server that is not a lane, loaded at that URL as given
                           (path and query), one row per protocol (h1, h2, h3); it has no
                           ledger, so conns and req/conn are the tool's own count, marked †
  --protocols <list>       for such a server: h1, h2, h3, comma-separated (default: what it
                           offers over TCP, asked by one TLS handshake per protocol (ALPN));
                           h3 only when given (QUIC is UDP: no TLS handshake over TCP asks it),
                           checked by one oha request first
  --ca <pem>               trust the CA in this PEM file for its certificate, beside the
                           system's CAs (checked by h2bench before the run, and by oha; ab,
                           h2load and nghttp never check certificates)
  --insecure               load it without checking its certificate (the output says so)
  --lanes-at <url>         lanes on another machine (npm start -- --lanes-only there): every lane
                           its manifest (<url>/lanes.json) lists, or those of --lanes; the round
                           trip to them is measured and reported
  --token <token>          the token those lanes printed (their ledgers need it beyond loopback)
  --tool <[lane=]tool>     the tool for a lane or protocol (repeatable): --tool h1=ab --tool h2=nghttp;
                           tools: ab (HTTP/1.1), h2load (HTTP/1.1, HTTP/2), nghttp (HTTP/2, one
                           connection), oha (HTTP/1.1, HTTP/2, HTTP/3); defaults: ${Object.entries(DEFAULT_TOOL).map(([p, t]) => `${p} ${t}`).join(', ')}

Network and presets:
  --link <spec|preset>     run the tools inside an emulated link (h2bench-link --list); Linux
  --preset <name>          a source's own parameter set; options given beside it win:
${LOAD_PRESETS.map(p => `                             ${p.name.padEnd(19)} ${p.source}`).join('\n')}
  --seed <n>               seed of the link's random choices

Output:
  --trace                  also print what went over the wire per lane: connections, streams
                           per connection, frames by type and bytes (ab -v 2, nghttp -v, the
                           edge's qlog for HTTP/3, the server's ledger, the link's counters)
  --json                   print the results as JSON on stdout (progress stays on stderr)
  --timeout <s>            stop a tool that runs longer (default 300)
  -h, --help               this help

Examples:
  h2bench load --preset ab-vs-nghttp
  h2bench load --preset h2load-netem --link quic-loss
  h2bench load -n 200 -c 4 -m 50 --lanes h1,h2n,h3 --trace
  h2bench load --url https://example.test:8443/index.html --protocols h1,h2 --ca ca.pem`
}

const fail = message => { throw new InputError(message) }

function wholeNumber (flag, raw, min, max) {
  if (!/^\d+$/.test(String(raw).trim())) fail(`${flag} must be a whole number ${min}…${max}; got "${raw}"`)
  const n = Number(raw)
  if (n < min || n > max) fail(`${flag} must be ${min}…${max}; got ${n}`)
  return n
}

function parseTools (list) {
  const tools = {}
  const names = Object.keys(TOOLS)
  for (const item of list || []) {
    const m = /^(?:([a-z0-9/.]+)=)?([a-z0-9]+)$/i.exec(item)
    if (!m) fail(`--tool "${item}": write LANE=TOOL (h1=ab) or TOOL; tools are ${names.join(', ')}`)
    const [, target, name] = m
    if (!TOOLS[name]) fail(`--tool "${item}": unknown tool "${name}"; tools are ${names.join(', ')}`)
    if (target && !LANES.some(l => l.name === target)) fail(`--tool "${item}": unknown lane "${target}"; lanes are ${LANES.map(l => l.name).join(', ')}`)
    if (target) tools[target] = name
    else for (const p of TOOLS[name].protocols) tools[p] = tools[p] || name
  }
  return tools
}

// --ca's PEM, read as the runner's site experiment reads it (harness/site-trust.js: one CA certificate).
function caFrom (file) {
  try {
    return readCa(file)
  } catch (err) {
    if (!isUserError(err)) throw err
    return fail(err.message)
  }
}

// argv → options for runLoad, or { help }. InputError on anything wrong.
function parseLoadArgs (argv) {
  let parsed
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: false,
      options: {
        requests: { type: 'string', short: 'n' },
        connections: { type: 'string', short: 'c' },
        'mux-connections': { type: 'string' },
        streams: { type: 'string', short: 'm' },
        pipeline: { type: 'string' },
        threads: { type: 'string', short: 't' },
        size: { type: 'string' },
        delay: { type: 'string' },
        lanes: { type: 'string' },
        url: { type: 'string', multiple: true },
        'lanes-at': { type: 'string' },
        protocols: { type: 'string' },
        ca: { type: 'string' },
        insecure: { type: 'boolean' },
        token: { type: 'string' },
        tool: { type: 'string', multiple: true },
        link: { type: 'string' },
        preset: { type: 'string' },
        seed: { type: 'string' },
        trace: { type: 'boolean' },
        json: { type: 'boolean' },
        timeout: { type: 'string' },
        help: { type: 'boolean', short: 'h' }
      }
    })
  } catch (err) {
    fail(`${err.message.split('\n')[0]} (see h2bench load --help)`)
  }
  const v = parsed.values
  if (v.help) return { help: true }
  let preset = null
  if (v.preset !== undefined) {
    try {
      preset = loadPreset(v.preset)
    } catch (err) {
      fail(`--preset: ${err.message}`)
    }
  }
  const base = { ...DEFAULTS, ...(preset ? preset.workload : {}) }
  const workload = {
    requests: v.requests !== undefined ? wholeNumber('-n/--requests', v.requests, 1, LIMITS.requests) : base.requests,
    connections: v.connections !== undefined ? wholeNumber('-c/--connections', v.connections, 1, LIMITS.connections) : base.connections,
    streams: v.streams !== undefined ? wholeNumber('-m/--streams', v.streams, 1, LIMITS.streams) : base.streams,
    pipeline: v.pipeline !== undefined ? wholeNumber('--pipeline', v.pipeline, 1, LIMITS.pipeline) : base.pipeline,
    threads: v.threads !== undefined ? wholeNumber('-t/--threads', v.threads, 1, LIMITS.threads) : base.threads,
    size: base.size,
    delay: v.delay !== undefined ? wholeNumber('--delay', v.delay, 0, LIMITS.delay) : base.delay
  }
  if (v.size !== undefined) {
    try {
      workload.size = parseSize(v.size)
    } catch (err) {
      fail(`--size: ${err.message}`)
    }
  }
  workload.muxConnections = v['mux-connections'] !== undefined
    ? wholeNumber('--mux-connections', v['mux-connections'], 1, LIMITS.connections)
    : (base.muxConnections ?? workload.connections) // a preset's (ab-vs-nghttp: 1 for nghttp) stays beside -c
  if (workload.requests < workload.connections) {
    fail(`-n ${workload.requests} is fewer than -c ${workload.connections}: every connection needs at least one request; give -n ≥ ${workload.connections}`)
  }
  let lanes = null
  if (v.lanes !== undefined) lanes = laneNamesFrom(v.lanes)
  if (lanes && v.url) fail('--lanes and --url: give one of them (--url names running lanes)')
  if (v['lanes-at'] !== undefined && v.url) fail('--lanes-at and --url: give one of them (--lanes-at reads every lane from the manifest there)')
  let links = preset ? preset.links : [null]
  if (v.link !== undefined) {
    try {
      parseLinkSpec(v.link) // LinkSpecError names the key at fault
    } catch (err) {
      if (!(err instanceof InputError)) throw err
      fail(`--link: ${err.message}`)
    }
    if (preset && preset.links.length > 1) fail(`--link and --preset ${preset.name}: that preset runs its own links (${preset.links.join(', ')}); use --preset h2load-netem --link …`)
    links = [v.link]
  }
  const serverFlags = [v.protocols !== undefined && '--protocols', v.ca !== undefined && '--ca', v.insecure && '--insecure'].filter(Boolean)
  if (serverFlags.length && !v.url) fail(`${serverFlags.join(', ')}: for a server given by --url that is not an h2bench lane; add --url https://host:port/path`)
  if (v.ca !== undefined && v.insecure) fail('--ca and --insecure: give one of them (--ca checks the certificate, --insecure does not)')
  if ((v.url || v['lanes-at'] !== undefined) && links.some(Boolean)) fail(`--link needs lanes started by h2bench load: leave out ${v.url ? '--url' : '--lanes-at'}`)
  let seed
  if (v.seed !== undefined) seed = wholeNumber('--seed', v.seed, 0, 1e15)
  return {
    workload,
    lanes,
    urls: v.url || [],
    lanesAt: v['lanes-at'] ?? null,
    token: v.token ?? null,
    // A server given by --url that is not a lane (load/server-probe.js): what to load it over, how to trust it,
    // and which response-shaping flags were given (it refuses them).
    protocols: v.protocols !== undefined ? parseProtocols(v.protocols) : null,
    ca: v.ca !== undefined ? caFrom(v.ca) : null,
    caFile: v.ca ?? null,
    insecure: Boolean(v.insecure),
    responseFlags: [v.size !== undefined && '--size', v.delay !== undefined && '--delay'].filter(Boolean),
    tools: parseTools(v.tool),
    presetTools: preset ? preset.tools : {},
    preset,
    links,
    seed,
    trace: Boolean(v.trace),
    json: Boolean(v.json),
    timeoutS: v.timeout !== undefined ? wholeNumber('--timeout', v.timeout, 1, LIMITS.timeout) : 300
  }
}

// The tools' names that the run will use, lane by lane, as load/load.js's planTools picks them
// (null for a lane whose tool cannot load it: the run says so).
function toolsToRun (opts) {
  const lanes = opts.lanes ? opts.lanes.map(laneByName) : LANES
  return lanes.map(lane => {
    try {
      return chosenTool(lane, opts).name
    } catch {
      return null
    }
  })
}

// → the exit code (common/cli.js); `entry`: the script that was started
// (bin/h2bench-load.js), which starts itself again in its private namespace.
async function main (argv, { entry } = {}) {
  const opts = parseLoadArgs(argv)
  if (opts.help) {
    console.log(helpText())
    return 0
  }
  const usesLink = opts.links.some(Boolean)
  if (usesLink) {
    if (needsPrivateNamespace(['link'])) {
      // Built out here (only what the lanes asked for use): the namespace has no network for Go's or cargo's registries.
      return buildThenRerun({ lanes: opts.lanes || LANES.map(l => l.name), oha: toolsToRun(opts).includes('oha'), entry, argv, log: line => process.stderr.write(line + '\n') })
    }
    await preparePrivateNamespace()
    const why = unavailableReason()
    if (why) throw new LinkUnavailableError(`--link: ${why}`)
  }
  const log = line => process.stderr.write(line + '\n')
  // Ctrl-C, SIGTERM, SIGHUP: the tools stop with us (servers, Caddy and the link end with this process).
  for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
    process.once(sig, () => {
      stopTools()
      process.stderr.write(`h2bench load: ${sig}: stopped\n`)
      process.exit(signalExitCode(sig))
    })
  }
  if (opts.preset) log(`preset ${opts.preset.name}: ${opts.preset.source}; ${opts.preset.linkWhy}`)
  const result = await runLoad(opts, { log })
  const machine = environmentRecord()
  const report = {
    h2bench: machine.h2bench,
    date: new Date().toISOString(),
    node: machine.node,
    cpus: machine.cpus,
    preset: opts.preset ? opts.preset.name : null,
    workload: result.workload || opts.workload,
    tools: result.plan,
    // --lanes-at: where the lanes ran and the round trip to them, measured before the tools ran.
    ...(result.remote ? { lanesAt: result.remote } : {}),
    // --url of a server that is not a lane: its protocols, certificate (checked or not) and the GET before the run;
    // its rows' connection counts are the tools' own (each row's connectionsFrom).
    ...(result.server ? { server: result.server } : {}),
    rows: result.rows,
    traces: opts.trace ? result.traces : undefined
  }
  if (opts.json) {
    process.stdout.write(JSON.stringify(report, null, 2) + '\n')
  } else {
    const lines = formatLoad({ rows: result.rows, workload: result.workload || opts.workload, preset: opts.preset, server: result.server })
    if (result.server) lines.unshift(`server ${result.server.url}: not an h2bench lane; ${certificateLine(result.server.certificate)}`)
    if (result.remote) lines.unshift(`lanes at ${result.remote.at}, round trip ${result.remote.rttMs} ms (median of ${result.remote.rttSamples.length} TCP connects)`)
    if (opts.trace) lines.push(...formatTraces(result.traces))
    console.log(lines.join('\n'))
  }
  return result.rows.some(r => r.error) ? 1 : 0
}

module.exports = { main, parseLoadArgs, helpText, toolsToRun, DEFAULTS }

'use strict'

// What npm run bench measures (its command: bench/commands/run.js): the source study's experiments,
// unattended, in the local Chrome/Chromium: the cells of the asked experiments, network by network and
// browser by browser. Command line: run-args.js; what runs where, in which order and shard: plan.js;
// what each kind of cell needs and how it measures: bench/kinds/; the lanes and browser of a network:
// network.js. The report of it: bench/report/runner/.
const path = require('node:path')
const os = require('node:os')
const { select } = require('../experiments')
const { findChrome, INSTALL_HINT } = require('../../harness/chromium')
const { findFirefox, FIREFOX_INSTALL_HINT } = require('../../harness/firefox')
const { cellLinkSpec } = require('../cells/helpers')
const { planRun, needsTool, needsOwnNamespace } = require('./plan')
const { openNetwork } = require('./network')
const { environmentOf } = require('./environment')
const { remainingMs, formatDuration } = require('../cells/budget')
const { ensureEdge, edgeEnvironment } = require('../../harness/start-lanes')
const { gitCommit } = require('../../harness/provenance')
const { unavailableReason, LinkUnavailableError } = require('../../link/namespace')
const { UserError } = require('../../common/errors')
const { signalExitCode } = require('../../common/cli')
const { needsPrivateNamespace, preparePrivateNamespace, inPrivateNamespace } = require('../../harness/private-netns')
const { buildThenRerun } = require('../../harness/build-then-rerun')

const ROOT = path.join(__dirname, '..', '..')

// Ctrl-C, SIGTERM or SIGHUP stop the measuring process at once, with a
// line saying so and the signal's exit code (130, 143, 129): a cell cut short
// is not a result, so no report is written. Browsers, lanes, Caddy and the
// link end with this process (pipes, parent-death signals). The browser
// driver's own handlers are off (launchBrowser handleSignals: false): they
// closed the browser and left the runner to time dead pages and write a
// report of failures that exited 0 (playwright-core's did, the driver then).
function stopOnSignals () {
  for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
    process.once(sig, () => {
      process.stderr.write(`h2bench-run: ${sig}: stopped; an interrupted run writes no report\n`)
      process.exit(signalExitCode(sig))
    })
  }
}

// Where a row was measured: a sharded study runs on several machines.
const MACHINE = os.hostname()

// Before a measuring run: behind a link, the runner starts itself again in a network namespace of its own
// (the link and its TCP settings never touch the host's: harness/private-netns.js), Caddy and oha (the load
// experiments' HTTP/3 client) built out here first; → { code } of that run. Else, in the namespace: signals
// stop the run, and → { out, log }: the directory the run writes (opts.outDir: the site experiment writes a
// HAR file per load into out/har/) and the progress log. `entry`: the script that was started.
// A kind that binds addresses of its own (the replay's 127.0.1.x:443: needsOwnNamespace) gets the same namespace
// without a link, Caddy built first when its HTTP/3 needs it.
async function prepare (opts, argv, { entry } = {}) {
  const log = line => process.stderr.write(line + '\n')
  const own = process.platform === 'linux' && !inPrivateNamespace() && needsOwnNamespace(select(opts.experiments))
  if (needsPrivateNamespace(opts.networks) || own) {
    const oha = needsTool(select(opts.experiments), 'oha') && opts.lanes.includes('h3')
    // The replay's h3 and h2e are served by Caddy (server/replay/serve.js): built out here for either.
    const edge = opts.replay ? opts.replay.protocols.filter(p => p === 'h3' || p === 'h2e') : []
    return { code: await buildThenRerun({ lanes: [...new Set([...opts.lanes, ...edge])], oha, nat: Boolean(opts.site && opts.site.link), entry, argv, log }) }
  }
  await preparePrivateNamespace()
  stopOnSignals()
  opts.argv = argv
  const stamp = new Date().toISOString().replace(/[:.]/g, '-')
  const out = path.resolve(opts.out || path.join(ROOT, 'results', stamp))
  opts.outDir = out
  return { out, log }
}

// The asked experiments' cells, as plan.js plans them, network by network and browser by browser;
// each cell's kind (bench/kinds/) measures it, given one ctx whatever the kind.
async function run (opts, log) {
  const experiments = select(opts.experiments, { smoke: opts.smoke, site: opts.site, replay: opts.replay })
  opts.browsers = opts.browsers || ['chromium']
  const p = planRun(opts, experiments)
  if (p.needs.chromium && !findChrome()) throw new UserError(`no Chrome or Chromium found: ${INSTALL_HINT}`, { status: 503 })
  if (opts.networks.includes('link')) {
    const why = unavailableReason()
    if (why) throw new LinkUnavailableError(`--network ${opts.networks.length > 1 ? 'both' : 'link'}: ${why}; --network devtools works without it`)
  }
  const startedAt = new Date()
  const commit = gitCommit() // the code this run measures, read before anything can change it
  if (p.refusal) throw p.refusal
  for (const line of p.lines) log(line)
  if (p.needs.firefox && !findFirefox()) throw new UserError(`--browser ${opts.browsers.length > 1 ? 'both' : 'firefox'}: no Firefox found: ${FIREFOX_INSTALL_HINT}`, { status: 503 })
  for (const { kind, cells } of p.needs.preflight) await kind.preflight(cells)
  log(p.summary)
  // A run of the site experiment alone measures the user's URL: no lane, so no Caddy to build for it.
  const seen = recorder(p.needs.edge ? await ensureEdge(opts.lanes, log) : null)
  const results = []
  const progress = { t0: Date.now(), k: 0 }
  for (const pass of p.passes) results.push(...await measurePass(pass, { p, opts, log, seen, progress }))
  const environment = environmentOf({ opts, plannedCells: p.plan.length, commit, ...seen.fields, startedAt, finishedAt: new Date() })
  return { environment, results, experiments }
}

// The cells of one network and browser: its lanes (and browser) opened for the first cell that
// uses them (ctx.network.shared()), closed after the last. → their rows.
async function measurePass ({ network, browser, needsBrowser, cells }, { p, opts, log, seen, progress }) {
  let env = null
  const shared = async entry => {
    if (env) return env
    env = await openNetwork(network, { opts, needsBrowser, browser, log, firstSpec: cellLinkSpec(entry.cell) })
    seen.network(env, browser)
    log(`network ${network}: lanes ${env.running.lanes.map(l => `${l.name} ${l.url}`).join(', ')}`)
    return env
  }
  const results = []
  try {
    for (const { entry, kind, lanes, firstBrowser, skipped } of cells) {
      const elapsed = Date.now() - progress.t0
      const k = progress.k++
      const left = remainingMs({
        doneEstimateMs: p.cells.slice(0, k).reduce((a, c) => a + c.estimateMs, 0),
        doneActualMs: elapsed,
        leftEstimateMs: p.cells.slice(k).reduce((a, c) => a + c.estimateMs, 0)
      })
      log(`cell ${k + 1} of ${p.cells.length}: ${entry.experiment.id} (${cellWhat(entry.cell)}) on ${network}${opts.browsers.length > 1 ? ` in ${browser}` : ''} · ${formatDuration(elapsed)} elapsed, about ${formatDuration(left)} left`)
      if (skipped) {
        log(skipped)
        continue
      }
      const rows = await kind.run({
        entry,
        lanes,
        repeats: opts.repeats,
        budgetMs: opts.budgetMs,
        seeding: opts.seeding,
        log,
        browser,
        firstBrowser,
        outDir: opts.outDir || null,
        network: { name: network, shared: () => shared(entry) },
        onServers: seen.servers,
        onBrowser: version => seen.browser(browser, version)
      })
      for (const r of rows) log(rowLine(r))
      for (const r of rows) Object.assign(r, { planned: entry.planned, machine: MACHINE })
      results.push(...rows)
    }
  } finally {
    if (env) await env.close()
  }
  return results
}

// What the environment records of the run's browsers, servers and link: the first that tells each.
function recorder (caddyBuild) {
  const fields = { browser: null, firefox: null, userAgent: null, edge: null, forwarderPriority: null, lanesAt: null }
  const seen = {
    fields,
    browser (name, version) {
      if (name === 'firefox') fields.firefox = fields.firefox || version
      else fields.browser = fields.browser || version
    },
    // A network's lanes, link and browser, opened (network.js).
    network (env, name) {
      seen.browser(name, env.browserName)
      if (name !== 'firefox') fields.userAgent = fields.userAgent || env.userAgent
      fields.edge = fields.edge || edgeEnvironment(env.running, caddyBuild)
      if (env.link) fields.forwarderPriority = fields.forwarderPriority || env.link.opened.forwarder.priority || null
      if (env.remote) fields.lanesAt = env.remote
    },
    // The lanes a cell started itself, and its link's forwarder priority (ctx.onServers).
    servers (running, priority) {
      fields.edge = fields.edge || edgeEnvironment(running, caddyBuild)
      fields.forwarderPriority = fields.forwarderPriority || priority || null
    }
  }
  return seen
}

// A cell's fields that fit on its line: "requests 6, size 1kb, delay 0, preset No throttling".
const cellWhat = cell => Object.entries(cell).filter(([, v]) => v === null || typeof v !== 'object' || (Array.isArray(v) && v.every(x => typeof x !== 'object'))).map(([key, v]) => `${key} ${v}`).join(', ')

// A row's line: "  h2 push: median 0.109 s over 1 of 1, 0 failed, 2 of 2 scripts pushed".
function rowLine (r) {
  const med = r.median === null ? 'no samples' : `${(r.median / 1000).toFixed(3)} s`
  return `  ${r.lane}${r.mode ? ' ' + r.mode : ''}: median ${med} over ${r.repeatsGot} of ${r.repeatsAsked}, ${r.failures} failed` +
    `${r.pushOutcome ? `, ${r.pushOutcome}` : ''}${r.note ? ` (${r.note})` : ''}`
}

module.exports = { run, prepare, stopOnSignals }

'use strict'

// npm run bench (bin/h2bench-run.js): the source study's experiments, unattended, in the local
// Chrome/Chromium. Command line: bench/run-args.js; outputs: bench/report.js;
// results.json schema: docs/runner.md.
const fs = require('node:fs')
const path = require('node:path')
const { parseRunArgs, HELP } = require('./run-args')
const { select } = require('../experiments')
const { launchBrowser, findChrome, INSTALL_HINT } = require('../../harness/chromium')
const { launchFirefox, findFirefox, FIREFOX_INSTALL_HINT } = require('../../harness/firefox')
const { runPageCell } = require('../cells/page')
const { runPushPageCell } = require('../cells/push-page')
const { runPushProtocolCell } = require('../cells/push-protocol-cell')
const { cellLinkSpec } = require('../cells/helpers')
const { estimateCellMs, remainingMs, formatDuration } = require('./budget')
const { withRatios } = require('./conclusions')
const { writeOutputs } = require('./report')
const { validateResults } = require('./results-schema')
const { startLanes, startLanesBehindLink, ensureEdge, edgeEnvironment } = require('../../harness/start-lanes')
const { quietly, chromiumVersion, gitCommit, environmentRecord } = require('../../harness/provenance')
const { unavailableReason, LinkUnavailableError } = require('../../link/namespace')
const { UserError } = require('../../common/errors')
const { signalExitCode } = require('../../common/cli')
const { needsPrivateNamespace, preparePrivateNamespace } = require('../../harness/private-netns')
const { buildThenRerun } = require('../../harness/build-then-rerun')

const ROOT = path.join(__dirname, '..', '..')
const PLAYWRIGHT_CORE = require('playwright-core/package.json')
const { runTtfbCell } = require('../cells/h3-ttfb')
const { runHolCell } = require('../cells/h3-hol')
const { runSitePageCell } = require('../cells/site-page')
const { runLoadCell } = require('../cells/load')
const { runRestCell } = require('../cells/rest')
const RUNNERS = {
  page: runPageCell,
  'push-page': runPushPageCell,
  'push-protocol': runPushProtocolCell,
  ttfb: runTtfbCell,
  hol: runHolCell,
  'site-page': runSitePageCell,
  load: runLoadCell,
  rest: runRestCell
}
// Kinds whose cells start their own lanes and link (h2bench load's code path, load/load.js).
const OWN_SERVERS = new Set(['load'])
const needsBrowserKind = kind => kind !== 'push-protocol' && !OWN_SERVERS.has(kind)
// Whether an experiment's cells run in `browser` on `network`: Firefox (no CDP: no DevTools
// throttling, no net-log, no chrome.benchmarking) runs the REST visits and, behind the link,
// the page's batches; kinds without a browser run once, in the first browser's pass.
function runsIn (experiment, browser, network, browsers) {
  if (!needsBrowserKind(experiment.kind)) return browser === browsers[0]
  if (browser === 'chromium') return true
  return experiment.kind === 'rest' || (experiment.kind === 'page' && network === 'link')
}

function environmentOf ({ opts, commit, browser, firefox, userAgent, startedAt, finishedAt, edge }) {
  const machine = environmentRecord({ commit })
  return {
    node: machine.node,
    chromium: browser,
    firefox: firefox || null,
    browsers: opts.browsers,
    userAgent,
    playwrightCore: quietly(() => PLAYWRIGHT_CORE.version, null),
    h2bench: machine.h2bench,
    cpu: machine.cpu,
    cpus: machine.cpus,
    memoryGiB: machine.memoryGiB,
    os: machine.os,
    date: startedAt.toISOString(),
    durationSeconds: Math.round((finishedAt - startedAt) / 1000),
    lanes: opts.lanes,
    networks: opts.networks,
    repeats: opts.repeats,
    budgetSeconds: opts.budgetMs / 1000,
    smoke: opts.smoke,
    command: `npm run bench -- ${opts.argv.join(' ')}`,
    ...(edge || edgeEnvironment(null))
  }
}

// The lanes a cell runs on: those asked for that the experiment can use.
function lanesFor (experiment, opts) {
  return experiment.lanes ? opts.lanes.filter(n => experiment.lanes.includes(n)) : opts.lanes
}

// The lanes and the browser for one kind of network: on loopback with
// DevTools throttling per cell, or behind a packet-level link whose preset
// changes per cell (the browser inside the link's namespace).
// `firstSpec`: the link of the first cell. The link opens with it, so the page
// and the connections it opens to the lanes while it loads start on that link:
// opened unimpaired and changed by the first cell, the HTTP/2 lanes' single
// connections had been made with no delay and no rate limit, and behind the
// changed link they overflowed its queue (82 drops in a 500-item rest run that
// had none when the link opened with its spec) and carried a 290 KB compound
// document at 0.6-0.9 s instead of 0.12 s (Resource Timing; Chromium).
async function openNetwork (network, { opts, needsBrowser, browser = 'chromium', log, firstSpec = 'none' }) {
  let running, tls, link = null
  if (network === 'link') {
    link = await startLanesBehindLink(opts.lanes, firstSpec)
    running = link.running
    tls = link.tls
  } else {
    ({ running, tls } = await startLanes(opts.lanes))
  }
  const env = { running, tls, link, browser: null, page: null, cdp: null, browserName: null, userAgent: null, browserId: browser }
  const close = async () => {
    if (env.browser) await env.browser.close()
    if (link) await link.close()
    else await running.close()
  }
  try {
    if (needsBrowser && browser === 'firefox') {
      // Firefox learns the h3 lane from its Alt-Svc before the first cell (bench/firefox.js: its testing pref would map
      // every lane of the host to HTTP/3).
      env.browser = await launchFirefox({ ca: tls.ca, link: link && link.opened, lanes: running.lanes })
      env.browserName = env.browser.version
      env.page = env.browser.page
      env.page.on('pageerror', err => log(`  page error: ${err.message}`))
      await env.page.goto(`${running.page.url}/`)
      await waitForH2bench(env.page, running.page.url)
      env.userAgent = await env.page.evaluate(() => navigator.userAgent)
    } else if (needsBrowser) {
      env.browser = await launchBrowser({ spki: tls.spki, link: link && link.opened, lanes: running.lanes, handleSignals: false })
      env.browserName = chromiumVersion(env.browser.executablePath)
      env.page = await env.browser.context.newPage()
      env.page.on('pageerror', err => log(`  page error: ${err.message}`))
      await env.page.goto(`${running.page.url}/`)
      await waitForH2bench(env.page, running.page.url)
      env.userAgent = await env.page.evaluate(() => navigator.userAgent)
      env.cdp = await env.browser.context.newCDPSession(env.page)
      await env.cdp.send('Network.enable')
    }
  } catch (err) {
    await close()
    throw err
  }
  return { ...env, close }
}

// Polls until the page's window.h2bench is there (Playwright's and
// Puppeteer's waitForFunction take their arguments differently).
async function waitForH2bench (page, url, timeoutMs = 30000) {
  const until = Date.now() + timeoutMs
  while (Date.now() < until) {
    if (await page.evaluate(() => Boolean(window.h2bench && typeof window.h2bench.run === 'function' && window.h2bench.rest)).catch(() => false)) return
    await new Promise(resolve => setTimeout(resolve, 100))
  }
  throw new Error(`the h2bench page at ${url}/ has no window.h2bench.run (is client/js/bench.js there?)`)
}

// The networks an experiment runs on (push-link only makes sense behind a link).
const networksOf = (experiment, opts) => opts.networks.filter(n => !experiment.networks || experiment.networks.includes(n))

// Ctrl-C, SIGTERM or SIGHUP stop the measuring process at once, with a
// line saying so and the signal's exit code (130, 143, 129): a cell cut short
// is not a result, so no report is written. Browsers, lanes, Caddy and the
// link end with this process (pipes, parent-death signals). Playwright's own
// handlers are off (launchBrowser handleSignals: false): they closed the
// browser and left the runner to time dead pages and write a report of
// failures that exited 0.
function stopOnSignals () {
  for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
    process.once(sig, () => {
      process.stderr.write(`h2bench-run: ${sig}: stopped; an interrupted run writes no report\n`)
      process.exit(signalExitCode(sig))
    })
  }
}

async function run (opts, log) {
  const experiments = select(opts.experiments, { smoke: opts.smoke })
  const entries = experiments.flatMap(experiment => experiment.cells.map((cell, index) => ({ experiment, index, cell })))
  const needsBrowser = entries.some(e => needsBrowserKind(e.experiment.kind))
  opts.browsers = opts.browsers || ['chromium']
  if (needsBrowser && opts.browsers.includes('chromium') && !findChrome()) throw new UserError(`no Chrome or Chromium found: ${INSTALL_HINT}`, { status: 503 })
  if (opts.networks.includes('link')) {
    const why = unavailableReason()
    if (why) throw new LinkUnavailableError(`--network ${opts.networks.length > 1 ? 'both' : 'link'}: ${why}; --network devtools works without it`)
  }
  const startedAt = new Date()
  const commit = gitCommit() // the code this run measures, read before anything can change it
  const planned = opts.networks.flatMap(network => opts.browsers.flatMap(browser => entries
    .filter(e => networksOf(e.experiment, opts).includes(network) && runsIn(e.experiment, browser, network, opts.browsers))
    .map(e => ({ ...e, network, browser }))))
  for (const e of entries) {
    for (const b of opts.browsers) {
      // An experiment on none of the asked networks is skipped with one line below, saying which to add.
      if (e.index === 0 && needsBrowserKind(e.experiment.kind) && networksOf(e.experiment, opts).length && !opts.networks.some(n => networksOf(e.experiment, opts).includes(n) && runsIn(e.experiment, b, n, opts.browsers))) log(`${e.experiment.id}: not in ${b} (it needs Chromium's DevTools protocol${e.experiment.kind === 'page' ? ', or --network link' : ''})`)
    }
  }
  if (opts.browsers.includes('firefox') && planned.some(e => e.browser === 'firefox') && !findFirefox()) throw new UserError(`--browser ${opts.browsers.length > 1 ? 'both' : 'firefox'}: no Firefox found: ${FIREFOX_INSTALL_HINT}`, { status: 503 })
  for (const e of entries) {
    if (!networksOf(e.experiment, opts).length && e.index === 0) log(`${e.experiment.id}: skipped, it runs only with --network ${e.experiment.networks.join(' or ')}`)
  }
  const estimates = planned.map(e => estimateCellMs(e, { lanes: lanesFor(e.experiment, opts).length, repeats: opts.repeats, budgetMs: opts.budgetMs }))
  log(`${planned.length} cells (${opts.networks.join(' and ')}), ${opts.repeats} repeats each, budget ${formatDuration(opts.budgetMs)} per cell`)
  const caddyBuild = await ensureEdge(opts.lanes, log)
  let edge = null
  const results = []
  let browserName = null
  let firefoxName = null
  let userAgent = null
  const t0 = Date.now()
  let k = 0
  for (const [network, browser] of opts.networks.flatMap(n => opts.browsers.map(b => [n, b]))) {
    const mine = planned.filter(e => e.network === network && e.browser === browser)
    if (!mine.length) continue
    // The lanes (and browser) of this network, opened for the first cell that uses them.
    let env = null
    const shared = async entry => {
      if (env) return env
      env = await openNetwork(network, { opts, needsBrowser: mine.some(e => needsBrowserKind(e.experiment.kind)), browser, log, firstSpec: cellLinkSpec(entry.cell) })
      if (browser === 'firefox') firefoxName = firefoxName || env.browserName
      else {
        browserName = browserName || env.browserName
        userAgent = userAgent || env.userAgent
      }
      edge = edge || edgeEnvironment(env.running, caddyBuild)
      log(`network ${network}: lanes ${env.running.lanes.map(l => `${l.name} ${l.url}`).join(', ')}`)
      return env
    }
    try {
      for (const entry of mine) {
        const { experiment, cell } = entry
        const elapsed = Date.now() - t0
        const left = remainingMs({
          doneEstimateMs: estimates.slice(0, k).reduce((a, b) => a + b, 0),
          doneActualMs: elapsed,
          leftEstimateMs: estimates.slice(k).reduce((a, b) => a + b, 0)
        })
        k++
        const what = Object.entries(cell).filter(([, v]) => v === null || typeof v !== 'object' || (Array.isArray(v) && v.every(x => typeof x !== 'object'))).map(([key, v]) => `${key} ${v}`).join(', ')
        log(`cell ${k} of ${planned.length}: ${experiment.id} (${what}) on ${network}${opts.browsers.length > 1 ? ` in ${browser}` : ''} · ${formatDuration(elapsed)} elapsed, about ${formatDuration(left)} left`)
        const wanted = lanesFor(experiment, opts)
        if (!wanted.length) {
          log(`  skipped: needs lane ${experiment.lanes.join(' or ')}`)
          continue
        }
        let rows
        if (OWN_SERVERS.has(experiment.kind)) {
          rows = await RUNNERS[experiment.kind]({
            entry, lanes: wanted, repeats: opts.repeats, budgetMs: opts.budgetMs, log, onServers: running => { edge = edge || edgeEnvironment(running, caddyBuild) }
          })
        } else {
          const e = await shared(entry)
          const laneInfo = e.running.lanes.filter(l => wanted.includes(l.name))
          rows = await RUNNERS[experiment.kind]({
            page: e.page, cdp: e.cdp, context: e.browser && e.browser.context, link: e.link, entry, lanes: wanted, laneInfo,
            repeats: opts.repeats, budgetMs: opts.budgetMs, log,
            browser: { name: browser, version: e.browserName },
            // Once per cell: what needs no browser (rest's protocol-level push) goes with the first browser that runs it.
            protocolRows: opts.browsers.find(b => runsIn(experiment, b, network, opts.browsers)) === browser
          })
          // Every row says its browser (protocol-level rows say their client).
          for (const r of rows) {
            if (!r.browser) Object.assign(r, { browser, browserVersion: e.browserName })
          }
        }
        for (const r of rows) {
          const med = r.median === null ? 'no samples' : `${(r.median / 1000).toFixed(3)} s`
          log(`  ${r.lane}${r.mode ? ' ' + r.mode : ''}: median ${med} over ${r.repeatsGot} of ${r.repeatsAsked}, ${r.failures} failed` +
            `${r.pushOutcome ? `, ${r.pushOutcome}` : ''}${r.note ? ` (${r.note})` : ''}`)
        }
        results.push(...rows)
      }
    } finally {
      if (env) await env.close()
    }
  }
  const environment = environmentOf({ opts, commit, browser: browserName, firefox: firefoxName, userAgent, startedAt, finishedAt: new Date(), edge })
  return { environment, results: withRatios(results), experiments }
}

// --from: the outputs of a finished run again, from its results.json (after
// a change to the report, say); the experiments are this checkout's.
function rebuild (opts) {
  let json
  try {
    json = JSON.parse(fs.readFileSync(opts.from, 'utf8'))
  } catch (err) {
    process.stderr.write(`h2bench-run: --from ${opts.from}: ${err.code === 'ENOENT' ? 'no such file' : err.message}\n`)
    return 2
  }
  const problems = validateResults(json)
  if (problems.length) {
    process.stderr.write(`h2bench-run: --from ${opts.from} is not a results.json of this version:\n  ${problems.slice(0, 10).join('\n  ')}\n`)
    return 2
  }
  const ids = [...new Set(json.results.map(r => r.experiment))]
  const experiments = select(ids, { smoke: json.environment.smoke })
  const out = path.resolve(opts.out || path.dirname(opts.from))
  writeOutputs(out, { environment: json.environment, results: withRatios(json.results), experiments })
  process.stderr.write(`rebuilt ${path.relative(process.cwd(), out) || '.'}/{results.json,results.csv,report.md,report.html} from ${opts.from}\n`)
  if (opts.json) process.stdout.write(JSON.stringify(json, null, 2) + '\n')
  return 0
}

// → the exit code (common/cli.js); `entry`: the script that was started (bin/h2bench-run.js),
// which starts itself again in its private namespace.
async function main (argv, { entry } = {}) {
  const opts = parseRunArgs(argv) // UsageError: one line, exit 2
  if (opts.help) {
    process.stdout.write(HELP + '\n')
    return 0
  }
  if (opts.from) return rebuild(opts)
  // Behind a link the runner runs in a network namespace of its own: the
  // link and its TCP settings never touch the host's (harness/private-netns.js).
  // Caddy and oha (the load experiments' HTTP/3 client) are built out here first.
  if (needsPrivateNamespace(opts.networks)) {
    const oha = select(opts.experiments).some(e => e.kind === 'load') && opts.lanes.includes('h3')
    return buildThenRerun({ lanes: opts.lanes, oha, entry, argv, log: line => process.stderr.write(line + '\n') })
  }
  await preparePrivateNamespace()
  stopOnSignals()
  opts.argv = argv
  const stamp = new Date().toISOString().replace(/[:.]/g, '-')
  const out = path.resolve(opts.out || path.join(ROOT, 'results', stamp))
  const log = line => process.stderr.write(line + '\n')
  const report = await run(opts, log)
  const json = writeOutputs(out, report)
  log(`done in ${formatDuration(report.environment.durationSeconds * 1000)}; wrote ${path.relative(process.cwd(), out) || '.'}/{results.json,results.csv,report.md,report.html}`)
  if (opts.json) process.stdout.write(JSON.stringify(json, null, 2) + '\n')
  // A bug here must not pass for a result: say so, after writing what there is.
  const problems = validateResults(json)
  if (problems.length) {
    log(`results.json does not match its schema (docs/runner.md):\n  ${problems.slice(0, 20).join('\n  ')}`)
    return 1
  }
  return 0
}

module.exports = { main, run }

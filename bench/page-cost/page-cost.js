'use strict'

// What npm run bench:page measures (its command: bench/commands/page-cost.js): the browser CPU the h2bench
// page's measuring path costs, against a bare fetch() of the same URLs. Per lane, in headless Chromium on
// loopback (no throttling: nothing but the two ways of fetching differs), batches in turn: one through
// window.h2bench.run (the Run button's code path: jQuery's requests, Resource Timing, the page's bookkeeping),
// one of the same number of fetch()es of the same responses read as ArrayBuffers, one of the same $.get()s
// and nothing else (what jQuery costs apart from the page's own work), the order reversed every other pair. Each
// batch is metered as the runner meters a cell (harness/cell-costs.js: the CPU of every process of the browser,
// the lanes' CPU, the wall, the page's task time through a CDP session kept open, as the runner keeps its own).
const { parseArgs } = require('node:util')
const { launchBrowser, findChrome, INSTALL_HINT } = require('../../harness/chromium')
const { startLanes, ensureEdge } = require('../../harness/start-lanes')
const { costMeter } = require('../../harness/cell-costs')
const { environmentRecord, gitCommit, chromiumVersion } = require('../../harness/provenance')
const { LANES, laneNamesFrom } = require('../../server/lanes')
const { parseSize } = require('../../server/payload')
const { usage } = require('../../common/cli')
const { UserError, UsageError } = require('../../common/errors')

const TOOL = 'h2bench page cost'
const DEFAULTS = { requests: 100, size: '100kb', pairs: 5 }
const SMOKE = { requests: 20, size: '10kb', pairs: 1 }

const HELP = `Usage: npm run bench:page -- [--lanes list] [--requests n] [--size s] [--pairs k] [--smoke] [--json]

The browser CPU of the h2bench page's measuring path (window.h2bench.run, the Run button's) against a bare
fetch() of the same URLs, per lane, in headless Chromium on loopback: k pairs of batches, in turn, the order
alternating; each batch metered (every Chromium process's CPU, the lanes' CPU, the wall). Prints per lane the
medians of both and page ÷ bare.
  --lanes <list>    lanes, comma-separated (default ${LANES.map(l => l.name).join(',')})
  --requests <n>    requests a batch, 1…1000 (default ${DEFAULTS.requests})
  --size <size>     each response, e.g. 100kb (default ${DEFAULTS.size})
  --pairs <k>       pairs of batches a lane, 1…50 (default ${DEFAULTS.pairs})
  --smoke           ${SMOKE.pairs} pair of ${SMOKE.requests} × ${SMOKE.size} a lane: checks that it works
  --json            the record as JSON (environment, settings, every batch)
  -h, --help        this text`

function parsePageCostArgs (argv) {
  const { values } = usage(() => parseArgs({
    args: argv,
    options: {
      lanes: { type: 'string' }, requests: { type: 'string' }, size: { type: 'string' }, pairs: { type: 'string' },
      smoke: { type: 'boolean' }, json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' }
    }
  }))
  if (values.help) return { help: true }
  const base = values.smoke ? SMOKE : DEFAULTS
  if (values.smoke && (values.requests || values.size || values.pairs)) throw new UsageError('--smoke sets the workload: leave out --requests, --size and --pairs')
  const whole = (name, lo, hi) => {
    const v = values[name] === undefined ? String(base[name]) : values[name]
    if (!/^\d+$/.test(v) || Number(v) < lo || Number(v) > hi) throw new UsageError(`--${name} must be a whole number ${lo}…${hi}; got "${v}"`)
    return Number(v)
  }
  const size = values.size === undefined ? base.size : values.size
  let sizeBytes
  try {
    sizeBytes = parseSize(size)
  } catch (err) {
    throw new UsageError(`--size: ${err.message}`)
  }
  return {
    help: false,
    lanes: values.lanes === undefined ? LANES.map(l => l.name) : laneNamesFrom(values.lanes),
    requests: whole('requests', 1, 1000),
    size,
    sizeBytes,
    pairs: whole('pairs', 1, 50),
    smoke: Boolean(values.smoke),
    json: Boolean(values.json)
  }
}

// The two sides the page is measured against, run in the page: n requests of the lane's responses at once, each
// read whole and nothing else done with it, by `how`: 'fetch' (bare: fetch(), the body an ArrayBuffer) or 'jquery'
// (the page's own requests, $.get with dataType text, without the page's Resource Timing, progress or
// bookkeeping: what the page's own work adds is page − jquery); → { ok, bytes, ms }.
function plainBatch ({ how, url, n, size }) {
  const t0 = performance.now()
  const urlOf = i => `${url}/option?size=${size}&delay=0&r=${how}-${Math.random().toString(36).slice(2, 8)}-${i}`
  const one = how === 'fetch'
    ? i => fetch(urlOf(i), { cache: 'no-store' }).then(r => r.arrayBuffer()).then(b => b.byteLength, () => -1)
    : i => new Promise(resolve => window.jQuery.get({ url: urlOf(i), dataType: 'text' }).done(data => resolve(data.length)).fail(() => resolve(-1)))
  return Promise.all(Array.from({ length: n }, (_, i) => one(i))).then(sizes => ({
    ok: sizes.filter(b => b >= 0).length, bytes: sizes.filter(b => b >= 0).reduce((a, b) => a + b, 0), ms: performance.now() - t0
  }))
}

// The page's side: one batch of window.h2bench.run on one lane; → { ok, bytes, ms }.
function pageBatch ({ lane, n, size }) {
  return window.h2bench.run({ requests: n, size, delay: 0, repeats: 1, lanes: [lane] }).then(r => {
    const b = r.lanes[0].batches[0]
    return { ok: b.ok, bytes: b.bytes, ms: b.elapsed }
  })
}

// Each side: the function the page runs and how (plainBatch's `how`).
const BATCH = { page: [pageBatch, null], bare: [plainBatch, 'fetch'], jquery: [plainBatch, 'jquery'] }
const SIDES = Object.keys(BATCH)

// → the record: { tool, environment, settings, batches: [{ lane, protocol, side: 'page'|'bare'|'jquery', pair, ok, bytes,
// ms, wallMs, browserCpuMs, serverCpuMs, pageTaskMs }] }.
async function measure (opts, argv, log) {
  if (!findChrome()) throw new UserError(`no Chrome or Chromium found: ${INSTALL_HINT}`, { status: 503 })
  const commit = gitCommit()
  await ensureEdge(opts.lanes, log)
  const started = new Date()
  const { running, tls } = await startLanes(opts.lanes)
  const batches = []
  let browser = null
  try {
    browser = await launchBrowser({ spki: tls.spki, lanes: running.lanes })
    const page = await browser.context.newPage()
    await page.goto(`${running.page.url}/`)
    await page.waitForFunction(() => window.h2bench && window.h2bench.run)
    const cdp = await page.createCDPSession()
    const meter = costMeter({ browserDir: browser.userDataDir, cdp, edgePids: () => running.edge ? [running.edge.pid] : [] })
    for (const lane of running.lanes) {
      const n = opts.requests
      const run = side => page.evaluate(BATCH[side][0], { how: BATCH[side][1], lane: lane.name, url: lane.url, n, size: opts.size })
      // Unmetered, once each: they open the lane's connections for every side.
      for (const side of SIDES) await run(side)
      for (let pair = 0; pair < opts.pairs; pair++) {
        for (const side of pair % 2 ? [...SIDES].reverse() : SIDES) {
          await meter.start()
          const got = await run(side)
          const cost = await meter.stop()
          batches.push({
            lane: lane.name, protocol: lane.protocol || null, side, pair, ...got, ms: +got.ms.toFixed(1),
            wallMs: cost.wallMs, browserCpuMs: cost.browserCpuMs, serverCpuMs: cost.serverCpuMs, pageTaskMs: cost.pageTaskMs
          })
          log(`${lane.name} ${side} ${pair + 1} of ${opts.pairs}: ${got.ok} of ${n} ok in ${got.ms.toFixed(0)} ms; browser CPU ${cost.browserCpuMs} ms, lanes' ${cost.serverCpuMs} ms`)
        }
      }
    }
  } finally {
    if (browser) await browser.close().catch(() => {})
    await running.close()
  }
  return {
    tool: TOOL,
    environment: { ...environmentRecord({ commit }), chromium: browser ? chromiumVersion(browser.executablePath) : null, date: started.toISOString(), command: `npm run bench:page${argv.length ? ` -- ${argv.join(' ')}` : ''}` },
    settings: { lanes: opts.lanes, requests: opts.requests, size: opts.size, sizeBytes: opts.sizeBytes, pairs: opts.pairs, network: 'loopback, no throttling' },
    batches
  }
}

module.exports = { measure, parsePageCostArgs, HELP, TOOL }

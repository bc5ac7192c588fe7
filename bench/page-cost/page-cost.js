'use strict'

// What npm run bench:page measures (its command: bench/commands/page-cost.js; its figures and study:
// bench/report/page-cost/report.js): the browser CPU the h2bench page's measuring path costs, against a bare fetch()
// of the same URLs. Per lane, in headless Chromium on loopback (no throttling), batches in turn, the order reversed
// every other pair, each of the same n responses:
//   page      window.h2bench.run (the Run button's code path: jQuery's requests, Resource Timing, progress, the
//             page's bookkeeping), its timed batch metered as the runner meters it (aroundBatch);
//   bare      n fetch()es with cache: 'no-store', each body read whole as an ArrayBuffer: the least a page can do;
//   jquery    n of the page's jQuery requests and nothing else (window.h2benchRequest.get: jQuery over its fetch
//             transport), what jQuery costs apart from the page's own work;
//   xhr       the same over jQuery's own XMLHttpRequest (the run option transport: 'xhr', the card's page's way);
//   devtools  the page's batch with a DevTools session's Network domain on (as the runner's when a cell throttles:
//             no body kept), unthrottled: what DevTools throttling costs the browser on its own;
//   undrawn   the page's batch with the page not drawn meanwhile (its body display: none): the same path without
//             the cards' layout and paint, so page ÷ undrawn is what drawing the progress costs.
// Every batch is metered as the runner meters a cell (harness/cell-costs.js: the CPU of every process of the
// browser, the lanes' CPU, the wall, the page's task time over a DevTools session kept open, as the runner keeps its
// own). The browser runs as the runner's does: without puppeteer's own Network domain.
const path = require('node:path')
const { parseArgs } = require('node:util')
const { launchBrowser, findChrome, INSTALL_HINT } = require('../../harness/chromium')
const { startLanes, ensureEdge } = require('../../harness/start-lanes')
const { costMeter } = require('../../harness/cell-costs')
const { environmentRecord, gitCommit, chromiumVersion } = require('../../harness/provenance')
const { LANES, laneNamesFrom } = require('../../server/lanes')
const { parseSize } = require('../../server/payload')
const { usage, commandLine } = require('../../common/cli')
const { UserError, UsageError } = require('../../common/errors')

const { TOOL } = require('./tool')
const DEFAULTS = { requests: 100, size: '100kb', pairs: 5 }
const SMOKE = { requests: 20, size: '10kb', pairs: 1 }

const HELP = `Usage: npm run bench:page -- [--lanes list] [--sides list] [--requests n] [--size s] [--pairs k] [--smoke] [--json] [--out dir]
       npm run bench:page -- --from dir/results.json [--out dir]

The browser CPU of the h2bench page's measuring path (window.h2bench.run, the Run button's) against a bare
fetch() of the same URLs, per lane, in headless Chromium on loopback: k rounds of batches, in turn, the order
alternating, of six sides: the page, the bare fetch()es, the page's jQuery requests alone, the same over
XMLHttpRequest (jQuery's own transport), the page with a DevTools Network domain on (DevTools throttling's
cost) and the page not drawn meanwhile (what its drawing costs); each batch metered (every Chromium process's CPU, the lanes' CPU, the wall). Prints per lane the medians
and each side's ratio to the bare fetch (the page's with DevTools, and not drawn: to the page), and the aim (the page at most
1.1× the bare fetch's CPU) as the verdict engine judges it per lane.
  --lanes <list>    lanes, comma-separated (default ${LANES.map(l => l.name).join(',')})
  --sides <list>    sides, comma-separated, bare among them (default page,bare,jquery,xhr,devtools,undrawn; the aim
                    alone: page,bare, which fits more rounds in the same time)
  --requests <n>    requests a batch, 1…1000 (default ${DEFAULTS.requests})
  --size <size>     each response, e.g. 100kb (default ${DEFAULTS.size})
  --pairs <k>       rounds of batches a lane, 1…200 (default ${DEFAULTS.pairs})
  --smoke           ${SMOKE.pairs} round of ${SMOKE.requests} × ${SMOKE.size} a lane: checks that it works
  --json            the record as JSON (environment, settings, every batch, the summary)
  --out <dir>       also write a study there: <dir>/results.json (the record) and <dir>/report.md
  --from <file>     measure nothing: write results.json and report.md again from a results.json, into
                    --out <dir> (default: beside it)
  -h, --help        this text`

// --sides: a list of SIDES, bare among them (every ratio is to it; DevTools' to the page, so with the page).
function sidesFrom (raw) {
  if (raw === undefined) return [...SIDES]
  const list = raw.split(',').map(x => x.trim()).filter(Boolean)
  const unknown = list.filter(x => !SIDES.includes(x))
  if (!list.length || unknown.length) throw new UsageError(`--sides: ${unknown.length ? `unknown ${unknown.join(', ')}` : 'name at least one'}; allowed: ${SIDES.join(', ')}`)
  if (!list.includes('bare')) throw new UsageError('--sides: every ratio is to the bare fetch: include bare')
  const needPage = list.filter(x => x === 'devtools' || x === 'undrawn')
  if (needPage.length && !list.includes('page')) throw new UsageError(`--sides: ${needPage.join(' and ')} ${needPage.length > 1 ? 'are' : 'is'} measured against the page: include page`)
  return SIDES.filter(x => list.includes(x))
}

function parsePageCostArgs (argv) {
  const { values } = usage(() => parseArgs({
    args: argv,
    options: {
      lanes: { type: 'string' }, sides: { type: 'string' }, requests: { type: 'string' }, size: { type: 'string' }, pairs: { type: 'string' },
      smoke: { type: 'boolean' }, json: { type: 'boolean' }, out: { type: 'string' }, from: { type: 'string' }, help: { type: 'boolean', short: 'h' }
    }
  }))
  if (values.help) return { help: true }
  if (values.out === '') throw new UsageError('--out: name a folder')
  if (values.from !== undefined) {
    const given = ['lanes', 'sides', 'requests', 'size', 'pairs', 'smoke'].find(k => values[k] !== undefined)
    if (given) throw new UsageError(`--from measures nothing: leave out --${given}`)
    if (!values.from) throw new UsageError('--from: name a results.json')
    return { help: false, from: values.from, out: values.out || path.dirname(values.from), json: Boolean(values.json) }
  }
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
    sides: sidesFrom(values.sides),
    pairs: whole('pairs', 1, 200),
    smoke: Boolean(values.smoke),
    json: Boolean(values.json),
    out: values.out === undefined ? null : values.out
  }
}

// The sides that are not the page's run, in the page: n requests of the lane's responses at once, each read whole
// and nothing else done with it, by `how`: 'fetch' (bare: fetch() with cache: 'no-store', the body an ArrayBuffer)
// or the page's own request function (window.h2benchRequest.get) over `transport` 'fetch' or 'xhr', without the
// page's Resource Timing, progress or bookkeeping; → { ok, bytes, ms }.
function plainBatch ({ how, url, n, size }) {
  const t0 = performance.now()
  const urlOf = i => `${url}/option?size=${size}&delay=0&r=${how}-${Math.random().toString(36).slice(2, 8)}-${i}`
  const ctl = { stopped: false, xhrs: new Set(), transport: how === 'xhr' ? 'xhr' : 'fetch' }
  const one = how === 'fetch'
    ? i => fetch(urlOf(i), { cache: 'no-store' }).then(r => r.arrayBuffer()).then(b => b.byteLength, () => -1)
    : i => window.h2benchRequest.get(ctl, urlOf(i)).then(a => a.error ? -1 : a.bytes)
  return Promise.all(Array.from({ length: n }, (_, i) => one(i))).then(sizes => ({
    ok: sizes.filter(b => b >= 0).length, bytes: sizes.filter(b => b >= 0).reduce((a, b) => a + b, 0), ms: performance.now() - t0
  }))
}

// The page's side: one batch of window.h2bench.run on one lane, its timed batch metered as the runner meters it
// (aroundBatch: window.__h2benchPageMeter, exposed by measure()); → { ok, bytes, ms }. `how` 'undrawn': the same
// with the page not drawn meanwhile (its body display: none, so no frame is laid out or painted): the measuring
// path without the cards' drawing.
function pageBatch ({ how, lane, n, size }) {
  const aroundBatch = phase => window.__h2benchPageMeter(phase)
  if (how === 'undrawn') document.body.style.display = 'none'
  return window.h2bench.run({ requests: n, size, delay: 0, repeats: 1, lanes: [lane], aroundBatch }).then(r => {
    const b = r.lanes[0].batches[0]
    return { ok: b.ok, bytes: b.bytes, ms: b.elapsed }
  }).finally(() => { document.body.style.display = '' })
}

// Each side: the function the page runs, plainBatch's `how`, and whether a DevTools Network domain is on meanwhile.
const BATCH = {
  page: [pageBatch, null, false],
  bare: [plainBatch, 'fetch', false],
  jquery: [plainBatch, 'jquery', false],
  xhr: [plainBatch, 'xhr', false],
  devtools: [pageBatch, null, true],
  undrawn: [pageBatch, 'undrawn', false]
}
const SIDES = Object.keys(BATCH)
const PAGE_SIDES = ['page', 'devtools', 'undrawn'] // metered over their timed batch (aroundBatch), the others over their call

// → the record: { tool, environment, settings, batches: [{ lane, protocol, side (SIDES), pair, ok, bytes, ms, wallMs,
// browserCpuMs, browserCpuByType ({ browser, renderer, network, gpu, other }: harness/cell-costs.js),
// serverCpuMs, pageTaskMs; the page's sides also runCpuMs, runWallMs: their whole run }] }.
async function measure (opts, argv, log) {
  if (!findChrome()) throw new UserError(`no Chrome or Chromium found: ${INSTALL_HINT}`, { status: 503 })
  const commit = gitCommit()
  await ensureEdge(opts.lanes, log)
  const started = new Date()
  const { running, tls } = await startLanes(opts.lanes)
  const batches = []
  let browser = null
  try {
    browser = await launchBrowser({ spki: tls.spki, lanes: running.lanes, network: false })
    const page = await browser.context.newPage()
    await page.goto(`${running.page.url}/`)
    await page.waitForFunction(() => window.h2bench && window.h2bench.run)
    const cdp = await page.createCDPSession()
    const meterOptions = { browserDir: browser.userDataDir, cdp, edgePids: () => running.edge ? [running.edge.pid] : [], byProcessType: true }
    const meter = costMeter(meterOptions)
    // The page's timed batch alone (what the runner meters: warm-up and drawing the result left out), beside
    // `meter`'s whole call (the page's run: its warm-up, batch, events and drawing).
    const batchMeter = costMeter(meterOptions)
    let batchCost = null
    await page.exposeFunction('__h2benchPageMeter', async phase => {
      if (phase === 'start') await batchMeter.start()
      else batchCost = await batchMeter.stop()
    })
    for (const lane of running.lanes) {
      const n = opts.requests
      const run = async side => {
        const [fn, how, devtools] = BATCH[side]
        if (devtools) await cdp.send('Network.enable', { maxTotalBufferSize: 0, maxResourceBufferSize: 0 })
        try {
          return await page.evaluate(fn, { how, lane: lane.name, url: lane.url, n, size: opts.size })
        } finally {
          if (devtools) await cdp.send('Network.disable')
        }
      }
      // Unmetered, once each: they open the lane's connections for every side.
      for (const side of opts.sides) await run(side)
      for (let pair = 0; pair < opts.pairs; pair++) {
        for (const side of pair % 2 ? [...opts.sides].reverse() : opts.sides) {
          batchCost = null
          await meter.start()
          const got = await run(side)
          const whole = await meter.stop()
          // The page's sides count their timed batch, as the plain sides count their whole call (they are nothing
          // but the batch); the whole run is kept beside it (runCpuMs: the warm-up, events and drawing too).
          const cost = PAGE_SIDES.includes(side) ? batchCost : whole
          if (!cost) throw new Error(`the page's batch on ${lane.name} was not metered (aroundBatch never ended)`)
          batches.push({
            lane: lane.name, protocol: lane.protocol || null, side, pair, ...got, ms: +got.ms.toFixed(1),
            wallMs: cost.wallMs, browserCpuMs: cost.browserCpuMs, browserCpuByType: cost.browserCpuByType,
            serverCpuMs: cost.serverCpuMs, pageTaskMs: cost.pageTaskMs,
            ...(PAGE_SIDES.includes(side) ? { runCpuMs: whole.browserCpuMs, runWallMs: whole.wallMs } : {})
          })
          log(`${lane.name} ${side} ${pair + 1} of ${opts.pairs}: ${got.ok} of ${n} ok in ${got.ms.toFixed(0)} ms; browser CPU ${cost.browserCpuMs} ms` +
            `${PAGE_SIDES.includes(side) ? ` (the whole run ${whole.browserCpuMs} ms)` : ''}, lanes' ${cost.serverCpuMs} ms`)
        }
      }
    }
  } finally {
    if (browser) await browser.close().catch(() => {})
    await running.close()
  }
  return {
    tool: TOOL,
    environment: { ...environmentRecord({ commit }), chromium: browser ? chromiumVersion(browser.executablePath) : null, date: started.toISOString(), command: commandLine('npm run bench:page', argv) },
    settings: { lanes: opts.lanes, requests: opts.requests, size: opts.size, sizeBytes: opts.sizeBytes, pairs: opts.pairs, smoke: opts.smoke, sides: opts.sides, network: 'loopback, no throttling' },
    batches
  }
}

module.exports = { measure, parsePageCostArgs, HELP, TOOL, SIDES }

'use strict'

// The shape of results.json (documented field by field in docs/runner.md),
// as data, with a small checker: no JSON-Schema dependency for one file.
// A type is a string ('string', 'number', 'integer', 'boolean', 'null',
// 'array'), several joined with '|', or a nested object of fields; arrays
// of numbers are 'number[]', of strings 'string[]'.
const ENVIRONMENT = {
  node: 'string',
  chromium: 'string|null',
  userAgent: 'string|null',
  h2bench: 'string',
  cpu: 'string',
  cpus: 'integer',
  memoryGiB: 'number',
  os: 'string',
  date: 'string',
  durationSeconds: 'integer',
  lanes: 'string[]',
  repeats: 'integer',
  budgetSeconds: 'number',
  smoke: 'boolean',
  command: 'string'
}

// networks: absent in runs from before the link; caddy*: the edge lanes'
// server (harness/start-lanes.js edgeEnvironment), absent in runs before it was recorded.
// browsers, firefox: runs before Firefox have neither (Chromium only).
// linkSeed, pairedSeeds: runs behind the link since its decisions were seeded per repeat.
// machine: runs since sharding; shard: a shard's run (--shard), shards: a merge of them (bench/report/runner/merge.js).
// lanesAt: a run against lanes on another machine (--lanes-at). site: the site experiment's pages, protocols and CA.
// replay: the replay experiment's HAR, protocols, pages and recordedAt (--har).
// puppeteerCore: the browser driver's version (puppeteer-core), runs since it drives Chromium; playwrightCore: runs
// before (playwright-core's). Every run has one of them (validateResults).
const OPTIONAL_ENVIRONMENT = { puppeteerCore: 'string|null', playwrightCore: 'string|null', site: { urls: 'string[]', protocols: 'string[]', ca: 'string|null', link: 'string|null', $optional: { allowFailed: 'string[]' } }, replay: { har: 'string', protocols: 'string[]', pages: 'string[]', recordedAt: 'string|null', $optional: { variants: 'string[]', allowFailed: 'string[]' } }, lanesAt: { at: 'string', rttMs: 'number', rttSamples: 'number[]' }, machine: 'string', shard: { index: 'integer', count: 'integer', plannedCells: 'integer|null' }, shards: 'array', linkSeed: 'integer', pairedSeeds: 'boolean', forwarderPriority: 'string', browsers: 'string[]', firefox: 'string|null', networks: 'string[]', caddyVersion: 'string|null', caddyPath: 'string|null', caddyWarning: 'string|null' }

const ROW = {
  experiment: 'string',
  cell: 'integer',
  params: { requests: 'integer|null', assets: 'integer|null', sizeBytes: 'integer|null', sizeMB: 'number|null', delayMs: 'integer|null' },
  preset: 'string',
  lane: 'string',
  mode: 'string|null',
  protocol: 'string|null',
  samples: 'number[]',
  median: 'number|null',
  q1: 'number|null',
  q3: 'number|null',
  mean: 'number|null',
  min: 'number|null',
  max: 'number|null',
  failures: 'integer',
  repeatsAsked: 'integer',
  repeatsGot: 'integer',
  note: 'string|null',
  baseline: 'string|null',
  ratioToBaseline: 'number|null'
}

// Fields only some rows have: push rows; the network (rows of runs before
// the packet-level link have none: they were all DevTools).
const OPTIONAL = {
  // Behind the link: the seed each sample's run met, in order (bench/cells/helpers.js seedOf).
  linkSeeds: 'number[]',
  // The row's cell's place in the run's whole plan, and the machine that measured it (runs since sharding).
  planned: 'integer',
  machine: 'string',
  // The verdict engine's comparison with the baseline (bench/report/runner/compare-rows.js); null without a baseline.
  comparison: { against: 'string', verdict: 'string', ratio: 'number|null', low: 'number|null', high: 'number|null', runs: 'number[]', failed: 'number[]', flags: 'string[]', sentence: 'string' },
  // What the row measured, as the engine compares it with a source's (compare-rows.js workloadOf); null for kinds without one.
  workload: { tool: 'string|null', connections: 'integer|null', streams: 'integer|null', pipelining: 'integer|null', requests: 'integer|null', bytes: 'integer|null', state: 'string|null' },
  // What the row's runs cost, summed over them (harness/cell-costs.js costMeter and sumCosts): page rows.
  costs: 'object|null',
  // Runs (page batches, load runs) that had failed requests and are not samples.
  runsLeftOut: 'integer',
  network: 'string',
  link: 'string|null',
  linkSpec: 'string|null',
  pushOutcome: 'string|null',
  assetMedian: 'number|null',
  pushed: 'integer',
  // The browser of the row (chromium, firefox; node:http2 for protocol-level rows) and its version;
  // rows of runs before Firefox have none: Chromium.
  browser: 'string',
  browserVersion: 'string|null',
  // rest rows (bench/cells/rest.js): the source's scenario name and, as medians over the visits, the
  // requests per visit to the network, from the cache and answered 304 (counted by the server).
  rest: {
    scenario: 'string',
    items: 'integer',
    visits: 'integer',
    requests: 'number|null',
    network: 'number|null',
    cache: 'number|null',
    revalidated: 'number|null',
    serverRequests: 'number|null',
    pushed: 'number|null',
    connections: 'number|null',
    cacheExpected: 'integer',
    unproven: 'integer',
    untimed: 'integer'
  },
  // site rows (experiment site, bench/cells/site-url.js; mode = view: cold, repeat; lane = the protocol
  // forced): medians per good load of TTFB, FCP, LCP, DOMContentLoaded, and of the HAR's requests, bytes
  // and new connections; every request's protocol; the median load's origins; the round trip to the
  // origin, TTFB's bound and whether a load beat it; every load's record (loads).
  site: {
    url: 'string',
    view: 'string',
    ttfbMedian: 'number|null',
    fcpMedian: 'number|null',
    lcpMedian: 'number|null',
    domContentLoadedMedian: 'number|null',
    requests: 'number|null',
    bytes: 'number|null',
    newConnections: 'number|null',
    connectionsBy: 'string|null',
    protocols: 'string|null',
    origins: 'object|null',
    rttMs: 'number|null',
    pathRttMs: 'number|null',
    nat: 'string|null',
    ttfbRounds: 'integer',
    documentFromCache: 'integer',
    ttfbBoundMs: 'number|null',
    ttfbBelowBound: 'boolean',
    loads: 'array',
    // --visual (Chromium): medians of the loads' Speed Index and first and last visual change (ms), and the
    // median load's filmstrip folder (relative to the results; each load's record has its own `visual`).
    // failed: the requests that failed below HTTP over the row's loads (common/failed-requests.js; results before
    // it lack it): the loads failed by one no --allow-failed pattern expected, those failures, the expected ones,
    // the ones the page gave up, and every origin that had one.
    $optional: {
      speedIndexMedian: 'number|null', firstVisualChangeMedian: 'number|null', lastVisualChangeMedian: 'number|null', filmstrip: 'string|null', filmstripFrames: 'array|null',
      failed: { loads: 'integer', requests: 'integer', allowed: 'integer', aborted: 'integer', origins: 'array' },
      // The bound's margin (bench/cells/site-url.js ttfbBound) and the connect timer's own cost it takes off.
      ttfbBoundMarginMs: 'number|null', connectOverheadMs: 'number|null',
      // Responses the browser took from its cache, median per good load (the HAR's).
      fromCacheMedian: 'number|null'
    }
  },
  // replay rows (experiment replay, bench/cells/replay.js; site's fields too, its loads each with its replay facts):
  // the HAR replayed (file, recordedAt, pages), the page, the replay's server, the entries it served (median per
  // load), the requests the recording lacked (404s over the row's loads, the first few named), what it assumed,
  // and its fidelity to the recording (cold rows: bench/cells/replay-plan.js fidelityOf; null for a repeat view);
  // the server's behaviour (variant: plain, fifo, rfc9218, early-hints; its note, the 103s sent and the bodies its
  // scheduler sent over the row's loads, the loads a 103 was sent in and those whose page fetched its preloads).
  // The lane is the replay's protocol (h1, h2, h2-spdy, h2e, h3: server/replay/serve.js PROTOCOLS); caddy: the
  // version of the Caddy that served an edge protocol's row (h3, h2e: the same binary; rows before h2e lack it).
  replay: { har: 'string', recordedAt: 'string|null', pages: 'string[]', page: 'string', source: 'string', server: 'string', entries: 'integer', served: 'number|null', misses: 'integer', missed: 'string[]', assumed: 'string[]', fidelity: 'object|null', $optional: { notModified: 'integer', variant: { name: 'string', note: 'string|null', hints: 'integer', scheduled: 'integer', $optional: { hintedLoads: 'integer', hintsUsed: 'integer' } }, caddy: 'string|null' } },
  // site-page rows (h3-pages, h3-cc; bench/cells/site-page.js): time to first byte, the page's
  // resources and their protocols, the TCP congestion control set and what the sockets used.
  responseStartMedian: 'number|null',
  resources: 'integer',
  resourceProtocols: 'string|null',
  cc: 'string|null',
  ccVia: 'string|null',
  ccSeen: 'string|null',
  // h3-ttfb rows (bench/cells/h3-ttfb.js and h3-hol.js): the round trips before the first byte, and how the connection was made.
  ttfb: {
    rttMs: 'number',
    serverMs: 'number|null',
    roundTrips: 'number|null',
    // The least non-network time of the row's warm requests: what the round trips are counted after (records before it: none).
    $optional: { serverFloorMs: 'number|null' },
    roundTripSamples: 'number[]',
    roundTripsClean: 'number|null',
    cleanSamples: 'integer',
    connectMs: 'number|null',
    preConnectMs: 'number|null',
    requestBeforeConnectEnd: 'integer',
    newConnections: 'integer',
    warmReused: 'integer',
    handshakes: 'integer',
    resumed: 'integer',
    zeroRttAttempted: 'integer',
    zeroRtt: 'integer',
    initialRetransmits: 'integer'
  },
  // load rows (ab-vs-nghttp, h2load-netem; bench/cells/load.js): the tool and its figures, medians
  // over the runs without failures; connections as the server's ledger saw them; link counters.
  load: {
    tool: 'string',
    toolVersion: 'string',
    command: 'string',
    reqPerSec: 'number|null',
    mbPerSec: 'number|null',
    p50: 'number|null',
    p90: 'number|null',
    p99: 'number|null',
    connections: 'number|null',
    requestsPerConnection: 'number|null',
    failedRequests: 'integer',
    runs: 'integer',
    lostDown: 'number|null',
    duplicatedDown: 'number|null',
    corruptedDown: 'number|null'
  },
  // h3-hol rows: completion times of the requests within a batch (medians over the batches).
  hol: {
    lossPct: 'number',
    rttMs: 'number',
    batches: 'integer',
    p10: 'number|null',
    p50: 'number|null',
    p90: 'number|null',
    spreadMs: 'number|null',
    firstMs: 'number|null',
    // Each batch's p10, in the order they ran (the verdict engine's samples); absent in runs before it was recorded.
    $optional: { p10Samples: 'number[]' }
  }
}

function typeOk (value, type) {
  return type.split('|').some(t => {
    if (t === 'null') return value === null
    if (t === 'integer') return Number.isInteger(value)
    if (t === 'number') return typeof value === 'number' && Number.isFinite(value)
    if (t === 'array') return Array.isArray(value)
    if (t.endsWith('[]')) return Array.isArray(value) && value.every(v => typeOk(v, t.slice(0, -2)))
    return typeof value === t
  })
}

const shown = v => { const s = JSON.stringify(v); return s && s.length > 60 ? s.slice(0, 57) + '…' : s }

// Optional objects that may also be null.
const NULLABLE = new Set(['comparison', 'workload'])

// A nested object's optional fields are its `$optional`.
function checkObject (value, all, where, errors, outer = {}) {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    errors.push(`${where}: expected an object`)
    return
  }
  const { $optional: inner = {}, ...fields } = all
  const optional = { ...outer, ...inner }
  for (const [key, type] of Object.entries(fields)) {
    if (!(key in value)) errors.push(`${where}.${key}: missing`)
    else if (typeof type === 'object') checkObject(value[key], type, `${where}.${key}`, errors)
    else if (!typeOk(value[key], type)) errors.push(`${where}.${key}: expected ${type}, got ${shown(value[key])}`)
  }
  for (const key of Object.keys(value)) {
    if (key in fields) continue
    if (!(key in optional)) errors.push(`${where}.${key}: not in the schema`)
    else if (typeof optional[key] === 'object') {
      if (!(value[key] === null && NULLABLE.has(key))) checkObject(value[key], optional[key], `${where}.${key}`, errors)
    } else if (!typeOk(value[key], optional[key])) errors.push(`${where}.${key}: expected ${optional[key]}, got ${shown(value[key])}`)
  }
}

// Consistency the types cannot say: counts and order statistics.
function checkRow (row, where, errors) {
  if (row.repeatsGot !== row.samples.length) errors.push(`${where}: repeatsGot ${row.repeatsGot} but ${row.samples.length} samples`)
  if (row.repeatsGot > row.repeatsAsked) errors.push(`${where}: more repeats (${row.repeatsGot}) than asked (${row.repeatsAsked})`)
  if (row.samples.length && !(row.min <= row.q1 && row.q1 <= row.median && row.median <= row.q3 && row.q3 <= row.max)) {
    errors.push(`${where}: min ≤ q1 ≤ median ≤ q3 ≤ max does not hold`)
  }
  if (!row.samples.length && row.median !== null) errors.push(`${where}: a median without samples`)
  if (row.repeatsGot < row.repeatsAsked && !row.note && !row.failures) errors.push(`${where}: fewer repeats than asked and no note saying why`)
}

// [] when `json` is a valid results.json, else one message per problem.
function validateResults (json) {
  const errors = []
  if (json === null || typeof json !== 'object') return ['results.json: expected an object']
  checkObject(json, { environment: 'object', results: 'array' }, 'results.json', errors)
  if (json.environment && typeof json.environment === 'object') {
    checkObject(json.environment, ENVIRONMENT, 'results.json.environment', errors, OPTIONAL_ENVIRONMENT)
    const drivers = ['puppeteerCore', 'playwrightCore'].filter(key => key in json.environment)
    if (drivers.length !== 1) errors.push(`results.json.environment: one of puppeteerCore, playwrightCore expected, got ${drivers.join(' and ') || 'neither'}`)
  }
  if (!Array.isArray(json.results)) return errors
  json.results.forEach((row, i) => {
    const where = `results[${i}]`
    const before = errors.length
    checkObject(row, ROW, where, errors, OPTIONAL)
    if (errors.length === before) checkRow(row, where, errors)
  })
  return errors
}

module.exports = { validateResults, ENVIRONMENT, ROW, OPTIONAL }

'use strict'

// What report.md and report.html both say, before they format it: the run's
// environment, the introduction, and per experiment its tables, verdicts and
// the remarks under them.
const { paramOf } = require('../../cells/helpers')
const { presetByName, describePreset, throttled } = require('../../../link/devtools-presets')
const { networkOf, seriesName, multiNetwork, multiBrowsers } = require('./report-series')
const { tableOf, boundsTable, instrumentErrors, comparisonsTable, cpuShapedCells, driftingCells, pairingTable } = require('./report-tables')
const { verdicts } = require('./report-verdicts')
const { RULES } = require('./compare-rows')
const { tablesOf } = require('../tables')

// Lines under an experiment's table: presets used, push outcomes,
// failures, cells with fewer repeats and why.
function remarks (experiment, rows) {
  const out = []
  const presets = [...new Set(rows.filter(r => networkOf(r) === 'devtools').map(r => r.preset))].map(presetByName).filter(throttled)
  if (presets.length) out.push(`Network (CDP, per request): ${presets.map(p => `${p.name} = ${describePreset(p)}`).join('; ')}.`)
  const links = [...new Set(rows.filter(r => networkOf(r) === 'link' && r.link).map(r => r.link))]
  if (links.length) out.push(`Network (packet-level link, every IP packet): ${links.join('; ')}.`)
  const outcomes = [...new Set(rows.filter(r => r.pushOutcome && r.mode !== 'none' && r.mode !== 'request').map(r => `${r.lane} ${r.mode}: ${r.pushOutcome}`))]
  if (outcomes.length) out.push(`Push outcome: ${outcomes.join('; ')}.`)
  const failures = rows.reduce((n, r) => n + r.failures, 0)
  if (failures) {
    out.push(`${failures} failed ${experiment.kind === 'page' ? 'requests' : 'loads'} (${rows.filter(r => r.failures).map(r => `${seriesName(r, multiNetwork(rows), multiBrowsers(rows))} at ${paramOf(r, experiment.sweep.param)}: ${r.failures}`).join(', ')});` +
      ' a row with failures is left out of the ratios, chart and verdicts: failed requests end early, so its time is not the workload\'s.')
  }
  // Notes per swept value, the same note for several lanes said once.
  const notes = new Map()
  for (const r of rows.filter(r => r.note)) {
    const key = `${experiment.sweep.label} ${paramOf(r, experiment.sweep.param)}`
    const list = notes.get(key) || new Map()
    list.set(r.note, [...(list.get(r.note) || []), seriesName(r, multiNetwork(rows), multiBrowsers(rows))])
    notes.set(key, list)
  }
  const lanesOf = new Set(rows.map(r => seriesName(r, multiNetwork(rows), multiBrowsers(rows)))).size
  for (const [key, list] of notes) {
    for (const [note, who] of list) out.push(`At ${key}${who.length < lanesOf ? ` (${who.join(', ')})` : ''}: ${note}.`)
  }
  return out
}

// The report's title and introduction: the source study's, or, for a run of the site experiment alone, the site's.
function headingOf (report) {
  const siteOnly = report.experiments.length > 0 && report.experiments.every(e => e.kind === 'site-url')
  // The lanes the rows name, in the order asked (a replay or the corpus runs its protocols, not every lane asked).
  const asked = report.environment.lanes || []
  const named = new Set((report.results || []).map(r => r.lane))
  const lanesRan = [...asked.filter(l => named.has(l)), ...[...named].filter(l => !asked.includes(l))]
  if (!siteOnly) return { title: `h2bench: ${report.experiments.map(e => e.id).join(', ') || 'no experiment'}`, intro: introOf(report.experiments), lanesRan }
  const site = report.environment.site || { urls: [] }
  const path = site.link
    ? `The browser sat behind the packet-level link \`${site.link}\`, the origin reached by NAT from its namespace (slirp4netns): the path is the link, then this machine's own.`
    : 'The path is the real one to the server: no link, no throttling.'
  return { title: `h2bench: ${site.urls.join(', ')} per protocol`, intro: [...SITE_INTRO, path], siteOnly }
}

// `lanesRan`: the lanes the rows name (headingOf); said beside the lanes asked where they differ.
function lanesLine (env, lanesRan) {
  const asked = env.lanes || []
  if (!lanesRan || !lanesRan.length || lanesRan.join() === asked.join()) return `Lanes ${asked.join(', ')}; `
  return `Lanes ${lanesRan.join(', ')} in the results (asked: ${asked.join(', ')}); `
}

function environmentLines (env, { siteOnly = false, lanesRan = null } = {}) {
  return [
    `Ran ${env.date} for ${Math.round(env.durationSeconds / 60)} min: \`${env.command}\``,
    `Machine: ${env.cpu} × ${env.cpus} cores, ${env.memoryGiB} GiB, ${env.os}`,
    `Software: Node ${env.node}, ${env.chromium || 'no browser needed'}, ${'puppeteerCore' in env ? `puppeteer-core ${env.puppeteerCore}` : `playwright-core ${env.playwrightCore}`}, h2bench ${env.h2bench}`,
    'Whether the code this measured has moved since (which commits, which files): `docs/STUDIES.md`, and `npm run studies` for a checkout of your own',
    ...('caddyPath' in env ? [`Edge lanes' server: ${env.caddyPath ? `Caddy ${env.caddyVersion || '(version unknown)'} (\`${env.caddyPath}\`)` : 'none (no edge lane ran)'}` +
      `${env.caddyWarning ? `; WARNING: ${env.caddyWarning}` : ''}`] : []),
    ...(env.site ? [`Pages: ${env.site.urls.join(', ')}; protocols forced: ${env.site.protocols.join(', ')}; ${env.site.link ? `behind the link \`${env.site.link}\`, the origin by NAT; ` : ''}${env.site.ca ? `trusting the CA \`${env.site.ca}\` beside the browsers' own roots` : "the browsers' own roots trusted, nothing else"}`] : []),
    `${siteOnly ? '' : lanesLine(env, lanesRan)}${env.repeats} repeats asked per cell, budget ${env.budgetSeconds} s per cell${env.smoke ? '; SMOKE RUN (tiny workloads: checks that it runs, the figures mean nothing)' : ''}`
  ]
}

// The introduction says what a sample is in this report's experiments, kind by kind, and what each source measured.
const TIMES = 'Times are medians over the repeats in seconds (quartiles in brackets; n = repeats when a cell got fewer than asked); ratios are ours per cell.'
const SAMPLE = {
  page: 'A page-experiment sample is one batch: all requests fired at once by the page\'s `window.h2bench.run`, from the first issued to the last settled, after an unmeasured warm-up that opens its connections, lanes interleaved.',
  'push-page': 'A push sample is one navigation of a tab to a lane\'s /push page, its scripts pushed with it or requested by it.',
  'push-protocol': 'A protocol-level push sample is Node\'s http2 client (which accepts push) loading a page and its scripts on a fresh session, pushed with the page or requested after it.',
  ttfb: 'A time-to-first-byte sample is one small response on a new connection, cold (no session ticket) or as a repeat visit (TLS resumed, QUIC in 0-RTT where it can).',
  hol: 'A head-of-line sample is one `window.h2bench.run` batch of parallel requests over one connection under loss, with the spread of its requests\' completion times.',
  'site-page': 'A page-load sample is one navigation to a lane\'s /site page (a document and its subresources) on new connections, handshakes included.',
  load: 'A load sample is one run of the command-line tool\'s command (h2load, oha, ab, nghttp) against a lane, from start to exit.',
  rest: 'A REST sample is one visit of the collection by the page\'s own requests (`window.h2bench.rest`) in one scenario (separate requests, compound, cache, revalidation, push), or Node\'s http2 client at the protocol level.',
  'site-url': 'A site sample is one load of the page with a protocol forced: its onload.'
}
const SOURCE_NOTE = {
  '000': 'Seed 000 reported means of 10 runs in 2016 Chrome over the network of its day, and its server sent more bytes than asked: compare shapes and ratios with it, not absolute values.',
  '001': 'Seed 001 (Evert Pot) repeated each visit 50 times in Chrome and Firefox, over the internet from an AWS instance, its path not published.',
  '002': 'Seed 002 ran `ab -n 100 -c 10` and `nghttp -n -m 100` once each against one URL of nghttp2.org over the internet.',
  '003': 'Seed 003 (Cloudflare) reported averages of its own page loads from its edge, over paths it did not publish.',
  '004': 'Seed 004 ran h2load against nginx-quic on a LAN under netem.'
}
// The seed each experiment reruns (null: h2bench's own).
const SEED_OF = { delay: '000', 'count-10ms': '000', 'count-30ms': '000', size: '000', network: '000', push: '000', 'push-protocol': '000', 'push-link': '000', rest: '001', 'ab-vs-nghttp': '002', 'h3-ttfb': '003', 'h3-hol': '003', 'h3-pages': '003', 'h3-cc': '003', 'h2load-netem': '004', interop: null, 'network-current': null }
function introOf (experiments) {
  const kinds = [...new Set(experiments.map(e => e.kind))]
  const seeds = [...new Set(experiments.map(e => SEED_OF[e.id]).filter(Boolean))].sort()
  return [TIMES, ...kinds.map(k => SAMPLE[k]).filter(Boolean), ...seeds.map(s => SOURCE_NOTE[s])]
}

const SITE_INTRO = [
  'Times are medians over the repeats (quartiles in brackets; n = repeats when a row got fewer than asked). Each repeat starts',
  'a new browser in a new profile per protocol forced, protocols in alternating order: a cold load (empty cache, no connection),',
  'then a repeat view in the same browser (cache, TLS sessions and the connections it kept open warm). A sample is the load\'s',
  'onload (loadEventEnd); TTFB, FCP and LCP are the page\'s own timings; requests, bytes and connections are the load\'s HAR\'s',
  '(har/ beside this report).'
]

// An experiment's own tables under its main one (bench/report/tables/<id>.js): [{ title, head, body }].
function extraTables (experiment, rows) {
  const tables = tablesOf(experiment.id)
  return tables && rows.length ? tables(rows) : []
}

function render (report) {
  const { results, experiments } = report
  return experiments.map(e => {
    const rows = results.filter(r => r.experiment === e.id)
    return {
      experiment: e,
      rows,
      table: tableOf(e, rows),
      bounds: boundsTable(e, rows),
      comparisons: comparisonsTable(e, rows),
      pairing: pairingTable(e, rows),
      instrumentErrors: instrumentErrors(e, rows),
      cpuShaped: cpuShapedCells(e, rows),
      drifting: driftingCells(e, rows),
      verdicts: verdicts(e, rows),
      remarks: remarks(e, rows),
      extra: extraTables(e, rows)
    }
  })
}

// The line above each experiment's comparisons table: the engine's rules, in words.
const COMPARISONS_INTRO = `Each series against its baseline in the same cell, by the verdict engine (${RULES.method}, ${Math.round(RULES.confidence * 100)} % interval, ` +
  `${RULES.resamples} resamples, seeded): faster or slower when the interval is clear of 1, no difference inside ±${Math.round(RULES.tolerance * 100)} %, ` +
  `inconclusive when it holds 1 beyond that, not measured below ${RULES.minRuns} good runs a side; a side whose runs drift (Mann-Kendall, p < ${RULES.driftP}) is flagged:`

// The line above the pairing table (bench/report/pairing/pairing.js).
const PAIRING_INTRO = "Pairing: the link's random decisions are a function of its seed and each packet's index, and every lane of a repeat met the " +
  "same seed (environment: linkSeed, pairedSeeds). The spread of each series' per-repeat ratio to its baseline (standard deviation of ln ratio: " +
  '0.10 is about ±10 %) within a seed, and across seeds (every pair of runs that met different seeds: what a run with a seed per lane gives); ' +
  'only links that decide something at random (loss, jitter, duplication, corruption, reordering, PIE) have rows, elsewhere every seed meets the same packets:'

// The heading of the list of cells the machine's CPU shaped, above the verdicts.
const CPU_SHAPED = "Cells shaped by this machine's CPU (client or server CPU busy 80 % of their time or more): the ratios and verdicts built on them describe the CPU as much as HTTP"

// The heading of the list of cells whose runs drift, above the verdicts.
const DRIFTING = 'Cells whose runs drift (the verdict engine\'s trend test): their medians are no steady state, and the ratios and verdicts built on them are qualified by that'

// The heading of the list of cells measured below their lower bound, above the verdicts.
const INSTRUMENT_ERRORS = 'Instrument errors: cells measured below their physical lower bound'

module.exports = { render, headingOf, environmentLines, introOf, SITE_INTRO, INSTRUMENT_ERRORS, COMPARISONS_INTRO, CPU_SHAPED, DRIFTING, PAIRING_INTRO }

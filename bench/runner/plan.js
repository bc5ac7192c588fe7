'use strict'

// What a run will measure, before it measures anything (no I/O): the asked experiments' cells
// (--cells), each on the networks and in the browsers its kind (bench/kinds/) and experiment
// allow, its place in the whole plan (merge.js joins shards back in that order), this shard's
// share (--shard), the lanes each cell runs on, its estimate, the passes (one a network and
// browser) that run them, and what the run says before it starts. run.js executes it.
const { estimateCellMs, formatDuration } = require('../cells/budget')
const { cellParams, paramOf } = require('../cells/helpers')
const { kindOf, browsersOf } = require('../kinds')
const { UserError } = require('../../common/errors')

// Every network a cell can be measured on (run-args.js --network).
const NETWORK_NAMES = ['devtools', 'link']

// A cell's name, as its experiment's sweep shows it (the report's first column): "loss 30 %", "150", "0.2".
const cellName = (experiment, cell) => String(paramOf({ preset: cell.preset, params: cellParams(cell) }, experiment.sweep.param))

// With --cells, the entries whose cell is named; UserError naming the names there are when one matches nothing.
function onlyCells (entries, names) {
  if (!names) return entries
  const known = [...new Set(entries.map(e => cellName(e.experiment, e.cell)))]
  const unknown = names.filter(n => !known.includes(n))
  if (unknown.length) throw new UserError(`--cells: no cell named ${unknown.map(n => JSON.stringify(n)).join(', ')} in these experiments; their cells are ${known.map(n => JSON.stringify(n)).join(', ')}`, { status: 400 })
  return entries.filter(e => names.includes(cellName(e.experiment, e.cell)))
}

// The lanes a cell runs on: those asked for that the experiment can use.
function lanesFor (experiment, opts) {
  return experiment.lanes ? opts.lanes.filter(n => experiment.lanes.includes(n)) : opts.lanes
}

// The networks an experiment may run on, in its own order: its own list (push-link only makes sense
// behind a link), narrowed to its kind's (ttfb, hol, load, rest: the link only); null: any.
function networksAllowed (experiment, kind = kindOf(experiment.kind)) {
  const own = experiment.networks || kind.needs.networks || null
  return own && kind.needs.networks ? own.filter(n => kind.needs.networks.includes(n)) : own
}

// The asked networks an experiment runs on.
function networksOf (experiment, opts) {
  const allowed = networksAllowed(experiment)
  return opts.networks.filter(n => !allowed || allowed.includes(n))
}

// Whether a cell of `kind` runs in `browser` on `network` when `browsers` are asked: in those its
// kind runs in there; a kind without a browser once, in the first asked browser's pass.
function runsIn (kind, browser, network, browsers) {
  if (!kind.needs.browser) return browser === browsers[0]
  return browsersOf(kind, network).includes(browser)
}

// → {
//   entries: [{ experiment, index, cell }]   the asked cells (--cells applied)
//   plan: [{ experiment, index, cell, network, browser, planned }]   every cell of the whole run, in order
//   cells: [{ entry, kind, lanes, estimateMs, firstBrowser, skipped }]   this shard's, in the plan's order;
//       entry: the plan's; skipped: the line that says why it will not run, or null
//   passes: [{ network, browser, needsBrowser, cells }]   the cells by network and browser, in that order
//   lines: ['…']   what the run says before it starts (the shard, experiments not in a browser or on none of the networks)
//   summary: 'n cells (…), …'   the last line before the first cell
//   needs: { chromium, firefox, edge, preflight: [{ kind, cells }] }
//   refusal: null | UserError   what the run must refuse (--lanes-at with a kind that starts its own servers)
// }
// Throws the UserError of --cells naming no cell. `opts`: run-args.js's (browsers default ['chromium']).
function planRun (opts, experiments) {
  const browsers = opts.browsers || ['chromium']
  const entries = onlyCells(experiments.flatMap(experiment => experiment.cells.map((cell, index) => ({ experiment, index, cell }))), opts.cells)
  const kindOfEntry = e => kindOf(e.experiment.kind)
  // Each cell's place in the whole plan, kept with its rows: a shard's rows merge back into this order (merge.js).
  const plan = opts.networks.flatMap(network => browsers.flatMap(browser => entries
    .filter(e => networksOf(e.experiment, opts).includes(network) && runsIn(kindOfEntry(e), browser, network, browsers))
    .map(e => ({ ...e, network, browser })))).map((e, planned) => ({ ...e, planned }))
  const planned = opts.shard ? plan.filter(e => e.planned % opts.shard.count === opts.shard.index - 1) : plan
  const cells = planned.map(entry => {
    const kind = kindOfEntry(entry)
    const lanes = lanesFor(entry.experiment, opts)
    return {
      entry,
      kind,
      lanes,
      estimateMs: estimateCellMs(entry, { kind, lanes: lanes.length, repeats: opts.repeats, budgetMs: opts.budgetMs }),
      firstBrowser: browsers.find(b => runsIn(kind, b, entry.network, browsers)) === entry.browser,
      skipped: !lanes.length && !kind.needs.ownBrowser ? `  skipped: needs lane ${entry.experiment.lanes.join(' or ')}` : null
    }
  })
  const passes = opts.networks.flatMap(network => browsers.map(browser => {
    const mine = cells.filter(c => c.entry.network === network && c.entry.browser === browser)
    return { network, browser, needsBrowser: mine.some(c => c.kind.needs.browser), cells: mine }
  })).filter(p => p.cells.length)

  const lines = []
  if (opts.shard) lines.push(`shard ${opts.shard.index} of ${opts.shard.count}: ${planned.length} of the plan's ${plan.length} cells`)
  for (const e of entries) {
    const kind = kindOfEntry(e)
    for (const b of browsers) {
      // An experiment on none of the asked networks is skipped with one line below, saying which to add.
      if (e.index === 0 && kind.needs.browser && networksOf(e.experiment, opts).length &&
        !opts.networks.some(n => networksOf(e.experiment, opts).includes(n) && runsIn(kind, b, n, browsers))) {
        const elsewhere = NETWORK_NAMES.filter(n => browsersOf(kind, n).includes(b))
        lines.push(`${e.experiment.id}: not in ${b} (it needs Chromium's DevTools protocol${elsewhere.length ? `, or --network ${elsewhere.join(' or ')}` : ''})`)
      }
    }
  }
  for (const e of entries) {
    if (!networksOf(e.experiment, opts).length && e.index === 0) lines.push(`${e.experiment.id}: skipped, it runs only with --network ${networksAllowed(e.experiment).join(' or ')}`)
  }

  const own = opts.lanesAt ? [...new Set(plan.filter(e => kindOfEntry(e).needs.ownServers).map(e => e.experiment.id))] : []
  const refusal = own.length
    ? new UserError(`--lanes-at: ${own.join(', ')} start${own.length === 1 ? 's' : ''} servers of ${own.length === 1 ? 'its' : 'their'} own and cannot measure lanes elsewhere; for the load tools use h2bench load --lanes-at`, { status: 400 })
    : null
  const kinds = [...new Set(cells.map(c => c.kind))]
  return {
    entries,
    plan,
    cells,
    passes,
    lines,
    summary: `${planned.length} cells (${opts.networks.join(' and ')}), ${opts.repeats} repeats each, budget ${formatDuration(opts.budgetMs)} per cell`,
    needs: {
      // Checked before the plan, as the run always did: any asked cell that measures in a browser, Chromium asked.
      chromium: browsers.includes('chromium') && entries.some(e => kindOfEntry(e).needs.browser),
      firefox: planned.some(e => e.browser === 'firefox'),
      // Caddy (the edge lanes): for every cell but those that measure a URL of the user's.
      edge: !cells.every(c => c.kind.needs.ownBrowser),
      preflight: kinds.filter(k => k.preflight).map(kind => ({ kind, cells: cells.filter(c => c.kind === kind).map(c => c.entry.cell) }))
    },
    refusal
  }
}

// Whether the experiments named need `tool` built before the runner enters its private namespace.
const needsTool = (experiments, tool) => experiments.some(e => (kindOf(e.kind).needs.tools || []).includes(tool))

// Whether the experiments named bind addresses that belong in the runner's own network namespace, link or not
// (a kind's needs.privateNamespace: the replay's 127.0.1.x:443).
const needsOwnNamespace = experiments => experiments.some(e => Boolean(kindOf(e.kind).needs.privateNamespace))

module.exports = { planRun, onlyCells, cellName, lanesFor, networksOf, networksAllowed, runsIn, needsTool, needsOwnNamespace }

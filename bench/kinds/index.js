'use strict'

// Every kind of cell, by name (an experiment's `kind`). A kind is one module here, of one shape:
//   {
//     kind: 'page',
//     needs: {
//       browser: bool,      its cells measure in a browser (so Chromium must be there when it runs in Chromium)
//       ownServers: bool,   its cells start their own lanes and link (ctx.onServers tells the runner): no --lanes-at
//       ownBrowser: bool,   its cells start their own browser and measure a URL of the user's: no lane, no Caddy
//       browsers: ['chromium', …] | network → [...] | null,   the browsers it runs in (null: none; it
//                           runs once per cell, in the first asked browser's pass)
//       networks?: ['link'],   the only networks its cells can run on (an experiment may narrow them further)
//       tools?: ['oha']     clients built before the runner enters its private namespace
//       privateNamespace?: true   its cells bind addresses that belong in the runner's own network namespace
//                           (replay: 127.0.1.x:443): the runner starts itself again in one, link or not
//     },
//     run(ctx) → rows,      ctx: { entry, lanes, repeats, budgetMs, seeding, log, browser, outDir, firstBrowser,
//                           network: { name, shared() → the network's lanes, link and browser, opened once },
//                           onServers(running, priority), onBrowser(version) } (bench/runner/run.js)
//     estimateMs(entry, { lanes, bytesPerMs }) → ms of one repeat | null (null: its experiments give their own;
//                           an experiment's own always wins: bench/cells/budget.js estimateCellMs)
//     bound(row) → its lower bound { ms, latencyMs, bandwidthMs, rounds, rttMs, downBitsPerSecond, bytes } | null
//                           (bench/report/runner/bounds.js boundOf; the general form: bound-form.js)
//     preflight?(cells)     before any browser starts, with the run's cells of this kind (site-url: reachable)
//   }
// The runner (bench/runner/run.js, plan.js) knows no kind by name: it asks these.
const KINDS = Object.freeze(Object.fromEntries([
  require('./page'),
  require('./push-page'),
  require('./push-protocol'),
  require('./ttfb'),
  require('./hol'),
  require('./site-page'),
  require('./load'),
  require('./rest'),
  require('./site-url'),
  require('./replay')
].map(k => [k.kind, k])))

// The kind named `name`; an Error naming the kinds there are when there is none.
function kindOf (name) {
  if (!Object.hasOwn(KINDS, name)) throw new Error(`no kind of cell named ${JSON.stringify(name)} (bench/kinds/); kinds: ${Object.keys(KINDS).join(', ')}`)
  return KINDS[name]
}

// The browsers a kind's cells run in on `network` ([] for a kind without a browser).
function browsersOf (kind, network) {
  const { browsers } = kind.needs
  return typeof browsers === 'function' ? browsers(network) : browsers || []
}

module.exports = { KINDS, kindOf, browsersOf }

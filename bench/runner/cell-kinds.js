'use strict'

// Which runner measures each kind of cell, and where an experiment runs:
// in which browsers, on which networks, on which of the asked lanes.
const { runPageCell } = require('../cells/page')
const { runPushPageCell } = require('../cells/push-page')
const { runPushProtocolCell } = require('../cells/push-protocol-cell')
const { runTtfbCell } = require('../cells/h3-ttfb')
const { runHolCell } = require('../cells/h3-hol')
const { runSitePageCell } = require('../cells/site-page')
const { runLoadCell } = require('../cells/load')
const { runRestCell } = require('../cells/rest')
const { runSiteUrlCell } = require('../cells/site-url')

const RUNNERS = {
  page: runPageCell,
  'push-page': runPushPageCell,
  'push-protocol': runPushProtocolCell,
  ttfb: runTtfbCell,
  hol: runHolCell,
  'site-page': runSitePageCell,
  load: runLoadCell,
  rest: runRestCell,
  'site-url': runSiteUrlCell
}
// Kinds whose cells start their own lanes and link (h2bench load's code path, load/load.js).
const OWN_SERVERS = new Set(['load'])
// Kinds whose cells start their own browser, one per protocol forced, and measure a URL of the user's, no lane (site).
const OWN_BROWSERS = new Set(['site-url'])
const needsBrowserKind = kind => kind !== 'push-protocol' && !OWN_SERVERS.has(kind)
// Whether an experiment's cells run in `browser` on `network`: Firefox (no CDP: no DevTools
// throttling, no net-log, no chrome.benchmarking) runs the REST visits and, behind the link,
// the page's batches; kinds without a browser run once, in the first browser's pass.
function runsIn (experiment, browser, network, browsers) {
  if (!needsBrowserKind(experiment.kind)) return browser === browsers[0]
  if (browser === 'chromium') return true
  return experiment.kind === 'rest' || experiment.kind === 'site-url' || (experiment.kind === 'page' && network === 'link')
}

// The lanes a cell runs on: those asked for that the experiment can use.
function lanesFor (experiment, opts) {
  return experiment.lanes ? opts.lanes.filter(n => experiment.lanes.includes(n)) : opts.lanes
}

// The networks an experiment runs on (push-link only makes sense behind a link).
const networksOf = (experiment, opts) => opts.networks.filter(n => !experiment.networks || experiment.networks.includes(n))

module.exports = { RUNNERS, OWN_SERVERS, OWN_BROWSERS, needsBrowserKind, runsIn, lanesFor, networksOf }

'use strict'

// results.json's environment: the code and the machine (harness/provenance.js's
// one record), the browsers, the run's options and command, and the edge's Caddy.
const os = require('node:os')
const { quietly, environmentRecord } = require('../../harness/provenance')
const { edgeEnvironment } = require('../../harness/start-lanes')

// The browser driver (harness/chromium/headless.js, harness/firefox/launch.js); runs before it was puppeteer-core
// recorded playwrightCore, the version of playwright-core, instead.
const PUPPETEER_CORE = require('puppeteer-core/package.json')
const { commandLine } = require('../../common/cli')

// The replay's facts a results.json keeps (enough for --from to plan its cells again).
// --allow-failed's patterns where there are any (common/failed-requests.js).
const allowed = list => list && list.length ? { allowFailed: list } : {}
const replayFacts = ({ har, protocols, pages, recordedAt, variants, allowFailed }) => ({
  har, protocols, pages, recordedAt, ...(variants ? { variants } : {}), ...allowed(allowFailed)
})

function environmentOf ({
  opts, plannedCells = null, commit, browser, firefox, userAgent, startedAt, finishedAt, edge, forwarderPriority = null, lanesAt = null
}) {
  const machine = environmentRecord({ commit })
  return {
    node: machine.node,
    chromium: browser,
    firefox: firefox || null,
    browsers: opts.browsers,
    userAgent,
    puppeteerCore: quietly(() => PUPPETEER_CORE.version, null),
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
    command: commandLine('npm run bench', opts.argv),
    // Behind the link: the seed of its random decisions and whether every lane of a repeat shared it (bench/cells/helpers.js seedOf).
    ...(opts.networks.includes('link') && opts.seeding ? { linkSeed: opts.seeding.seed, pairedSeeds: opts.seeding.paired } : {}),
    ...(forwarderPriority ? { forwarderPriority } : {}),
    // --lanes-at: the lanes ran on another machine; its address and the round trip measured to it.
    ...(lanesAt ? { lanesAt } : {}),
    // The site experiment: the pages measured, the protocols forced, the CA trusted (--url, --protocols, --ca).
    ...(opts.site ? {
      site: { urls: opts.site.urls, protocols: opts.site.protocols, ca: opts.site.ca, link: opts.site.link || null, ...allowed(opts.site.allowFailed) }
    } : {}),
    // The replay experiment: the HAR replayed, its protocols, pages and when it was recorded (--har, --protocols),
    // and the server's behaviours beside plain (--variants).
    ...(opts.replay ? { replay: replayFacts(opts.replay) } : {}),
    // The machine; with --shard, which share of the plan's cells this run measured (bench/report/runner/merge.js joins them).
    machine: os.hostname(),
    ...(opts.shard ? { shard: { index: opts.shard.index, count: opts.shard.count, plannedCells } } : {}),
    ...(edge || edgeEnvironment(null))
  }
}

module.exports = { environmentOf }

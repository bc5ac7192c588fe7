'use strict'

const { parseLinkSpec } = require('../link/spec')
const { forwarderCommands } = require('../link/forwarder-commands')
const { openLink } = require('../link/namespace')
const { followCrossTraffic, crossTrafficUnavailable, CrossTrafficError } = require('./cross-traffic')
const { LANES } = require('../server/lanes')

// The lanes on the far side of a packet-level link: the link opened, every
// lane and the page server listening on the link's server address (and only
// there), and a control to change the link while it runs. One code path for
// h2bench-link, `npm run chrome -- --link`, the runner and the load tools.

// What the page and results record of a link: its spec and numbers.
function linkRecord (link) {
  return { mode: 'packet', name: link.name, text: link.text, description: link.description, up: link.up, down: link.down }
}

// The control the page server's /link routes use (server/routes/link.js).
// `cross`: the session's cross traffic (harness/cross-traffic/index.js followCrossTraffic), which follows the spec.
function linkControl (opened, first, cross = null) {
  let current = first
  return {
    current: () => linkRecord(current),
    async change (text) {
      const next = parseLinkSpec(text, { traces: false }) // LinkSpecError: a 400
      const why = cross && crossTrafficUnavailable(next) // before anything changes
      if (why) throw new CrossTrafficError(why)
      await opened.configure(forwarderCommands(next))
      if (cross) {
        try {
          await cross.apply(next)
        } catch (err) {
          // The link as it was, its flows again: the change did not happen.
          await opened.configure(forwarderCommands(current))
          await cross.apply(current).catch(() => {})
          throw err
        }
      }
      current = next
      return linkRecord(next)
    },
    stats: options => opened.stats(options),
    // The seed of every random decision from here on, packet indexes from 0 (link/forwarder/index.js).
    seed: seed => opened.seed(seed)
  }
}

// Lane URLs for a command's environment: H2BENCH_PAGE_URL, H2BENCH_<LANE>_URL …
function laneEnv (running, control, spki) {
  const env = {
    H2BENCH_PAGE_URL: `${running.page.url}/`,
    H2BENCH_LINK: control.current().text,
    H2BENCH_LINK_DESCRIPTION: control.current().description,
    H2BENCH_SPKI: spki
  }
  for (const lane of running.lanes) env[`H2BENCH_${lane.name.toUpperCase()}_URL`] = `${lane.url}/`
  return env
}

// config: server/config.js's; its host and ports are replaced (the link's
// address, any free port). startAll is passed in so the server's own start
// code is the one used (server/start.js requires nothing of link/).
// `tls` may be a function of the server address → the certificate (one valid for that address).
async function startLinkSession ({ spec, config, tls: certs, startAll, seed, lanes = LANES }) {
  const link = parseLinkSpec(spec)
  const why = crossTrafficUnavailable(link) // iperf3 missing, say, is said before anything starts
  if (why) throw new CrossTrafficError(why)
  const opened = await openLink(forwarderCommands(link), { seed })
  let tls = certs
  try {
    if (typeof certs === 'function') tls = await certs(opened.serverAddress)
  } catch (err) {
    await opened.close()
    throw err
  }
  // The spec's cross flows (cross=…) run beside whatever the session measures, and follow the spec when the page changes it.
  const cross = followCrossTraffic(opened, { tls, seed: seed || 1 })
  const control = linkControl(opened, link, cross)
  const ports = Object.fromEntries(LANES.map(l => [`${l.name}Port`, 0]))
  let running
  try {
    running = await startAll({ ...config, ...ports, port: 0, host: opened.serverAddress }, tls, { lanes, link: control })
  } catch (err) {
    await opened.close()
    throw err
  }
  try {
    await cross.apply(link)
  } catch (err) {
    await running.close()
    await opened.close()
    throw err
  }
  let closing = null
  return {
    opened,
    running,
    tls,
    control,
    env: () => laneEnv(running, control, tls.spki),
    // Stops the cross flows and resolves their reports (link/cross-report.js), one per set of flows the
    // spec had; `atStop` is called the moment they stop (to read the link's counters: bin/h2bench-link.js).
    stopCrossTraffic: ({ atStop } = {}) => cross.stop({ atStop }),
    crossTraffic: () => cross.reports(),
    close: () => {
      closing = closing || cross.stop().catch(() => {}).then(() => running.close()).then(() => opened.close())
      return closing
    }
  }
}

module.exports = { startLinkSession, linkRecord, linkControl }

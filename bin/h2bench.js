#!/usr/bin/env node
'use strict'

// npm start, h2bench: the page and the lanes (server/), optionally behind a
// packet-level link and with the local Chrome opened on the page, or the page
// alone with the lanes of another machine (--lanes-at); and
// `h2bench load …`, the command-line load tools (load/cli.js).
const path = require('node:path')
const { parseConfig, helpText, isLoopback } = require('../server/config')
const { loadOrCreateCertificate } = require('../server/certs')
const { startAll } = require('../server/start')
// The user's own Chrome only: harness/chromium.js would also load puppeteer-core (0.25 s, 20 MB) for nothing.
const { findChrome, INSTALL_HINT } = require('../harness/chromium/find')
const { isRoot } = require('../harness/chromium/flags')
const { chromeCommand, launchChrome } = require('../harness/chromium/user-chrome')
const { UserError } = require('../common/errors')
const { runCli } = require('../common/cli')
const { parseLinkSpec } = require('../link/spec')
const { unavailableReason, LinkUnavailableError } = require('../link/namespace')
const { startLinkSession } = require('../harness/link-session')
const { useRemoteLanes } = require('../harness/start-lanes')
const { remoteLine } = require('../harness/remote-lanes')
const { needsPrivateNamespace, preparePrivateNamespace } = require('../harness/private-netns')
const { buildThenRerun } = require('../harness/build-then-rerun')
const { LANES } = require('../server/lanes')
const { newToken } = require('../server/access')
const { LIMITS } = require('../server/payload')

// npm start -- --lanes-only: the lanes for clients on other machines, no page server; a banner that says what is exposed.
async function lanesOnly (config, tls) {
  const running = await startAll(config, tls, { page: false })
  const shown = config.host === '0.0.0.0' || config.host === '::' ? '<this machine\'s address>' : config.host
  console.log(`h2bench lanes only, listening on ${config.host} (every interface: ${config.host === '0.0.0.0' || config.host === '::' ? 'yes' : 'no'}):`)
  for (const lane of running.lanes) console.log(`lane ${lane.name.padEnd(4)}     https://${shown}:${lane.port}/  ${lane.label}`)
  for (const lane of running.unavailable) console.log(`lane ${lane.name.padEnd(4)}     not started: ${lane.reason}`)
  console.log(`manifest       https://${shown}:${running.lanes[0].port}/lanes.json (any lane serves it)`)
  console.log(`certificate SPKI sha256: ${tls.spki}; its CA: ${tls.dir}/ca.pem`)
  console.log(`token          ${config.token || '(none: on loopback, the internals are open)'}`)
  console.log(`From the client: h2bench load --lanes-at https://${shown}:${running.lanes[0].port} ${config.token ? `--token ${config.token} ` : ''}…`)
  const stop = signal => {
    console.log(`\n${signal}: closing servers`)
    running.close().then(() => process.exit(0))
    setTimeout(() => process.exit(0), 5000).unref()
  }
  process.on('SIGINT', () => stop('SIGINT'))
  process.on('SIGTERM', () => stop('SIGTERM'))
  await new Promise(() => {}) // until a signal
}

// Serves until SIGINT or SIGTERM, then closes `closable` and exits 0 (how a server ends).
function serveUntilSignal (closable) {
  let closing = false
  const stop = signal => {
    if (closing) return
    closing = true
    console.log(`\n${signal}: closing servers`)
    closable.close().then(() => process.exit(0))
    // Connections are destroyed, so closing takes moments; never hang on it.
    setTimeout(() => process.exit(0), 5000).unref()
  }
  process.on('SIGINT', stop)
  process.on('SIGTERM', stop)
}

// Opens the page in the user's Chrome (--chrome), or closes `closable` and says why not.
async function openChrome ({ spki, url, lanes, spawnInside = null }, closable) {
  try {
    const { executable, log } = await launchChrome({ spki, url, lanes, spawnInside })
    console.log(`Started ${executable}${isRoot() ? ' (as root: with --no-sandbox, which Chrome needs then)' : ''}; its log: ${log}`)
  } catch (err) {
    await closable.close()
    throw new UserError(`--chrome: ${err.message}`, { status: 503, cause: err })
  }
}

// npm start -- --lanes-at URL: the page here, the lanes of another machine in it (npm start -- --lanes-only there),
// read from their manifest as the runner's --lanes-at reads them (harness/start-lanes.js useRemoteLanes); a banner
// that says where they are, the round trip to them, and what the page cannot do with them.
async function pageWithRemoteLanes (config) {
  if (config.lanesOnly) throw new UserError('--lanes-at and --lanes-only: --lanes-only starts lanes here for clients elsewhere, --lanes-at serves the page here with lanes elsewhere; give one of them', { status: 400 })
  if (config.link) throw new UserError('--lanes-at and --link: the packet-level link sits between this machine\'s clients and lanes started here; with lanes elsewhere the network is the real path: leave out --link', { status: 400 })
  if (config.regenerateCerts) throw new UserError('--lanes-at and --regenerate-certs: the lanes elsewhere serve their own certificate (npm run certs there)', { status: 400 })
  const r = await useRemoteLanes({ at: config.lanesAt, token: config.token || null, page: { host: config.host, port: config.port } })
  const { running, remote, manifest } = r
  const spki = r.tls.spki
  const pageUrl = `${running.page.url}/${r.token ? `?token=${encodeURIComponent(r.token)}` : ''}` // the page passes it on to the lanes' internals
  if (!isLoopback(config.host)) console.warn(`WARNING: the page server listens on ${config.host}, beyond loopback: anyone who reaches it gets the page (it serves no lane and proxies nothing)`)
  console.log(`h2bench page   ${pageUrl}`)
  console.log(`${remoteLine(remote)}; from their manifest ${remote.at}/lanes.json`)
  for (const lane of running.lanes) console.log(`lane ${lane.name.padEnd(4)}     ${lane.url}/  ${lane.label}`)
  for (const lane of running.unavailable) console.log(`lane ${lane.name.padEnd(4)}     not started there: ${lane.reason}`)
  console.log(`certificate SPKI sha256: ${spki} (the lanes', from their manifest)`)
  const limits = manifest.limits || {}
  console.log('What the page cannot do with lanes elsewhere:')
  console.log('  no link control: a packet-level link needs the lanes on this machine (npm start -- --link …); the network is the real path to them, DevTools throttling adds to it')
  if (limits.maxSizeBytes) console.log(`  their limits are theirs: responses up to ${limits.maxSizeBytes / 1024 / 1024} MiB, delays up to ${limits.maxDelayMs / 1000} s`)
  console.log('Open the page in Chrome/Chromium trusting their certificate (or add --chrome):')
  console.log(`  ${chromeCommand({ spki, url: pageUrl, lanes: running.lanes })}`)
  if (r.token) console.log(`token          ${r.token} (the lanes' ledgers and counters need it; the page URL above carries it)`)
  if (config.chrome) await openChrome({ spki, url: pageUrl, lanes: running.lanes }, running)
  serveUntilSignal(running)
}

async function main (argv) {
  const config = parseConfig(argv)
  if (config.help) {
    console.log(helpText())
    return
  }
  // Know before starting anything whether --chrome and --link can work.
  if (config.chrome && !findChrome()) throw new UserError(`--chrome: no Chrome or Chromium found: ${INSTALL_HINT}`, { status: 503 })
  if (config.lanesAt) return pageWithRemoteLanes(config) // no certificate, lanes or link of ours: the lanes elsewhere serve theirs
  if (config.link) {
    parseLinkSpec(config.link) // LinkSpecError names the key at fault
    // The link lives in a network namespace of its own, never the host's (harness/private-netns.js); Caddy is built out here first.
    if (needsPrivateNamespace(['link'])) return buildThenRerun({ lanes: LANES.map(l => l.name), entry: __filename, argv, log: console.error })
    await preparePrivateNamespace()
    const why = unavailableReason()
    if (why) throw new LinkUnavailableError(`--link: ${why}`)
  }
  const tls = await loadOrCreateCertificate({ dir: config.certsDir, regenerate: config.regenerateCerts })
  if (config.regenerateCerts) {
    console.log(`New certificate in ${tls.dir} (SPKI sha256 ${tls.spki})`)
    return
  }
  if (tls.created) console.log(`Created a certificate signed by a new local CA in ${tls.dir} (cert.pem, key.pem, ca.pem)${tls.reason ? ` (the old one ${tls.reason})` : ''}`)
  if (!isLoopback(config.host)) {
    // Beyond loopback, the internals (ledgers, counters) and the link control need a token (server/access.js).
    config.token = config.token || newToken()
    console.warn(`WARNING: listening on ${config.host}, beyond loopback: anyone who can reach this machine can ask the lanes for responses ` +
      `of up to ${LIMITS.maxSize / 1024 / 1024} MiB each, after up to ${LIMITS.maxDelay / 1000} s (their limits); nothing is proxied. ` +
      'Ledgers, counters and the link control need the token below.')
  }
  if (config.lanesOnly) {
    if (config.link) throw new UserError('--lanes-only and --link: a link sits between this machine\'s own clients and the lanes; for clients elsewhere, leave out --link (their network is the real path)', { status: 400 })
    if (config.chrome) throw new UserError('--lanes-only and --chrome: there is no page to open; leave out one of them', { status: 400 })
    return lanesOnly(config, tls)
  }
  const session = config.link ? await startLinkSession({ spec: config.link, config, tls, startAll }) : null
  const running = session ? session.running : await startAll(config, tls)
  if (session) {
    console.log(`Packet-level link: ${session.control.current().description}`)
    console.log('  the servers listen on its far side, only a browser inside its client namespace reaches them (npm run chrome -- --link …)')
  }
  const pageUrl = `${running.page.url}/${config.token ? `?token=${config.token}` : ''}` // the page passes its token on (client/js/request.js)
  console.log(`h2bench page   ${pageUrl}`)
  for (const lane of running.lanes) console.log(`lane ${lane.name.padEnd(4)}     ${lane.url}/  ${lane.label}`)
  for (const lane of running.unavailable) console.log(`lane ${lane.name.padEnd(4)}     not started: ${lane.reason}`)
  if (running.edge) console.log(`edge           Caddy ${running.edge.version} (${running.edge.executable})${running.edge.warning ? `\n  WARNING: ${running.edge.warning}` : ''}`)
  console.log(`certificate SPKI sha256: ${tls.spki}`)
  console.log('Open the page in Chrome/Chromium trusting this certificate (or run `npm run chrome`):')
  const inside = session ? `${session.opened.nsenterPrefix.join(' ')} ` : '' // the page is only reachable through the link
  console.log(`  ${inside}${chromeCommand({ spki: tls.spki, url: pageUrl, lanes: running.lanes })}`)
  if (config.token) console.log(`token          ${config.token} (ledgers, counters and the link control need it; the page URL above carries it)`)
  if (config.chrome) {
    await openChrome({ spki: tls.spki, url: pageUrl, lanes: running.lanes, spawnInside: session && session.opened.spawnInside }, session || running)
  }
  serveUntilSignal(session || running)
}

// A server stopped by SIGINT or SIGTERM has closed its lanes and exits 0: that is how it ends.
// `h2bench load` loads the load tools' code only when asked for.
if (process.argv[2] === 'load') {
  runCli('h2bench load', require('../load/cli').main, { argv: process.argv.slice(3), entry: path.join(__dirname, 'h2bench-load.js') })
} else {
  runCli('h2bench', main)
}

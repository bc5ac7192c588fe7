#!/usr/bin/env node
'use strict'

const { parseConfig, helpText, isLoopback } = require('../server/config')
const { loadOrCreateCertificate, CertError } = require('../server/certs')
const { startAll, PortError } = require('../server/start')
const { chromeCommand, launchChrome, findChrome, isRoot, INSTALL_HINT } = require('../harness/chrome-command')
const { InputError } = require('../common/errors')
const { parseLinkSpec } = require('../link/spec')
const { unavailableReason, LinkUnavailableError } = require('../link/namespace')
const { startLinkSession } = require('../harness/link-session')
const { needsUserNamespace, rerunInUserNamespace, prepareUserNamespace } = require('../harness/userns')
const { BuildError } = require('../link/forwarder/build')

async function main (argv) {
  const config = parseConfig(argv)
  if (config.help) {
    console.log(helpText())
    return
  }
  // Know before starting anything whether --chrome and --link can work.
  if (config.chrome && !findChrome()) throw new InputError(`--chrome: no Chrome or Chromium found: ${INSTALL_HINT}`)
  if (config.link) {
    parseLinkSpec(config.link) // LinkSpecError names the key at fault
    if (needsUserNamespace()) {
      process.exitCode = await rerunInUserNamespace(__filename, argv)
      return
    }
    await prepareUserNamespace()
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
    console.warn(`WARNING: listening on ${config.host}, beyond loopback: anyone who can reach this machine can make it send large responses.`)
  }
  const session = config.link ? await startLinkSession({ spec: config.link, config, tls, startAll }) : null
  const running = session ? session.running : await startAll(config, tls)
  if (session) {
    console.log(`Packet-level link: ${session.control.current().description}`)
    console.log('  the servers listen on its far side, only a browser inside its client namespace reaches them (npm run chrome -- --link …)')
  }
  console.log(`h2bench page   ${running.page.url}/`)
  for (const lane of running.lanes) console.log(`lane ${lane.name.padEnd(4)}     ${lane.url}/  ${lane.label}`)
  for (const lane of running.unavailable) console.log(`lane ${lane.name.padEnd(4)}     not started: ${lane.reason}`)
  if (running.edge) console.log(`edge           Caddy ${running.edge.version} (${running.edge.executable})${running.edge.warning ? `\n  WARNING: ${running.edge.warning}` : ''}`)
  console.log(`certificate SPKI sha256: ${tls.spki}`)
  console.log('Open the page in Chrome/Chromium trusting this certificate (or run `npm run chrome`):')
  const inside = session ? `${session.opened.nsenterPrefix.join(' ')} ` : '' // the page is only reachable through the link
  console.log(`  ${inside}${chromeCommand({ spki: tls.spki, url: `${running.page.url}/`, lanes: running.lanes })}`)
  if (config.chrome) {
    try {
      const { executable, log } = await launchChrome({ spki: tls.spki, url: `${running.page.url}/`, lanes: running.lanes, spawnInside: session && session.opened.spawnInside })
      console.log(`Started ${executable}${isRoot() ? ' (as root: with --no-sandbox, which Chrome needs then)' : ''}; its log: ${log}`)
    } catch (err) {
      await (session || running).close()
      throw new InputError(`--chrome: ${err.message}`)
    }
  }
  let closing = false
  const stop = signal => {
    if (closing) return
    closing = true
    console.log(`\n${signal}: closing servers`)
    ;(session || running).close().then(() => process.exit(0))
    // Connections are destroyed, so closing takes moments; never hang on it.
    setTimeout(() => process.exit(0), 5000).unref()
  }
  process.on('SIGINT', stop)
  process.on('SIGTERM', stop)
}

if (require.main === module && process.argv[2] === 'load') {
  // h2bench load …: the command-line comparison with the standard load tools (load/cli.js).
  const load = require('../load/cli')
  load.main(process.argv.slice(3)).then(code => { process.exitCode = code }, err => { process.exitCode = load.reportError(err) })
} else if (require.main === module) {
  main(process.argv.slice(2)).catch(err => {
    if ([InputError, CertError, PortError, LinkUnavailableError, BuildError].some(E => err instanceof E)) {
      console.error(`h2bench: ${err.message}`)
    } else {
      console.error(err)
    }
    process.exitCode = 1
  })
}

module.exports = { main }

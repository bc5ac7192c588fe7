#!/usr/bin/env node
'use strict'

const { parseConfig, helpText, isLoopback } = require('./config')
const { loadOrCreateCertificate, CertError } = require('./certs')
const { startAll, PortError } = require('./start')
const { chromeCommand, launchChrome, findChrome, isRoot, INSTALL_HINT } = require('./chrome')
const { InputError } = require('./errors')

async function main (argv) {
  const config = parseConfig(argv)
  if (config.help) {
    console.log(helpText())
    return
  }
  // Know before starting anything whether --chrome can work.
  if (config.chrome && !findChrome()) throw new InputError(`--chrome: no Chrome or Chromium found: ${INSTALL_HINT}`)
  const tls = await loadOrCreateCertificate({ dir: config.certsDir, regenerate: config.regenerateCerts })
  if (config.regenerateCerts) {
    console.log(`New certificate in ${tls.dir} (SPKI sha256 ${tls.spki})`)
    return
  }
  if (tls.created) console.log(`Created a self-signed certificate in ${tls.dir}${tls.reason ? ` (the old one ${tls.reason})` : ''}`)
  if (!isLoopback(config.host)) {
    console.warn(`WARNING: listening on ${config.host}, beyond loopback: anyone who can reach this machine can make it send large responses.`)
  }
  const running = await startAll(config, tls)
  console.log(`h2bench page   ${running.page.url}/`)
  for (const lane of running.lanes) console.log(`lane ${lane.name.padEnd(4)}     ${lane.url}/  ${lane.label}`)
  console.log(`certificate SPKI sha256: ${tls.spki}`)
  console.log('Open the page in Chrome/Chromium trusting this certificate (or run `npm run chrome`):')
  console.log(`  ${chromeCommand({ spki: tls.spki, url: `${running.page.url}/` })}`)
  if (config.chrome) {
    try {
      const { executable, log } = await launchChrome({ spki: tls.spki, url: `${running.page.url}/` })
      console.log(`Started ${executable}${isRoot() ? ' (as root: with --no-sandbox, which Chrome needs then)' : ''}; its log: ${log}`)
    } catch (err) {
      await running.close()
      throw new InputError(`--chrome: ${err.message}`)
    }
  }
  let closing = false
  const stop = signal => {
    if (closing) return
    closing = true
    console.log(`\n${signal}: closing servers`)
    running.close().then(() => process.exit(0))
    // Connections are destroyed, so closing takes moments; never hang on it.
    setTimeout(() => process.exit(0), 5000).unref()
  }
  process.on('SIGINT', stop)
  process.on('SIGTERM', stop)
}

if (require.main === module) {
  main(process.argv.slice(2)).catch(err => {
    if (err instanceof InputError || err instanceof CertError || err instanceof PortError) {
      console.error(`h2bench: ${err.message}`)
    } else {
      console.error(err)
    }
    process.exitCode = 1
  })
}

module.exports = { main }

'use strict'

// A replay of a HAR (server/replay/serve.js) and real Chromium sent to it, as
// the replay's slow tests open them: the browser reaching the recorded names
// and ports through --host-resolver-rules and trusting the replay's own CA (in
// its throw-away NSS database: harness/nss-trust.js), over the protocol forced (launchBrowser's protocolArgs, the
// switches a site run forces a protocol with). Shared by
// test/server/replay/slow/replay-chromium.test.js and variants-chromium.test.js.
const { launchBrowser } = require('./browser')
const { findChrome, INSTALL_HINT } = require('../../harness/chromium')
const { archiveFromHar } = require('../../server/replay/archive')
const { startReplay, EDGE_PROTOCOLS } = require('../../server/replay/serve')
const { mayBuildHere, openLink, unavailableReason } = require('../../link/namespace')
const { parseLinkSpec } = require('../../link/spec')
const { forwarderCommands } = require('../../link/forwarder-commands')
const { addressCount } = require('../../server/replay/origins')
const { replayChromiumArgs } = require('../../bench/cells/replay-plan')
const { edgeUnavailableReason } = require('../../server/edge/caddy')

// Why a replay cannot be opened in Chromium over `protocol` here, or null.
function replayInChromiumUnavailable (protocol, link = null) {
  if (!findChrome()) return `no Chrome or Chromium: ${INSTALL_HINT}`
  if (!mayBuildHere()) return 'the replay binds the recorded ports (443, 8443): needs test/run.js\'s private namespace'
  if (link && unavailableReason()) return unavailableReason()
  if (EDGE_PROTOCOLS.includes(protocol)) return edgeUnavailableReason() || null
  return null
}

// A mocha before(): skips the suite (saying why) where it cannot run; else the
// replay of `har` over `protocol` (replay options such as `variant` beside it)
// and a Chromium at it, put on `state` as state.replay and state.chrome.
// `link` (a link spec, 'rtt=10ms'): the replay on addresses of a packet-level
// link of its own and Chromium in the link's client namespace, on state.link:
// as bench/cells/replay.js openReplayLink opens one (not called from here: it
// is on every runner study's measuring path, unexported). Chromium's switches
// are the runner's (replayChromiumArgs).
async function openReplayInChromium (ctx, state, har, { protocol, link = null, ...options }) {
  const why = replayInChromiumUnavailable(protocol, link)
  if (why) {
    process.stdout.write(`      (skipped: ${why})\n`)
    ctx.skip()
  }
  const archive = archiveFromHar(har, { file: 'fixture.har' })
  let addresses = null
  if (link) {
    state.link = await openLink(forwarderCommands(parseLinkSpec(link, { traces: false })))
    addresses = await state.link.addServerAddresses(addressCount(archive))
  }
  state.replay = await startReplay(archive, { protocol, addresses, ...options })
  // The replay's own CA trusted, as the replay experiment's Chromium trusts it (bench/cells/replay.js), not its leaves' hashes.
  state.chrome = await launchBrowser({
    ca: state.replay.caPem, protocolArgs: replayChromiumArgs(protocol, state.replay), handleSignals: false, link: state.link || null
  })
}

// The matching after(): closes what openReplayInChromium opened.
async function closeReplayInChromium (state) {
  if (state.chrome) await state.chrome.close()
  if (state.replay) await state.replay.close()
  if (state.link) await state.link.close()
  state.chrome = state.replay = state.link = null
}

module.exports = { openReplayInChromium, closeReplayInChromium, replayInChromiumUnavailable }

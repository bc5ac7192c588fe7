'use strict'

const fs = require('node:fs')
const { startAll, startPage } = require('../server/start')
const { readRemoteLanes } = require('./remote-lanes')
const { laneByName } = require('../server/lanes')
const { generateCertificate, spkiHash } = require('../server/certs')
const { ensureCaddy } = require('../tools/caddy/build')
const { parseConfig } = require('../server/config')
const { startLinkSession } = require('./link-session')

// Set by the runner for its rerun in a private network namespace (no network
// there to fetch Go modules): what ensureEdge found before it ('ok' or the warning).
const BUILD_ENV = 'H2BENCH_CADDY_BUILD'

// Before edge lanes start: the pinned Caddy of tools/caddy built (once, with
// Go; minutes the first time), unless CADDY_PATH names one. Resolves null, or
// a warning when Go is missing or too old (server/edge/caddy.js findCaddy then
// takes a system Caddy, if any); a build that fails otherwise throws.
async function ensureEdge (names, log = () => {}) {
  if (!names.some(n => laneByName(n).edge) || process.env.CADDY_PATH) return null
  if (process.env[BUILD_ENV]) return process.env[BUILD_ENV] === 'ok' ? null : process.env[BUILD_ENV]
  const t0 = Date.now()
  const building = !fs.existsSync(ensureCaddy.binaryPath())
  if (building) log('caddy: building the pinned Caddy of tools/caddy for the edge lanes (once, with Go; a few minutes)…')
  try {
    const out = await ensureCaddy()
    if (building) log(`caddy: built ${out} in ${Math.round((Date.now() - t0) / 1000)} s`)
    return null
  } catch (err) {
    if (!err.missing) throw err
    const warning = `the pinned Caddy (tools/caddy) is not built: ${err.message}`
    log(`caddy: ${warning}; the edge lanes use whatever Caddy is found`)
    return warning
  }
}

// results.json's environment fields for the edge: the Caddy that served the
// edge lanes (startAll's running.edge), and any warning about it.
function edgeEnvironment (running, buildWarning = null) {
  const edge = running && running.edge
  const missing = running && !edge && running.unavailable && running.unavailable.length ? `edge lanes left out: ${running.unavailable[0].reason}` : null
  const warnings = [buildWarning, edge && edge.warning, missing].filter(Boolean)
  return { caddyVersion: edge ? edge.version : null, caddyPath: edge ? edge.executable : null, caddyWarning: warnings.length ? warnings.join('; ') : null }
}

// The lanes `names` and the page server on free ports of 127.0.0.1, with a
// throw-away certificate that Chromium trusts by its SPKI hash only.
// `serverOptions`: more of startAll's options (h2bench load: qlogDir,
// edgeIdleTimeoutS). → { running (see server/start.js), tls: { key, cert, spki } }
async function startLanes (names, { serverOptions = {} } = {}) {
  const lanes = names.map(laneByName)
  const tls = await throwawayCertificate()
  const config = { host: '127.0.0.1', port: 0 }
  for (const lane of lanes) config[`${lane.name}Port`] = 0
  const running = await startAll(config, tls, { ...serverOptions, lanes })
  return { running, tls }
}

async function throwawayCertificate ({ ips = [] } = {}) {
  const pair = await generateCertificate({ ips })
  return { ...pair, spki: spkiHash(pair.cert) }
}

// The same lanes behind a packet-level link (harness/link-session.js), its preset
// `spec` until the cells change it; `seed` for the link's random choices,
// `serverOptions` as for startLanes. → harness/link-session.js's session.
async function startLanesBehindLink (names, spec = 'none', { seed, serverOptions = {} } = {}) {
  // Valid for the link's server address too: Firefox checks it (Chromium trusts the SPKI hash alone).
  const tls = address => throwawayCertificate({ ips: [address] })
  const start = (config, certs, options) => startAll(config, certs, { ...serverOptions, ...options })
  return startLinkSession({ spec, config: parseConfig([], {}), tls, startAll: start, seed, lanes: names.map(laneByName) })
}

// Lanes on another machine (npm start -- --lanes-only there) and a page server here that lists them: their
// manifest and round trip (harness/remote-lanes.js). The runner's --lanes-at (its headless page, on a free port of
// loopback) and npm start -- --lanes-at (`page`: { host, port } from its config) both start it so.
// → { running (as startAll's, the lanes remote), tls: { spki }, remote: { at, rttMs, rttSamples }, token,
// manifest (the lanes' own: limits, unavailable lanes, whether a token is needed) }.
async function useRemoteLanes ({ at, token = null, names = null, page = {} }) {
  const remote = await readRemoteLanes({ at, names, token })
  const lanes = remote.lanes.map(({ name, label, protocol, url }) => ({ name, label, protocol, url }))
  const running = await startPage({ ...page, lanes, unavailable: remote.manifest.unavailable || [], spki: remote.spki })
  return {
    running,
    tls: { spki: remote.spki },
    remote: { at: remote.at, rttMs: remote.rttMs, rttSamples: remote.rttSamples },
    token,
    manifest: remote.manifest
  }
}

module.exports = { startLanes, startLanesBehindLink, useRemoteLanes, throwawayCertificate, ensureEdge, edgeEnvironment, BUILD_ENV }

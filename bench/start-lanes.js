'use strict'

const { startAll } = require('../server/start')
const { laneByName } = require('../server/lanes')
const { generateCertificate, spkiHash } = require('../server/certs')

// The lanes `names` and the page server on free ports of 127.0.0.1, with a
// throw-away certificate that Chromium trusts by its SPKI hash only.
// → { running (see server/start.js), tls: { key, cert, spki } }
async function startLanes (names) {
  const lanes = names.map(laneByName)
  const tls = await throwawayCertificate()
  const config = { host: '127.0.0.1', port: 0 }
  for (const lane of lanes) config[`${lane.name}Port`] = 0
  const running = await startAll(config, tls, { lanes })
  return { running, tls }
}

async function throwawayCertificate () {
  const pair = await generateCertificate()
  return { ...pair, spki: spkiHash(pair.cert) }
}

// The same lanes behind a packet-level link (link/session.js), its preset
// `spec` until the cells change it. → link/session.js's session.
async function startLanesBehindLink (names, spec = 'none') {
  const { startLinkSession } = require('../link/session')
  const { parseConfig } = require('../server/config')
  const tls = await throwawayCertificate()
  return startLinkSession({ spec, config: parseConfig([], {}), tls, startAll, lanes: names.map(laneByName) })
}

module.exports = { startLanes, startLanesBehindLink, throwawayCertificate }

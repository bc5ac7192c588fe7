'use strict'

const { startAll } = require('../server/start')
const { laneByName } = require('../server/lanes')
const { generateCertificate, spkiHash } = require('../server/certs')

// The lanes `names` and the page server on free ports of 127.0.0.1, with a
// throw-away certificate that Chromium trusts by its SPKI hash only.
// → { running (see server/start.js), tls: { key, cert, spki } }
async function startLanes (names) {
  const lanes = names.map(laneByName)
  const pair = await generateCertificate()
  const tls = { ...pair, spki: spkiHash(pair.cert) }
  const config = { host: '127.0.0.1', port: 0 }
  for (const lane of lanes) config[`${lane.name}Port`] = 0
  const running = await startAll(config, tls, { lanes })
  return { running, tls }
}

module.exports = { startLanes }

'use strict'

const { startAll } = require('../../server/start')
const { LANES } = require('../../server/lanes')
const { testCertificate } = require('./certificate')
const { ensureCaddy } = require('../../tools/caddy/build')

// Starts the page server and every lane on ephemeral ports of 127.0.0.1.
// Use inside a describe(): registers its own before/after hooks and returns
// a getter for the running instance.
function useServers ({ lanes = LANES } = {}) {
  let running = null
  let tls = null
  before(async function () {
    this.timeout(30000)
    // The edge lanes' Caddy: the pinned one of tools/caddy, built once (npm
    // install's postinstall does it; here only if that could not).
    if (lanes.some(l => l.edge) && !process.env.CADDY_PATH) {
      this.timeout(15 * 60 * 1000)
      await ensureCaddy()
    }
    tls = await testCertificate()
    const config = { host: '127.0.0.1', port: 0 }
    for (const lane of lanes) config[`${lane.name}Port`] = 0
    running = await startAll(config, tls, { lanes })
  })
  after(async () => { if (running) await running.close() })
  return {
    get running () { return running },
    get tls () { return tls },
    lane (name) { return running.lanes.find(l => l.name === name) }
  }
}

module.exports = { useServers }

'use strict'

// Builds Caddy (main.go: Caddy's own command with its standard modules, the
// version pinned in go.mod/go.sum) into .cache/caddy/<hash>/caddy: see
// tools/go-build.js. The h3 and h2e lanes prefer it to a system Caddy
// (server/edge/caddy.js says why). The first build takes 2-3 min on 2 cores.
const { goBuilder } = require('../go-build')

const ensureCaddy = goBuilder({ name: 'caddy', dir: __dirname, what: 'tools/caddy, the h3 and h2e lanes\' server', goNeeded: '1.26' })

module.exports = { ensureCaddy }

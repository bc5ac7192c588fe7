'use strict'

const path = require('node:path')
const express = require('express')
const debug = require('debug')('h2bench:app')
const { optionRoute } = require('./routes/option')
const { pushRoutes, newPushStats } = require('./routes/push')
const { apiRoutes } = require('./routes/api')
const { siteRoutes } = require('./routes/site')
const { ledgerRoutes } = require('./ledger')
const { protocolOf } = require('./protocol')
const { isUserError } = require('../common/errors')
const { requireToken } = require('./access')

const EXPOSED = ['Server-Timing', 'X-H2bench-Lane', 'X-H2bench-Protocol', 'X-H2bench-Push']

// The one Express app every lane serves. It never listens: a lane wraps it in
// its own TLS server, so whatever differs between lanes is the protocol and
// its implementation, never the routes, headers, bytes or timing.
// `token`: set when the lane listens beyond loopback (server/access.js): its internals need it.
// `manifest`: a function → the lanes' manifest (GET /lanes.json: every lane, for clients elsewhere).
function createApp (lane, { token = null, manifest = null } = {}) {
  const app = express()
  const pushStats = newPushStats()
  app.disable('x-powered-by')
  app.disable('etag')
  app.set('views', path.join(__dirname, '..', 'views'))
  app.set('view engine', 'ejs')

  app.use((req, res, next) => {
    res.set({
      'Access-Control-Allow-Origin': '*',
      'Access-Control-Expose-Headers': EXPOSED.join(', '),
      'Timing-Allow-Origin': '*',
      'Cache-Control': 'no-store',
      'X-H2bench-Lane': lane.name,
      'X-H2bench-Protocol': protocolOf(req, lane)
    })
    next()
  })

  const push = pushRoutes(lane, pushStats)
  const ledger = ledgerRoutes(lane)
  app.use(ledger.record) // ?ledger=ID on any route: counted per client connection (server/ledger.js)
  app.get('/', (req, res) => res.render('lane', { lane, protocol: protocolOf(req, lane) }))
  app.get('/lane', (req, res) => res.json({ lane: lane.name, label: lane.label, protocol: protocolOf(req, lane) }))
  app.get('/option', optionRoute(lane))
  app.get('/push', push.page)
  const internals = requireToken(token)
  app.get('/push/stats', internals, push.stats)
  app.get('/ledger/:id', internals, ledger.show)
  if (manifest) app.get('/lanes.json', (req, res) => res.json(manifest(req)))
  const api = apiRoutes(lane, pushStats) // seed 001's REST scenarios (routes/api.js)
  app.get('/api/items', api.collection)
  app.get('/api/compound', api.compound)
  app.get('/api/items/:id', api.one)
  app.get('/api/stats/:tag', internals, api.stats)
  app.options('/api/*', api.preflight)
  app.get('/asset/:i(\\d+).js', push.asset)
  app.use('/site', siteRoutes(lane)) // a page of N bytes with subresources (routes/site.js)

  app.use((req, res) => {
    res.status(404).json({
      error: `no route ${req.method} ${req.path}; this lane serves GET /option?size=&delay=, /push?assets=&size=&delay=, /asset/<i>.js?size=&delay=, /push/stats, /lane, /ledger/<id>, /api/items?count=N, /api/compound?count=N, /api/items/<id>, /api/stats/<tag>`,
      param: null
    })
  })

  // One error handler: the user's errors (common/errors.js: expose, status 4xx)
  // become JSON naming the parameter,
  // anything else a 500 that is logged and never takes the server down.
  app.use((err, req, res, next) => {
    if (res.headersSent) return next(err)
    if (isUserError(err) && err.status < 500) {
      return res.status(err.status).json({ error: err.message, param: err.param, code: err.code })
    }
    const status = err.status >= 400 && err.status < 500 ? err.status : 500
    if (status === 500) debug('%s %s failed: %s', lane.name, req.originalUrl, err.stack)
    res.status(status).json({ error: status === 500 ? 'internal error' : err.message, param: null })
  })

  app.locals.pushStats = pushStats
  return app
}

module.exports = { createApp }

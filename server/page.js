'use strict'

const path = require('node:path')
const express = require('express')
const { LIMITS } = require('./payload')
const { BROWSER, bytesText } = require('../shared/options')
const { isUserError } = require('../common/errors')
const { linkRoutes } = require('./routes/link')
const { cpuRoutes } = require('./routes/cpu')
const { cpuMeter } = require('./cpu')
const { LINK_PRESETS } = require('../link/presets')
const { pageKeys } = require('../link/spec-keys')

const ROOT = path.join(__dirname, '..')
// Vendor files served from node_modules: the page must work offline.
const VENDOR = {
  'jquery.min.js': require.resolve('jquery/dist/jquery.min.js')
}

// The page server (plain HTTP): the control page with the lanes' URLs, the
// client code and the vendor libraries, and the network the lanes are behind
// (`link`: harness/link-session.js's control when a packet-level link is active),
// and the CPU the browser and the lanes' servers use (GET /cpu.json: `caddyPid()`
// names the edge lanes' Caddy; `lanesHere: false` when the lanes run elsewhere).
function createPageApp ({ lanes, unavailableLanes = [], spki, link = null, linkUnavailable = null, token = null, caddyPid = () => null, lanesHere = true }) {
  const app = express()
  app.disable('x-powered-by')
  app.set('views', path.join(ROOT, 'views'))
  app.set('view engine', 'ejs')
  app.get('/', (req, res) => {
    res.set('Cache-Control', 'no-store')
    res.render('index', { lanes, unavailableLanes, spki, limits: LIMITS, browser: { ...BROWSER, maxInFlight: bytesText(BROWSER.maxInFlightBytes) } })
  })
  app.get('/lanes.json', (req, res) => res.json({ lanes, unavailable: unavailableLanes, spki, limits: LIMITS }))
  const presets = LINK_PRESETS.map(({ name, slug, group, spec, what }) => ({ name, slug, group, spec, what }))
  app.use(linkRoutes({ control: link, unavailable: linkUnavailable, presets, keys: pageKeys(), token }))
  app.use(cpuRoutes({ meter: cpuMeter({ caddyPid, lanesHere }), token }))
  app.use('/client', express.static(path.join(ROOT, 'client'), { maxAge: 0 }))
  // What the page and Node share (statistics, the options' limits, the verdict engine): one copy, served as is.
  app.use('/shared', express.static(path.join(ROOT, 'shared'), { maxAge: 0 }))
  app.get('/vendor/:file', (req, res, next) => {
    const file = VENDOR[req.params.file]
    if (!file) return next()
    res.sendFile(file)
  })
  app.use((req, res) => res.status(404).json({ error: `no page ${req.path}`, param: null }))
  app.use((err, req, res, next) => {
    if (res.headersSent) return next(err)
    if (isUserError(err) && err.status < 500) return res.status(err.status).json({ error: err.message, param: err.param, code: err.code })
    const status = err.status >= 400 && err.status < 500 ? err.status : 500
    if (status === 500) console.error(`h2bench page server: ${req.method} ${req.path} failed: ${err.stack || err}`)
    res.status(status).json({ error: status === 500 ? `the page server failed: ${err.message}` : err.message, param: null })
  })
  return app
}

module.exports = { createPageApp, VENDOR }

'use strict'

const path = require('node:path')
const express = require('express')
const { LIMITS } = require('./payload')
const { BROWSER, bytesText } = require('../client/js/options')

const ROOT = path.join(__dirname, '..')
// Vendor files served from node_modules: the page must work offline.
const VENDOR = {
  'jquery.min.js': require.resolve('jquery/dist/jquery.min.js')
}

// The page server (plain HTTP): the control page with the lanes' URLs, the
// client code and the vendor libraries.
function createPageApp ({ lanes, spki }) {
  const app = express()
  app.disable('x-powered-by')
  app.set('views', path.join(ROOT, 'views'))
  app.set('view engine', 'ejs')
  app.get('/', (req, res) => {
    res.set('Cache-Control', 'no-store')
    res.render('index', { lanes, spki, limits: LIMITS, browser: { ...BROWSER, maxInFlight: bytesText(BROWSER.maxInFlightBytes) } })
  })
  app.get('/lanes.json', (req, res) => res.json({ lanes, spki, limits: LIMITS }))
  app.use('/client', express.static(path.join(ROOT, 'client'), { maxAge: 0 }))
  app.get('/vendor/:file', (req, res, next) => {
    const file = VENDOR[req.params.file]
    if (!file) return next()
    res.sendFile(file)
  })
  app.use((req, res) => res.status(404).json({ error: `no page ${req.path}`, param: null }))
  return app
}

module.exports = { createPageApp, VENDOR }

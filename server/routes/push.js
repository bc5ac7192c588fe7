'use strict'

const debug = require('debug')('h2bench:push')
const { InputError } = require('../errors')
const { LIMITS, parseSize, parseIntParam, payload, single } = require('../payload')

const DEFAULT_ASSET_SIZE = 290 * 1024 // the source study pushed one 290 KB script

// An asset body of exactly `size` bytes that is valid JavaScript: a line
// comment of incompressible filler ('' and ' ' for the two sizes too small
// for '//').
function assetBody (size) {
  if (size < 2) return Buffer.from(' '.repeat(size))
  return Buffer.concat([Buffer.from('//'), payload(size - 2)])
}

function parsePushQuery (query) {
  const assets = single(query, 'assets')
  const size = single(query, 'size')
  if (assets === undefined) {
    throw new InputError(`assets is required: an integer ${LIMITS.minAssets}…${LIMITS.maxAssets}`, { param: 'assets' })
  }
  return {
    assets: parseIntParam(assets, { param: 'assets', min: LIMITS.minAssets, max: LIMITS.maxAssets }),
    size: size === undefined ? DEFAULT_ASSET_SIZE : parseSize(size)
  }
}

function assetPath (i, size) {
  return `/asset/${i}.js?size=${size}`
}

function newPushStats () {
  return { pages: 0, promised: 0, refusedPages: 0, unsupportedPages: 0, errors: 0, lastError: null }
}

// GET /push?assets=N&size=B : a page referencing N scripts. Where the lane and
// the client allow it, every script is pushed with the page; where the client
// refused push (Chrome sends SETTINGS_ENABLE_PUSH=0) nothing is promised and
// the page loads them by request. The outcome is in the X-H2bench-Push header
// and, with the errors that only show after the page was sent, at /push/stats.
function pushRoutes (lane, stats) {
  function onPushError (err) {
    stats.errors++
    stats.lastError = err.message
    debug('%s push error: %s', lane.name, err.message)
  }

  function page (req, res, next) {
    const { assets, size } = parsePushQuery(req.query)
    const paths = Array.from({ length: assets }, (_, i) => assetPath(i, size))
    const support = lane.pushSupport(req, res)
    stats.pages++
    let outcome
    if (support === 'enabled') {
      const body = assetBody(size)
      for (const path of paths) {
        lane.push(req, res, { path, body, headers: assetHeaders(size) }, onPushError)
        stats.promised++
      }
      outcome = `promised=${assets}`
    } else if (support === 'refused') {
      stats.refusedPages++
      outcome = 'refused-by-client'
    } else {
      stats.unsupportedPages++
      outcome = 'unsupported-by-lane'
    }
    res.set('X-H2bench-Push', outcome)
    res.render('push', { lane: lane.name, paths, size, outcome }, (err, html) => {
      if (err) return next(err)
      const buf = Buffer.from(html)
      res.set({ 'Content-Type': 'text/html; charset=utf-8', 'Content-Length': String(buf.length) })
      lane.sendBody(res, buf)
    })
  }

  function asset (req, res) {
    const size = single(req.query, 'size')
    const bytes = size === undefined ? DEFAULT_ASSET_SIZE : parseSize(size)
    res.set(assetHeaders(bytes))
    lane.sendBody(res, assetBody(bytes))
  }

  return { page, asset, stats: (req, res) => res.json({ lane: lane.name, ...stats }) }
}

function assetHeaders (size) {
  return {
    'content-type': 'application/javascript; charset=utf-8',
    'content-length': String(size),
    'cache-control': 'no-store'
  }
}

module.exports = { pushRoutes, newPushStats, assetBody, parsePushQuery, DEFAULT_ASSET_SIZE }

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

const MODES = ['push', 'hints', 'none']

function parsePushQuery (query) {
  const assets = single(query, 'assets')
  const size = single(query, 'size')
  const mode = single(query, 'mode') ?? 'push'
  if (!MODES.includes(mode)) {
    throw new InputError(`mode must be one of ${MODES.join(', ')}; got "${mode}"`, { param: 'mode' })
  }
  if (assets === undefined) {
    throw new InputError(`assets is required: an integer ${LIMITS.minAssets}…${LIMITS.maxAssets}`, { param: 'assets' })
  }
  return {
    assets: parseIntParam(assets, { param: 'assets', min: LIMITS.minAssets, max: LIMITS.maxAssets }),
    size: size === undefined ? DEFAULT_ASSET_SIZE : parseSize(size),
    mode
  }
}

// 103 Early Hints only help over h2/h3 (browsers ignore them over HTTP/1.1)
// and spdy breaks the connection on writeEarlyHints: refuse where it cannot work.
function checkHints (lane) {
  if (lane.earlyHints) return
  const why = lane.protocol === 'h2'
    ? `lane ${lane.name} (${lane.label}) cannot send them: spdy breaks the connection on a 103 response`
    : `browsers ignore them over HTTP/1.1 (lane ${lane.name})`
  throw new InputError(`mode=hints (103 Early Hints) is not available here: ${why}; use a node:http2 lane`, { param: 'mode' })
}

function assetPath (i, size) {
  return `/asset/${i}.js?size=${size}`
}

function newPushStats () {
  return { pages: 0, promised: 0, refusedPages: 0, unsupportedPages: 0, hintedPages: 0, errors: 0, lastError: null }
}

// GET /push?assets=N&size=B&mode=push|hints|none : a page referencing N
// scripts. mode=push (default): where the lane and the client allow it, every
// script is pushed with the page; where the client refused push (Chrome sends
// SETTINGS_ENABLE_PUSH=0) nothing is promised and the page loads them by
// request. mode=hints: a 103 Early Hints response preloads them first.
// The outcome is in the X-H2bench-Push header and, with the errors that only
// show after the page was sent, at /push/stats.
function pushRoutes (lane, stats) {
  function onPushError (err) {
    stats.errors++
    stats.lastError = err.message
    debug('%s push error: %s', lane.name, err.message)
  }

  function page (req, res, next) {
    const { assets, size, mode } = parsePushQuery(req.query)
    if (mode === 'hints') checkHints(lane)
    const paths = Array.from({ length: assets }, (_, i) => assetPath(i, size))
    const support = lane.pushSupport(req, res)
    stats.pages++
    let outcome
    if (mode === 'none') {
      outcome = 'none'
    } else if (mode === 'hints') {
      res.writeEarlyHints({ link: paths.map(p => `<${p}>; rel=preload; as=script`) })
      stats.hintedPages++
      outcome = `hints=${assets}`
    } else if (support === 'enabled') {
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
    res.render('push', { lane: lane.name, paths, size, outcome, mode }, (err, html) => {
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

module.exports = { pushRoutes, newPushStats, assetBody, parsePushQuery, DEFAULT_ASSET_SIZE, MODES }

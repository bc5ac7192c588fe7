'use strict'

const debug = require('debug')('h2bench:push')
const { InputError } = require('../../common/errors')
const { LIMITS, parseSize, parseIntParam, delayOf, payload, single } = require('../payload')
const { afterDelay } = require('../delay')

const DEFAULT_ASSET_SIZE = 290 * 1024 // the source study pushed one 290 KB script

// An asset body of exactly `size` bytes that is valid JavaScript: a view of
// the payload block, which is one `//` comment line ('' and ' ' for the two
// sizes too small for '//').
function assetBody (size) {
  if (size < 2) return Buffer.from(' '.repeat(size))
  return payload(size)
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
    mode,
    tag: parseTag(query),
    delay: delayOf(query) // before the page and each requested asset, carried into the asset URLs
  }
}

// Optional `tag`: the page gives each load its own, carried into the asset
// URLs. Tagged assets are unique, so they may be cacheable, which Chrome's
// Early Hints need: it preloads through the HTTP cache and drops a no-store
// preload (the page then fetches the script again, initiatorType "script").
function parseTag (query) {
  const tag = single(query, 'tag')
  if (tag !== undefined && !/^[\w-]{1,64}$/.test(tag)) {
    throw new InputError(`tag must be 1…64 letters, digits, _ or -; got "${tag}"`, { param: 'tag' })
  }
  return tag
}

// 103 Early Hints only help over h2/h3 (browsers ignore them over HTTP/1.1)
// and spdy has no HTTP/2 103: its writeEarlyHints writes the hint as HTTP/1.1
// text into the response body (test/server/integration/spdy-compat.test.js). Refuse where
// it cannot work.
function checkHints (lane) {
  if (lane.earlyHints) return
  const why = lane.protocol === 'h2'
    ? `lane ${lane.name} (${lane.label}) cannot send them: spdy has no HTTP/2 103 and would write the hint as HTTP/1.1 text into the page`
    : `browsers ignore them over HTTP/1.1 (lane ${lane.name})`
  throw new InputError(`mode=hints (103 Early Hints) is not available here: ${why}; use a node:http2 lane`, { param: 'mode' })
}

function assetPath (i, size, tag, delay) {
  return `/asset/${i}.js?size=${size}${delay ? `&delay=${delay}` : ''}${tag === undefined ? '' : `&tag=${tag}`}`
}

function newPushStats () {
  return { pages: 0, promised: 0, refusedPages: 0, unsupportedPages: 0, hintedPages: 0, errors: 0, lastError: null }
}

// GET /push?assets=N&size=B&mode=push|hints|none : a page referencing N
// scripts. mode=push (default): where the lane and the client allow it, every
// script is pushed with the page; where the client refused push (Chrome sends
// SETTINGS_ENABLE_PUSH=0) nothing is promised and the page loads them by
// request. mode=hints: a 103 Early Hints response preloads them first.
// &tag=T (optional) makes the asset URLs unique to this load (see parseTag).
// &delay=D (optional) waits D ms before answering the page, and each asset
// request waits D ms too (the URLs carry it). Pushed assets go out with the
// page, after its one delay and without one of their own: the server knows
// them already, so push saves the client a round trip plus D per asset,
// which is what bench/cells/push-protocol.js measures. A 103 goes out before the
// delay, as Early Hints are meant to.
// The outcome is in the X-H2bench-Push header and, with the errors that only
// show after the page was sent, at /push/stats.
function pushRoutes (lane, stats) {
  function onPushError (err) {
    stats.errors++
    stats.lastError = err.message
    debug('%s push error: %s', lane.name, err.message)
  }

  function page (req, res, next) {
    const { assets, size, mode, tag, delay } = parsePushQuery(req.query)
    const paths = Array.from({ length: assets }, (_, i) => assetPath(i, size, tag, delay))
    if (mode === 'hints') {
      checkHints(lane)
      // Early Hints exist to use the server's think time: sent before it.
      res.writeEarlyHints({ link: paths.map(p => `<${p}>; rel=preload; as=script`) })
    }
    afterDelay(res, delay, () => sendPage(req, res, next, { assets, size, mode, tag, paths }))
  }

  function sendPage (req, res, next, { assets, size, mode, tag, paths }) {
    const support = lane.pushSupport(req, res)
    stats.pages++
    let outcome
    if (mode === 'none') {
      outcome = 'none'
    } else if (mode === 'hints') {
      stats.hintedPages++
      outcome = `hints=${assets}`
    } else if (support === 'enabled') {
      const body = assetBody(size)
      // What a requested asset would carry: the app's common headers (on the
      // page's response by now) and the asset's own.
      const headers = { ...res.getHeaders(), ...assetHeaders(size, tag) }
      for (const path of paths) {
        lane.push(req, res, { path, body, headers }, onPushError)
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
    const tag = parseTag(req.query)
    afterDelay(res, delayOf(req.query), () => {
      res.set(assetHeaders(bytes, tag))
      lane.sendBody(res, assetBody(bytes))
    })
  }

  // `unavailable`: mode → the 400 message /push would answer, so the page can
  // explain a combination before opening it.
  function statsRoute (req, res) {
    res.json({ lane: lane.name, ...stats, unavailable: unavailableModes(lane) })
  }

  return { page, asset, stats: statsRoute }
}

function unavailableModes (lane) {
  try {
    checkHints(lane)
    return {}
  } catch (err) {
    return { hints: err.message }
  }
}

function assetHeaders (size, tag) {
  return {
    'content-type': 'application/javascript; charset=utf-8',
    'content-length': String(size),
    'cache-control': tag === undefined ? 'no-store' : 'private, max-age=600'
  }
}

module.exports = { pushRoutes, newPushStats, assetBody, parsePushQuery, DEFAULT_ASSET_SIZE, MODES, parseTag }

'use strict'

const express = require('express')
const { InputError } = require('../../common/errors')
const { KIB, MIB, parseSize, delayOf, payload, single } = require('../payload')
const { afterDelay } = require('../delay')
const { sizedPng, PNG_MIN } = require('../../common/sized-png')

// GET /site?size=S&tag=T&delay=D : a web page of exactly S bytes in all, the
// HTML document and its subresources together (stylesheets, scripts, images),
// for page-load experiments such as Cloudflare's HTTP/3 vs HTTP/2 test (a
// 15 KB and a 1 MB page). Every byte but the markup is a view of the shared
// payload block (server/payload.js): incompressible, the same on every lane.
//
// Composition (weights of S; each subresource gets ⌊S × weight / total⌋ bytes,
// the document the rest, so the sum is S exactly):
//   S < 100 KiB, "small page" (15 KB: 5 KiB HTML, 2.5 KiB CSS, 3.5 KiB JS,
//     images of 1.5, 1.5 and 1 KiB): HTML 5, 1 stylesheet 2.5, 1 script 3.5,
//     3 images 1.5, 1.5 and 1 (of 15);
//   S ≥ 100 KiB, "large page", shares after the HTTP Archive's median page
//     (images ~60 %, scripts ~30 %, CSS ~6 %, HTML ~4 %): HTML 4, 2 stylesheets
//     4 and 2, 4 scripts 12, 8, 6 and 4, 14 images 14, 10, 8, 6, 5, 4, 3, 3, 2,
//     2, 1, 1, 0.5, 0.5 (1 MB: 21 resources, the largest image 143 KiB).
// Stylesheets sit in <head>, images in <body>, the scripts at its end (sync
// scripts: all of it blocks the load event). The document's own filler is
// payload bytes inside <script type="text/plain">, which is neither run nor
// shown. Images are valid PNGs (1 × 1 pixel) whose other bytes are payload in
// a private ancillary chunk, which decoders skip: the browser decodes them as
// real images. (Undecodable bytes would not do: Chromium stops loading an image
// as soon as its decoder fails, a few KB in.) Stylesheets and scripts are
// payload bytes (the block starts with `//`: a script of one comment line).
//
// GET /site/a/<i>.<css|js|png>?size=B&tag=T&delay=D : one subresource of B
// bytes with its Content-Type. `tag` (optional, 1 … 64 letters, digits,
// _ or -) is carried into every subresource URL so no load shares a URL with
// another; all responses are `Cache-Control: no-store` anyway. `delay`
// (optional, 0 … 60000 ms) waits before the page and before each subresource.
const LIMITS = Object.freeze({ minSize: 4 * KIB, maxSize: 16 * MIB })
const SMALL_BELOW = 100 * KIB

const SMALL = { html: 5, parts: [['css', 2.5], ['js', 3.5], ['png', 1.5], ['png', 1.5], ['png', 1]] }
const LARGE = {
  html: 4,
  parts: [['css', 4], ['css', 2], ['js', 12], ['js', 8], ['js', 6], ['js', 4],
    ...[14, 10, 8, 6, 5, 4, 3, 3, 2, 2, 1, 1, 0.5, 0.5].map(w => ['png', w])]
}
const TYPES = {
  css: 'text/css; charset=utf-8',
  js: 'application/javascript; charset=utf-8',
  png: 'image/png'
}

// The page's resources for `size` bytes: [{ kind: 'html'|ext, index, bytes }],
// the document first; the bytes add up to `size`.
function composition (size) {
  const plan = size < SMALL_BELOW ? SMALL : LARGE
  const total = plan.html + plan.parts.reduce((a, [, w]) => a + w, 0)
  const parts = plan.parts.map(([ext, w], i) => ({ kind: ext, index: i + 1, bytes: Math.floor(size * w / total) }))
  const html = size - parts.reduce((a, p) => a + p.bytes, 0)
  return [{ kind: 'html', index: 0, bytes: html }, ...parts]
}

function subresourcePath (part, { tag, delay }) {
  return `/site/a/${part.index}.${part.kind}?size=${part.bytes}${delay ? `&delay=${delay}` : ''}${tag === undefined ? '' : `&tag=${tag}`}`
}

function parseTag (query) {
  const tag = single(query, 'tag')
  if (tag !== undefined && !/^[\w-]{1,64}$/.test(tag)) {
    throw new InputError(`tag must be 1…64 letters, digits, _ or -; got "${tag}"`, { param: 'tag' })
  }
  return tag
}

function parseSiteQuery (query) {
  const raw = single(query, 'size')
  const allowed = `size must be ${LIMITS.minSize}…${LIMITS.maxSize} bytes (4kb … 16mb), an integer or with unit b, kb or mb (e.g. 15kb, 1mb)`
  if (raw === undefined) throw new InputError(`size is required: ${allowed}`, { param: 'size' })
  const size = parseSize(raw, { max: LIMITS.maxSize })
  if (size < LIMITS.minSize) throw new InputError(`${allowed}; got "${raw}"`, { param: 'size' })
  return { size, tag: parseTag(query), delay: delayOf(query) }
}

const escapeAttr = s => s.replace(/&/g, '&amp;')

// The document: markup naming every subresource, then filler to its share.
function pageHtml (size, opts) {
  const [doc, ...parts] = composition(size)
  const url = p => escapeAttr(subresourcePath(p, opts))
  const head = `<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<title>h2bench site page, ${size} bytes</title>\n` +
    '<link rel="icon" href="data:,">\n' +
    parts.filter(p => p.kind === 'css').map(p => `<link rel="stylesheet" href="${url(p)}">\n`).join('') +
    `</head>\n<body>\n<h1>h2bench site page</h1>\n<p id="composition">${parts.length + 1} resources, ${size} bytes</p>\n` +
    parts.filter(p => TYPES[p.kind].startsWith('image/')).map(p => `<img src="${url(p)}" alt="" width="64" height="48">\n`).join('') +
    parts.filter(p => p.kind === 'js').map(p => `<script src="${url(p)}"></script>\n`).join('') +
    '<script type="text/plain" id="filler">'
  const tail = '</script>\n</body>\n</html>\n'
  const fill = doc.bytes - Buffer.byteLength(head) - tail.length
  if (fill < 0) throw new InputError(`size ${size} is too small for the page's markup (${doc.bytes} bytes of HTML)`, { param: 'size' })
  let filler = payload(fill)
  // Random ASCII could end the filler early ("</script"): never in practice
  // (p ≈ 1e-9 per page), but if so that one "<" becomes ".".
  const end = filler.toString('latin1').search(/<\/script/i)
  if (end >= 0) {
    filler = Buffer.from(filler)
    filler[end] = 0x2e
  }
  return Buffer.concat([Buffer.from(head), filler, Buffer.from(tail)])
}

// A PNG of exactly `size` bytes (common/sized-png.js: one grey pixel and a
// private chunk of payload bytes); below its framing's 79 bytes, payload bytes
// alone. Made once per size (a few sizes per page, the same on every load).
const PNG_FRAMING = PNG_MIN
const pngCache = new Map()
function pngBody (size) {
  if (size < PNG_FRAMING) return payload(size)
  let body = pngCache.get(size)
  if (!body) {
    body = sizedPng(size, payload)
    if (pngCache.size >= 64) pngCache.delete(pngCache.keys().next().value)
    pngCache.set(size, body)
  }
  return body
}

function siteRoutes (lane) {
  const router = express.Router({ strict: true })

  router.get('/', (req, res) => {
    const { size, tag, delay } = parseSiteQuery(req.query)
    const body = pageHtml(size, { tag, delay })
    afterDelay(res, delay, () => {
      res.set({
        'Content-Type': 'text/html; charset=utf-8',
        'Content-Length': String(body.length),
        'X-H2bench-Site': `resources=${composition(size).length}; bytes=${size}`
      })
      lane.sendBody(res, body)
    })
  })

  router.get('/a/:file', (req, res, next) => {
    const m = /^(\d{1,3})\.(css|js|png)$/.exec(req.params.file)
    if (!m) return next() // the app's JSON 404
    const raw = single(req.query, 'size')
    if (raw === undefined) throw new InputError(`size is required: 0…${LIMITS.maxSize} bytes`, { param: 'size' })
    const bytes = parseSize(raw, { max: LIMITS.maxSize })
    parseTag(req.query)
    afterDelay(res, delayOf(req.query), () => {
      res.set({ 'Content-Type': TYPES[m[2]], 'Content-Length': String(bytes) })
      lane.sendBody(res, m[2] === 'png' ? pngBody(bytes) : bytes < 2 ? Buffer.from(' '.repeat(bytes)) : payload(bytes))
    })
  })

  return router
}

module.exports = { siteRoutes, composition, pageHtml, pngBody, parseSiteQuery, subresourcePath, LIMITS, PNG_FRAMING }

'use strict'

// A REST API for seed 001's question (Evert Pot: many small cacheable
// endpoints over HTTP/2 against one compound document): a HAL collection of
// N items, each item its own JSON resource, and the compound form with every
// item embedded. Items carry a strong ETag and the cache headers a scenario
// asks for; If-None-Match gets a real 304. `Prefer-Push: item` on the
// collection pushes every item where the lane and the client allow it, the
// outcome in X-H2bench-Push and /push/stats as for /push.
//
//   GET /api/items?count=N[&size=B&delay=D&cache=C&tag=T]      the collection (links only)
//   GET /api/compound?count=N[&size=B&delay=D&cache=C&tag=T]   the collection, items embedded
//   GET /api/items/<id>?[size=B&delay=D&cache=C&tag=T]         one item, exactly B bytes of JSON
//   GET /api/stats/<tag>                                       what this lane served for tag T
//
// /api/stats is the server's count of a tag's requests: collections,
// compound documents, items answered 200 and 304, items pushed. A client
// reads it before and after a visit to know how many requests reached the
// server and how many were revalidated: Firefox's Resource Timing shows a
// 304 as a full transfer, so the browser cannot tell.
//
// cache: none (no-store, the default), fresh (private, max-age=600: a
// repeat visit takes it from the cache) or revalidate (private, no-cache:
// stored, but asked again with If-None-Match: a 304). The collection and
// the compound document are never cached. `tag` goes into every item URL,
// so each run has items of its own in the browser's cache.
const { InputError } = require('../../common/errors')
const { parseIntParam, delayOf, single } = require('../payload')
const { afterDelay } = require('../delay')
const { parseTag } = require('./push')

// minItemBytes: room for the longest links and fields; maxCompoundBytes: one
// compound document is built in memory (1,000 × 32 KiB at most).
const LIMITS = { maxCount: 1000, minItemBytes: 256, maxItemBytes: 64 * 1024, maxCompoundBytes: 32 * 1024 * 1024 }
// An item as a typical REST API returns one (a product, an article, a
// user): a few fields and some text, about half a kilobyte of JSON.
const DEFAULT_ITEM_BYTES = 512
const CACHE = {
  none: 'no-store',
  fresh: 'private, max-age=600',
  revalidate: 'private, no-cache'
}
const FILLER = 'lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor incididunt ut labore '

// The options every API route shares.
function parseApiQuery (query) {
  const size = single(query, 'size')
  const cache = single(query, 'cache') ?? 'none'
  if (!Object.hasOwn(CACHE, cache)) throw new InputError(`cache must be one of ${Object.keys(CACHE).join(', ')}; got "${cache}"`, { param: 'cache' })
  return {
    size: size === undefined ? DEFAULT_ITEM_BYTES : parseIntParam(size, { param: 'size', min: LIMITS.minItemBytes, max: LIMITS.maxItemBytes }),
    cache,
    tag: parseTag(query),
    delay: delayOf(query)
  }
}

function parseCount (query) {
  const count = single(query, 'count')
  if (count === undefined) throw new InputError(`count is required: the number of items, an integer 1…${LIMITS.maxCount}`, { param: 'count' })
  return parseIntParam(count, { param: 'count', min: 1, max: LIMITS.maxCount })
}

function itemPath (id, { size, cache, tag }) {
  return `/api/items/${id}?size=${size}&cache=${cache}${tag === undefined ? '' : `&tag=${tag}`}`
}

// Item `id` as an object whose JSON is exactly `size` bytes (the
// description is padded; size ≥ LIMITS.minItemBytes leaves room for it).
function item (id, opts) {
  const base = {
    _links: { self: { href: itemPath(id, opts) } },
    id,
    title: `Item ${id}`,
    price: Math.round((id * 7.31) % 1000 * 100) / 100,
    tags: ['h2bench', `group-${id % 10}`],
    description: ''
  }
  const pad = opts.size - Buffer.byteLength(JSON.stringify(base))
  base.description = FILLER.repeat(Math.ceil(pad / FILLER.length) + 1).slice(0, pad)
  return base
}

// Strong: an item's bytes depend only on its id, size, cache mode and tag.
const etagOf = (id, { size, cache, tag }) => `"item-${id}-${size}-${cache}-${tag ?? ''}"`

function itemHeaders (id, opts) {
  return { 'Content-Type': 'application/hal+json', ETag: etagOf(id, opts), 'Cache-Control': CACHE[opts.cache] }
}

// If-None-Match: "*", or a list of entity tags (weak comparison, RFC 9110 13.1.2).
function notModified (req, etag) {
  const header = req.headers['if-none-match']
  if (!header) return false
  if (header.trim() === '*') return true
  const bare = t => t.trim().replace(/^W\//, '')
  return header.split(',').some(t => bare(t) === bare(etag))
}

const json = value => Buffer.from(JSON.stringify(value))

const MAX_TAGS = 256 // counted tags per lane; the oldest is forgotten past this

// tag → { collection, compound, items: { 200, 304 }, pushed }; untagged requests are not counted.
function newTagCounts () {
  const tags = new Map()
  const empty = () => ({ collection: 0, compound: 0, items: { 200: 0, 304: 0 }, pushed: 0 })
  function of (tag) {
    let c = tags.get(tag)
    if (!c) {
      if (tags.size >= MAX_TAGS) tags.delete(tags.keys().next().value)
      c = empty()
      tags.set(tag, c)
    }
    return c
  }
  return {
    count (tag, what, status) {
      if (tag === undefined) return
      const c = of(tag)
      if (what === 'items') c.items[status]++
      else c[what]++
    },
    add (tag, what, n) {
      if (tag !== undefined) of(tag)[what] += n
    },
    get: tag => JSON.parse(JSON.stringify(tags.get(tag) || empty()))
  }
}

function apiRoutes (lane, pushStats, counts = newTagCounts()) {
  // A refused or reset push shows after the collection was sent: counted at /push/stats.
  function onPushError (err) {
    pushStats.errors++
    pushStats.lastError = err.message
  }

  function sendJson (res, body, headers) {
    res.set({ ...headers, 'Content-Length': String(body.length) })
    lane.sendBody(res, body)
  }

  function links (count, opts, self) {
    return { self: { href: self }, item: Array.from({ length: count }, (_, i) => ({ href: itemPath(i + 1, opts) })) }
  }

  // Prefer-Push: item (draft-pot-prefer-push): every item pushed with the
  // collection, where the lane pushes and the client accepts push.
  function pushItems (req, res, count, opts) {
    const prefer = String(req.headers['prefer-push'] || '').split(',').map(s => s.trim().toLowerCase())
    if (!prefer.includes('item')) return 'not asked (no Prefer-Push: item)'
    const support = lane.pushSupport(req, res)
    pushStats.pages++
    if (support === 'refused') {
      pushStats.refusedPages++
      return 'refused-by-client'
    }
    if (support !== 'enabled') {
      pushStats.unsupportedPages++
      return 'unsupported-by-lane'
    }
    for (let id = 1; id <= count; id++) {
      // res.getHeaders() names are lower case: the item's must be too, or both Cache-Controls go out.
      const own = Object.fromEntries(Object.entries(itemHeaders(id, opts)).map(([k, v]) => [k.toLowerCase(), v]))
      const headers = { ...res.getHeaders(), ...own }
      const body = json(item(id, opts))
      lane.push(req, res, { path: itemPath(id, opts), body, headers: { ...headers, 'content-length': String(body.length) } }, onPushError)
      pushStats.promised++
    }
    counts.add(opts.tag, 'pushed', count)
    return `promised=${count}`
  }

  function collection (req, res) {
    const count = parseCount(req.query)
    const opts = parseApiQuery(req.query)
    counts.count(opts.tag, 'collection')
    afterDelay(res, opts.delay, () => {
      const outcome = pushItems(req, res, count, opts)
      res.set('X-H2bench-Push', outcome)
      sendJson(res, json({ _links: links(count, opts, req.originalUrl), total: count }), { 'Content-Type': 'application/hal+json', 'Cache-Control': 'no-store' })
    })
  }

  function compound (req, res) {
    const count = parseCount(req.query)
    const opts = parseApiQuery(req.query)
    if (count * opts.size > LIMITS.maxCompoundBytes) {
      throw new InputError(`size: ${count} items of ${opts.size} bytes make a compound document above ${LIMITS.maxCompoundBytes / 1048576} MiB; ` +
        `allowed: count × size ≤ ${LIMITS.maxCompoundBytes} bytes (at ${count} items, size ≤ ${Math.floor(LIMITS.maxCompoundBytes / count)})`, { param: 'size' })
    }
    counts.count(opts.tag, 'compound')
    afterDelay(res, opts.delay, () => {
      const items = Array.from({ length: count }, (_, i) => item(i + 1, opts))
      sendJson(res, json({ _links: links(count, opts, req.originalUrl), total: count, _embedded: { item: items } }),
        { 'Content-Type': 'application/hal+json', 'Cache-Control': 'no-store' })
    })
  }

  function one (req, res) {
    const id = parseIntParam(req.params.id, { param: 'id', min: 1, max: LIMITS.maxCount })
    const opts = parseApiQuery(req.query)
    afterDelay(res, opts.delay, () => {
      const headers = itemHeaders(id, opts)
      const fresh = notModified(req, headers.ETag)
      counts.count(opts.tag, 'items', fresh ? 304 : 200)
      if (fresh) {
        res.set({ ETag: headers.ETag, 'Cache-Control': headers['Cache-Control'] })
        return res.status(304).end()
      }
      sendJson(res, json(item(id, opts)), headers)
    })
  }

  function stats (req, res) {
    const tag = parseTag({ tag: req.params.tag })
    res.json({ lane: lane.name, tag, ...counts.get(tag) })
  }

  // CORS preflight: a page on another origin (the h2bench page) sends
  // Prefer-Push, which is not a CORS-safelisted header. Max-Age lets the
  // browser keep the answer for the URL (Chromium caps it at 2 hours).
  function preflight (req, res) {
    res.set({
      'Access-Control-Allow-Methods': 'GET',
      'Access-Control-Allow-Headers': 'Prefer-Push',
      'Access-Control-Max-Age': '600'
    })
    res.status(204).end()
  }

  return { collection, compound, one, stats, preflight }
}

module.exports = { apiRoutes, newTagCounts, item, itemPath, etagOf, notModified, parseApiQuery, LIMITS, DEFAULT_ITEM_BYTES, CACHE }

'use strict'

// Which requests of a load (HAR entries) failed below HTTP, and which of those the user said to expect: one rule
// for the site and replay experiments' loads (bench/cells/site-url.js), `record`'s recording (bench/record/) and
// the replay's refusal of a recording with failures (server/replay/archive.js).
//
// A request failed when the browser got no response for it: a network, TLS or protocol error (the HAR's `_error`,
// Chromium's net::ERR_…, Firefox's NS_ERROR_…), or no status at all. An HTTP status, 404 or 500 included, is an
// answer and no failure here: the site gave it. A request the page itself gave up is not the network's failure
// either, and is counted apart: Chromium's net::ERR_ABORTED (a navigation away, an image whose src changed, a
// preload dropped) and Firefox's NS_BINDING_ABORTED. A request still in flight when the load was over
// (`_incomplete`) did not fail: it is not counted.
//
// `--allow-failed <pattern>` names the failures a user expects (an ad server the staging network blocks, a beacon
// to a host that is down): a pattern is matched against the request's whole URL, `*` standing for any run of
// characters (https://ads.example/* , */beacon?*); a pattern without `*` must equal the URL.

const ABORTED = /^(net::ERR_ABORTED|NS_BINDING_ABORTED)\b/
const FIRST_NAMED = 3 // the failures a problem names, the first in the load's order

const originOf = url => {
  try {
    return new URL(url).origin
  } catch {
    return url
  }
}

// An entry's failure: its error text, or null (answered, aborted by the page, or still in flight).
function failureOf (entry) {
  const error = entry._error ? String(entry._error) : null
  if (error) return ABORTED.test(error) ? null : error
  if (entry._incomplete) return null
  return entry.response && entry.response.status > 0 ? null : 'no response'
}

const abortedEntry = entry => Boolean(entry._error) && ABORTED.test(String(entry._error))

// A pattern's text → a RegExp over whole URLs; a TypeError for an empty one.
function patternOf (text) {
  const s = String(text)
  if (!s.trim()) throw new TypeError('a pattern is a URL, * for any run of characters (https://ads.example/*); got an empty one')
  const body = s.split('*').map(part => part.replace(/[.+?^${}()|[\]\\/]/g, '\\$&')).join('.*')
  return new RegExp(`^${body}$`)
}

// `patterns` (texts) → url => the first pattern matching it, or null.
function allowList (patterns = []) {
  const compiled = patterns.map(p => ({ text: p, re: patternOf(p) }))
  return url => {
    const hit = compiled.find(c => c.re.test(url))
    return hit ? hit.text : null
  }
}

// HAR entries → { failed: [{ url, origin, error }] the failures not allowed, allowed: the same for those a pattern
// matched, aborted: how many the page gave up }. `allow`: allowList's.
function failuresOf (entries, allow = () => null) {
  const failed = []
  const allowed = []
  let aborted = 0
  for (const e of entries) {
    if (abortedEntry(e)) { aborted++; continue }
    const error = failureOf(e)
    if (!error) continue
    const f = { url: e.request.url, origin: originOf(e.request.url), error }
    if (allow(f.url)) allowed.push(f)
    else failed.push(f)
  }
  return { failed, allowed, aborted }
}

// The origins of `failures` with their counts, most first: [{ origin, failed, errors: [distinct error texts] }].
function failedOrigins (failures) {
  const by = new Map()
  for (const f of failures) {
    const o = by.get(f.origin) || { origin: f.origin, failed: 0, errors: [] }
    o.failed++
    if (!o.errors.includes(f.error)) o.errors.push(f.error)
    by.set(f.origin, o)
  }
  return [...by.values()].sort((a, b) => b.failed - a.failed || a.origin.localeCompare(b.origin))
}

// "3 of 40 requests failed below HTTP (https://b.example/x.png: net::ERR_CERT_AUTHORITY_INVALID; …)": a load's
// problem, or null. `failed`: the failures, or the first of them when `count` says how many there were.
function failuresProblem (failed, requests, count = failed.length) {
  if (!count) return null
  const named = failed.slice(0, FIRST_NAMED).map(f => `${f.url}: ${f.error}`).join('; ')
  return `${count} of ${requests} requests failed below HTTP (${named}${count > Math.min(failed.length, FIRST_NAMED) ? '; …' : ''}); ` +
    'give --allow-failed <url pattern> for failures you expect'
}

module.exports = { failureOf, failuresOf, failedOrigins, failuresProblem, allowList, patternOf, abortedEntry, FIRST_NAMED }

'use strict'

// Time as the site gave it. A recorded response carries the time it was made
// (Date) and times relative to it: Expires, and Last-Modified, from which a
// cache without an explicit lifetime takes a heuristic one (a tenth of
// Date − Last-Modified, RFC 9111 §4.2.2; Chromium and Firefox both do). Sent
// again as recorded, a response recorded an hour ago is an hour old when it
// arrives: whatever was fresh for less than that (a short max-age, an Expires,
// a heuristic lifetime) is stale before the browser has stored it, and a
// repeat view fetches what the live site's repeat view took from its cache.
// So each answer moves them to its own time, as Web Page Replay does
// (catapult, web_page_replay_go/src/webpagereplay/proxy.go, updateDates and
// updateDate: Date set to now, Last-Modified and Expires moved by as much as
// the Date was, none moved when the recorded Date does not parse):
//   - Date becomes now (whole seconds, as HTTP-dates are);
//   - Expires and Last-Modified move by as much, so Expires − Date and
//     Date − Last-Modified are as recorded;
//   - Age stays as recorded (the age the response had when it arrived; with
//     Date now, a cache computes the same age from it as it did live);
//   - a value that is no HTTP-date stays as it is (Expires: 0 or -1 keep
//     meaning "already expired", RFC 9111 §5.3), and so does one the shift
//     would carry out of four-digit years;
//   - a response recorded without a Date gets none (the replay adds nothing
//     the recording lacked; a cache then records the time it received the
//     response as its Date, RFC 9110 §6.6.1): its Expires and Last-Modified
//     move from the entry's start (HAR startedDateTime) instead.
// Unlike Web Page Replay (which serves the recorded response whatever the
// request's conditions), a conditional request is answered as an origin
// server would (RFC 9110 §13.2.2): If-None-Match by weak comparison against
// the recorded ETag, else If-Modified-Since against the Last-Modified; when
// the condition is false a GET or HEAD of a recorded 2xx gets a 304 with
// the headers RFC 9110 §15.4.5 names and no body. Since Last-Modified moves
// with each answer's Date, the one a browser sends back in If-Modified-Since
// is a little older than the one the same response would carry now, though
// the bytes are the same: server/replay/app.js therefore compares it with the
// Last-Modified as the replay first gave it (shifted to the replay's start),
// the earliest it can have handed out.

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec']
// IMF-fixdate "Sun, 06 Nov 1994 08:49:37 GMT" and RFC 850 "Sunday, 06-Nov-94 08:49:37 GMT" (RFC 9110 §5.6.7),
// leniently: weekday optional, a one-digit day, a two- or four-digit year, GMT/UTC/UT/Z/±hhmm or no zone.
const FIXDATE = /^(?:[a-z]{3,9},?\s+)?(\d{1,2})[\s-]+([a-z]{3})[\s-]+(\d{2}|\d{4})\s+(\d{1,2}):(\d{2}):(\d{2})(?:\s+(gmt|utc|ut|z|[+-]\d{4}))?$/i
// asctime "Sun Nov  6 08:49:37 1994".
const ASCTIME = /^(?:[a-z]{3,9}\s+)?([a-z]{3})\s+(\d{1,2})\s+(\d{1,2}):(\d{2}):(\d{2})\s+(\d{4})$/i

// An RFC 850 two-digit year: the year of `now`'s century, unless that is more than 50 years ahead: then the century before (RFC 9110 §5.6.7).
function fullYear (digits, now) {
  if (digits.length === 4) return Number(digits)
  const current = new Date(now).getUTCFullYear()
  const year = current - (current % 100) + Number(digits)
  return year > current + 50 ? year - 100 : year
}

// An HTTP-date → ms since the epoch, or null when `value` is none (RFC 9110 §5.6.7). `now` reads two-digit years.
function parseHttpDate (value, now = Date.now()) {
  if (typeof value !== 'string') return null
  const v = value.trim()
  let day, month, year, hour, minute, second, zone
  let m = FIXDATE.exec(v)
  if (m) [, day, month, year, hour, minute, second, zone] = m
  else if ((m = ASCTIME.exec(v))) [, month, day, hour, minute, second, year] = m
  else return null
  const mon = MONTHS.indexOf(month.toLowerCase())
  const d = Number(day)
  const y = fullYear(year, now)
  const [hh, mm, ss] = [Number(hour), Number(minute), Math.min(59, Number(second))] // a leap second read as :59
  if (mon < 0 || hh > 23 || mm > 59 || Number(second) > 60) return null
  const at = new Date(0)
  at.setUTCFullYear(y, mon, d) // not Date.UTC, which reads years 0–99 as 1900–1999
  at.setUTCHours(hh, mm, ss, 0)
  if (at.getUTCDate() !== d || at.getUTCMonth() !== mon) return null // no 31 Feb
  let ms = at.getTime()
  if (zone && /^[+-]\d{4}$/.test(zone)) {
    const minutes = Number(zone.slice(1, 3)) * 60 + Number(zone.slice(3))
    ms -= (zone[0] === '+' ? 1 : -1) * minutes * 60000
  }
  return ms
}

// ms → IMF-fixdate ("Tue, 01 Dec 2026 22:59:08 GMT"), or null outside four-digit years (no HTTP-date writes those).
function formatHttpDate (ms) {
  const year = new Date(ms).getUTCFullYear()
  if (!Number.isFinite(ms) || year < 1000 || year > 9999) return null
  return new Date(ms).toUTCString()
}

const wholeSecond = ms => Math.floor(ms / 1000) * 1000
const named = name => ([n]) => n.toLowerCase() === name

// When the recorded response was made: its first valid Date → { ms, from: 'date' }; else the entry's start
// `startedMs` (whole seconds) → { ms, from: 'started' }; else null.
function recordedTimeOf (headers, startedMs) {
  for (const [, value] of headers.filter(named('date'))) {
    const ms = parseHttpDate(value)
    if (ms !== null) return { ms, from: 'date' }
  }
  return Number.isFinite(startedMs) ? { ms: wholeSecond(startedMs), from: 'started' } : null
}

// The recorded [[name, value]] as answered at `now` → { headers (a new list, same names and order), shiftMs (how
// far the dates moved), from ('date' | 'started' | null: nothing to measure from, nothing moved) }.
// `startedMs`: the entry's start (HAR startedDateTime), for a response recorded without a valid Date.
function shiftedHeaders (headers, { startedMs = null, now = Date.now() } = {}) {
  const recorded = recordedTimeOf(headers, startedMs)
  if (!recorded) return { headers: headers.map(([n, v]) => [n, v]), shiftMs: 0, from: null }
  const nowS = wholeSecond(now)
  const shiftMs = nowS - recorded.ms
  const moved = value => {
    const ms = parseHttpDate(value)
    return ms === null ? value : formatHttpDate(ms + shiftMs) || value
  }
  const out = headers.map(([name, value]) => {
    const key = name.toLowerCase()
    if (key === 'date') return [name, parseHttpDate(value) === null ? value : formatHttpDate(nowS) || value]
    if (key === 'expires' || key === 'last-modified') return [name, moved(value)]
    return [name, value]
  })
  return { headers: out, shiftMs, from: recorded.from }
}

// The first value of header `name` in [[name, value]], or null.
const headerOf = (headers, name) => { const h = headers.find(named(name)); return h ? h[1] : null }
// When a representation was last modified by its headers: its first Last-Modified, or null.
const lastModifiedOf = headers => parseHttpDate(headerOf(headers, 'last-modified'))
// A request header as Node gives it (a string, or a list for a repeated one), as one string, or null.
const requestHeader = (request, name) => {
  const v = request[name]
  return v === undefined || v === null ? null : [].concat(v).join(', ')
}

// The members of an If-None-Match (or ETag) value: entity-tags split at commas outside quotes (a comma may sit
// inside an opaque tag), blanks dropped. Unquoted members (servers send them, browsers echo them) kept as they are.
function entityTags (value) {
  const out = []
  let current = ''
  let quoted = false
  for (const ch of [].concat(value).join(', ')) {
    if (ch === '"') quoted = !quoted
    if (ch === ',' && !quoted) { out.push(current.trim()); current = '' } else current += ch
  }
  out.push(current.trim())
  return out.filter(Boolean)
}

// Weak comparison (RFC 9110 §8.8.3.2): the opaque tags equal, W/ on either side or none.
const opaque = tag => tag.startsWith('W/') ? tag.slice(2) : tag
// Whether If-None-Match `value` holds against the recorded `etag` (RFC 9110 §13.1.2): false when any member
// matches it weakly, or for "*" (a current representation exists: the recorded one).
function noneMatch (value, etag) {
  const tags = entityTags(value)
  if (tags.includes('*')) return false
  if (!etag) return true
  return !tags.some(t => opaque(t) === opaque(etag.trim()))
}

// Whether a request's conditions make its answer a 304 (RFC 9110 §13.2.2, the steps for GET and HEAD): → 'etag'
// (If-None-Match matched), 'date' (not modified since If-Modified-Since; only without If-None-Match), or null
// (answer the response). `request`: the request's headers (lower-case names, as Node gives them); `response`:
// { status, headers } as it would be answered (shifted); `lastModifiedMs`: when the representation was last
// modified (default: its Last-Modified; null: none). Conditions of any other method, or on a recorded status
// other than 2xx, are not evaluated (RFC 9110 §13.2.1): the recorded response is answered.
function notModified ({ method, request, response, lastModifiedMs }) {
  const m = String(method).toUpperCase()
  if ((m !== 'GET' && m !== 'HEAD') || !(response.status >= 200 && response.status < 300)) return null
  const inm = requestHeader(request, 'if-none-match')
  if (inm !== null) return noneMatch(inm, headerOf(response.headers, 'etag')) ? null : 'etag'
  const ims = parseHttpDate(requestHeader(request, 'if-modified-since'))
  if (ims === null) return null // absent or not an HTTP-date: ignored (RFC 9110 §13.1.3)
  const modified = lastModifiedMs === undefined ? lastModifiedOf(response.headers) : lastModifiedMs
  if (modified === null) return null // no Last-Modified: nothing to compare with
  return modified <= ims ? 'date' : null
}

// What a 304 carries of the 200 it stands for (RFC 9110 §15.4.5): Content-Location, Date, ETag, Vary,
// Cache-Control and Expires; and Last-Modified where there is no ETag (metadata "for the purpose of guiding
// cache updates", the RFC's own example). Nothing of the body (type, coding, length), no Set-Cookie.
const NOT_MODIFIED_KEPT = new Set(['content-location', 'date', 'etag', 'vary', 'cache-control', 'expires'])
function notModifiedHeaders (headers) {
  const withEtag = headers.some(named('etag'))
  return headers.filter(([n]) => NOT_MODIFIED_KEPT.has(n.toLowerCase()) || (!withEtag && n.toLowerCase() === 'last-modified'))
}

module.exports = {
  parseHttpDate, formatHttpDate, recordedTimeOf, shiftedHeaders, lastModifiedOf, entityTags, noneMatch, notModified, notModifiedHeaders, NOT_MODIFIED_KEPT
}

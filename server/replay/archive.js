'use strict'

// A HAR turned into what the replay serves: its origins (from the recorder's
// log._h2bench, or derived from the entries of a HAR that DevTools saved, each
// with the sentences saying what was assumed), and its entries in recorded
// order, each with its servable response (server/replay/response.js), the
// server time to wait before answering and when it was asked for (the dates
// the replay moves to each answer's time: server/replay/freshness.js).
// server/replay/match.js finds an entry for a request;
// server/replay/origins.js plans addresses and certificates from the origins.
const fs = require('node:fs')
const { parseHar, checkHar, HarError } = require('./har-check')
const { servableResponse } = require('./response')

// 'https://host[:port]' (port omitted when 443), lower-case host: URL's own origin.
const originOf = url => new URL(url).origin
const hostOf = origin => new URL(origin).hostname.replace(/^\[(.*)\]$/, '$1')
const portOf = origin => Number(new URL(origin).port) || 443
const unbracket = ip => String(ip || '').replace(/^\[(.*)\]$/, '$1') || null
// "h3", "h2", "http/2.0", "HTTP/1.1" → the ALPN word, or null.
function alpnOf (httpVersion) {
  const v = String(httpVersion || '').toLowerCase()
  if (v === 'h3' || v.startsWith('http/3') || v.startsWith('h3-')) return 'h3'
  if (v === 'h2' || v.startsWith('http/2')) return 'h2'
  if (v === 'http/1.1' || v === 'http/1.0') return v
  return null
}
// The TCP connect time of one HAR entry (HAR's connect includes its ssl part), or null.
function connectMs (timings) {
  if (!timings || !(timings.connect > 0)) return null
  return Math.max(0, timings.connect - (timings.ssl > 0 ? timings.ssl : 0))
}

// An origin the recorder did not describe: derived from its entries, saying what was assumed.
function deriveOrigin (origin, entries, why) {
  const host = hostOf(origin)
  const assumed = [why]
  const address = entries.map(e => unbracket(e.serverIPAddress)).find(Boolean) || null
  if (!address) assumed.push('no serverIPAddress recorded: given a replay address of its own')
  assumed.push(`its certificate assumed to name only ${host}, and not shared with any other origin`)
  const rtts = entries.map(e => connectMs(e.timings)).filter(v => v !== null)
  const rttMs = rtts.length ? Math.min(...rtts) : null
  assumed.push(rttMs === null
    ? 'no connect time recorded: server time taken as timings.wait whole'
    : `server time taken as timings.wait less its smallest TCP connect time, ${round(rttMs)} ms`)
  const protocol = entries.map(e => alpnOf(e.response.httpVersion)).find(Boolean) || null
  return { origin, host, port: portOf(origin), address, certNames: [host], certId: null, rttMs, protocol, derived: true, assumed }
}

// Whether certificate name `name` (maybe a wildcard: one label) covers `host`.
const covers = (name, host) => name === host ||
  (name.startsWith('*.') && host.endsWith(name.slice(1)) && host.split('.').length === name.split('.').length)

const round = v => Math.round(v * 10) / 10

// A recorder's origin record, completed where it lacks something (and saying so).
function recordedOrigin (o) {
  const origin = originOf(o.origin)
  const host = hostOf(origin)
  const assumed = []
  const certNames = [...new Set(o.certNames.map(n => String(n).toLowerCase()))]
  if (!certNames.some(n => covers(n, host))) {
    certNames.push(host)
    assumed.push(`its recorded certificate names did not cover ${host}: added`)
  }
  if (!o.certId) assumed.push('no certificate id recorded: given a certificate of its own')
  if (!o.address) assumed.push('no address recorded: given a replay address of its own')
  return {
    origin, host, port: portOf(origin), address: unbracket(o.address), certNames, certId: o.certId || null,
    rttMs: typeof o.rttMs === 'number' ? o.rttMs : null, protocol: o.protocol || null, derived: false, assumed
  }
}

// The server time to wait for one entry: the recorder's, or (DevTools) timings.wait less the origin's connect time.
function serverTimeOf (entry, origin) {
  if (entry._h2bench) return entry._h2bench.serverTimeMs === null ? 0 : Math.max(0, entry._h2bench.serverTimeMs)
  const wait = entry.timings && entry.timings.wait > 0 ? entry.timings.wait : 0
  return Math.max(0, wait - (origin.rttMs || 0))
}

// A checked HAR object → the archive. `file` names it in errors and notes.
function archiveFromHar (har, { file = 'the HAR' } = {}) {
  checkHar(har, file)
  const own = har.log._h2bench || null
  const skipped = []
  const usable = []
  har.log.entries.forEach((e, index) => {
    const url = new URL(e.request.url)
    if (url.protocol !== 'https:') return skipped.push({ index, url: e.request.url, why: `${url.protocol} is not replayed (https only)` })
    if (e.response.status < 200 || e.response.status > 599) {
      const why = e.response.status < 100 || e.response.status > 599 ? 'the browser got no response' : 'an informational or upgrade response is not replayed'
      return skipped.push({ index, url: e.request.url, why: `status ${e.response.status}: ${why}` })
    }
    usable.push({ e, index, url, origin: url.origin })
  })
  if (!usable.length) throw new HarError(`${file}: log.entries has no https entry with a response: nothing to replay`)
  // Recorded order: by start time, ties (and entries without one) in file order.
  const started = x => Date.parse(x.e.startedDateTime)
  usable.sort((a, b) => (started(a) - started(b)) || (a.index - b.index))

  const byOrigin = new Map()
  for (const u of usable) {
    if (!byOrigin.has(u.origin)) byOrigin.set(u.origin, [])
    byOrigin.get(u.origin).push(u.e)
  }
  const recorded = new Map((own ? own.origins : []).map(o => { const r = recordedOrigin(o); return [r.origin, r] }))
  const origins = [...byOrigin].map(([origin, entries]) => recorded.get(origin) ||
    deriveOrigin(origin, entries, own ? 'not among log._h2bench.origins: derived from its entries' : 'derived from its entries (a HAR without h2bench\'s fields)'))
  const originMap = new Map(origins.map(o => [o.origin, o]))

  const entries = usable.map(({ e, index, url, origin }) => {
    const response = servableResponse(e.response, { bodyComplete: e._h2bench ? e._h2bench.bodyComplete : undefined })
    return {
      index,
      method: e.request.method.toUpperCase(),
      origin,
      path: url.pathname + url.search,
      url: url.href,
      serverTimeMs: serverTimeOf(e, originMap.get(origin)),
      // When it was asked for (ms), for a response recorded without a Date: server/replay/freshness.js moves its
      // Expires and Last-Modified from here.
      startedMs: Number.isFinite(Date.parse(e.startedDateTime)) ? Date.parse(e.startedDateTime) : null,
      response
    }
  })
  const assumed = own ? [] : ['no log._h2bench: origins, addresses, certificates and server times derived from the entries (see each origin)']
  const summary = {
    entries: har.log.entries.length,
    served: entries.length,
    skipped,
    bodiless: entries.filter(x => x.response.bodiless).length,
    reencoded: entries.filter(x => x.response.encoding && !x.response.encoding.startsWith('identity')).length,
    unknownEncoding: entries.filter(x => x.response.encoding === 'identity (unknown)').length,
    origins: origins.length
  }
  return {
    file,
    source: own ? 'h2bench' : 'devtools',
    recorder: own ? `${own.recorder || 'h2bench record'} ${own.version}` : (har.log.creator && har.log.creator.name) || null,
    browser: own ? own.browser || null : (har.log.browser && har.log.browser.name) || null,
    origins,
    entries,
    assumed,
    summary
  }
}

// Reads and checks `file` → the archive (a HarError naming the file and the field when it cannot be replayed).
function readArchive (file) {
  let text
  try {
    text = fs.readFileSync(file, 'utf8')
  } catch (err) {
    throw new HarError(`cannot read ${file} (${err.code || err.message})`)
  }
  return archiveFromHar(parseHar(text, file), { file })
}

module.exports = { readArchive, archiveFromHar, alpnOf, connectMs, originOf, HarError }

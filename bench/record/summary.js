'use strict'

// What `npm run bench -- record` prints once the HAR is written: its pages, entries and total body
// bytes, each origin with its address, certificate names and id, round trip and protocol, and the
// entries without a body (by URL). A function of the recorded HAR (./record.js), so its test needs no
// browser.

const { failuresOf, failedOrigins } = require('../../common/failed-requests')

const MAX_NAMED = 10 // entries without a body named one by one; the rest counted

const bodyBytes = e => {
  const c = e.response.content
  if (c.text === undefined) return 0
  return c.encoding === 'base64' ? Buffer.from(c.text, 'base64').length : Buffer.byteLength(c.text, 'utf8')
}

// → the lines (no trailing newline).
function summaryLines (har, file) {
  const { pages, entries, _h2bench: h } = har.log
  const origins = h ? h.origins : []
  const total = entries.reduce((n, e) => n + bodyBytes(e), 0)
  const without = entries.filter(e => !(e._h2bench && e._h2bench.bodyComplete))
  const lines = [
    `recorded ${file}: ${pages.length} page${pages.length === 1 ? '' : 's'}, ${entries.length} entries, ${total} body bytes, ${origins.length} origin${origins.length === 1 ? '' : 's'}`
  ]
  for (const o of origins) {
    const rtt = o.rttMs === null ? 'round trip unknown' : `round trip ${o.rttMs} ms${o.rttFrom === 'tcp-connect' ? ' (TCP connects from here)' : ''}`
    lines.push(`  ${o.origin}  ${o.address || 'no address'}  ${o.protocol || '?'}  certificate ${o.certNames.length ? o.certNames.join(', ') : '(no names)'}` +
      `${o.certId ? ` [${o.certId.slice(0, 12)}]` : ''}  ${rtt}`)
  }
  const shared = new Map()
  for (const o of origins) if (o.certId) shared.set(o.certId, [...(shared.get(o.certId) || []), o.origin])
  for (const list of shared.values()) if (list.length > 1) lines.push(`  one certificate for ${list.join(', ')}`)
  if (!without.length) lines.push('every entry has its body')
  else {
    lines.push(`${without.length} entr${without.length === 1 ? 'y' : 'ies'} without a (complete) body:`)
    for (const e of without.slice(0, MAX_NAMED)) {
      const why = e.response.status === 0 ? (e._error || 'failed') : e.response.redirectURL ? `redirect ${e.response.status}` : `status ${e.response.status}`
      lines.push(`  ${e.request.method} ${e.request.url} (${why})`)
    }
    if (without.length > MAX_NAMED) lines.push(`  … and ${without.length - MAX_NAMED} more`)
  }
  // Requests that failed below HTTP (common/failed-requests.js): the recording is not the whole site, and the
  // replay refuses it unless --allow-failed expects each.
  const { failed } = failuresOf(entries)
  if (failed.length) {
    lines.push(`${failed.length} request${failed.length === 1 ? '' : 's'} failed below HTTP (a network, TLS or protocol error), so this recording lacks ${failed.length === 1 ? 'its response' : 'their responses'}; ` +
      'replay refuses it unless --allow-failed <url pattern> expects each:')
    for (const o of failedOrigins(failed)) lines.push(`  ${o.origin}: ${o.failed} (${o.errors.join(', ')})`)
  }
  return lines
}

module.exports = { summaryLines, bodyBytes }

'use strict'

// The replay's early-hints variant (server/replay/app.js): which of a
// recorded response's Link header values a 103 Early Hints (RFC 8297) may
// announce before the recorded server time, and sending it. Only links with
// rel preload, modulepreload or preconnect are hinted (what Chromium acts on
// in a 103); the final response still carries its recorded headers whole.
// A value Node refuses (res.writeEarlyHints checks each link's syntax) is
// left out, the others sent.

const HINTED = new Set(['preload', 'modulepreload', 'preconnect'])
// The syntax Node's writeEarlyHints takes for one link (lib/internal/validators.js validateLinkHeaderValue).
const NODE_LINK = /^<[^>]*>(?:\s*;\s*[^;"\s]+(?:=(")?[^;"\s]*\1)?)*$/

// One Link header value → its links (RFC 8288: comma-separated, commas inside <…> or "…" kept).
function splitLinks (value) {
  const out = []
  let current = ''
  let inUri = false
  let quoted = false
  for (let i = 0; i < value.length; i++) {
    const c = value[i]
    if (quoted && c === '\\') { current += c + (value[++i] || ''); continue }
    if (!quoted && c === '<') inUri = true
    else if (!quoted && c === '>') inUri = false
    else if (!inUri && c === '"') quoted = !quoted
    if (c === ',' && !inUri && !quoted) { out.push(current.trim()); current = ''; continue }
    current += c
  }
  out.push(current.trim())
  return out.filter(l => l.startsWith('<'))
}

// A link's rel values, lower-case (rel=preload, rel="preload", rel="modulepreload stylesheet").
function relsOf (link) {
  const params = link.slice(link.indexOf('>') + 1)
  const m = /;\s*rel\s*=\s*(?:"([^"]*)"|([^\s;,]+))/i.exec(params)
  return m ? (m[1] !== undefined ? m[1] : m[2]).toLowerCase().split(/\s+/).filter(Boolean) : []
}

// [[name, value]] of a recorded response → the Link values to hint, in recorded order.
function hintLinks (headers) {
  const links = []
  for (const [name, value] of headers) {
    if (String(name).toLowerCase() !== 'link') continue
    for (const link of splitLinks(String(value))) if (relsOf(link).some(r => HINTED.has(r))) links.push(link)
  }
  return links
}

// Sends a 103 with `links` on `res` (node:https, node:http2's compatibility API, the edge's upstream) → how many
// links it carried (0: none sent, nothing to hint or every link refused).
function sendEarlyHints (res, links) {
  if (!links.length || typeof res.writeEarlyHints !== 'function') return 0
  try {
    return res.writeEarlyHints({ link: links }) === false ? 0 : links.length // node:http2 returns false when it sent none
  } catch {
    // One bad link makes Node refuse them all: the ones it takes alone.
  }
  const good = links.filter(link => NODE_LINK.test(link))
  if (!good.length) return 0
  try {
    return res.writeEarlyHints({ link: good }) === false ? 0 : good.length
  } catch {
    return 0
  }
}

module.exports = { hintLinks, sendEarlyHints, splitLinks, relsOf, HINTED }

'use strict'

// Which recorded entry answers a request (method, origin, path with query):
// the same key exactly; else the same path with another query, the entry
// sharing most query parameters (name and value) winning, as WebPageReplay's
// fuzzy rule does; else none. Several entries of one key answer in recorded
// order, then the last of them again. A HEAD that was never recorded is
// answered from its GET (without the body). Each matcher keeps its own
// order, so two replays of one archive do not share it.

const keyOf = (method, origin, path) => `${method} ${origin} ${path}`
// The path without its query, and its query parameters as "name=value" strings.
function split (path) {
  const q = path.indexOf('?')
  return q < 0 ? { bare: path, params: [] } : { bare: path.slice(0, q), params: [...new URLSearchParams(path.slice(q + 1))].map(([n, v]) => `${n}=${v}`) }
}
// How many parameters two lists share (a parameter repeated counts as often as both have it).
function shared (a, b) {
  const left = new Map()
  for (const p of a) left.set(p, (left.get(p) || 0) + 1)
  let n = 0
  for (const p of b) if (left.get(p) > 0) { left.set(p, left.get(p) - 1); n++ }
  return n
}
// A request path as the archive writes its paths: percent-encoding as URL would write it, no fragment.
function normalPath (path) {
  try {
    const u = new URL(path, 'https://replay.invalid')
    return u.pathname + u.search
  } catch {
    return path
  }
}

function createMatcher (archive) {
  const byKey = new Map() // key → entries in recorded order
  const byBare = new Map() // method origin bare-path → [{ key, params }] in recorded order
  for (const e of archive.entries) {
    const key = keyOf(e.method, e.origin, e.path)
    if (!byKey.has(key)) {
      byKey.set(key, [])
      const { bare, params } = split(e.path)
      const bareKey = keyOf(e.method, e.origin, bare)
      if (!byBare.has(bareKey)) byBare.set(bareKey, [])
      byBare.get(bareKey).push({ key, params })
    }
    byKey.get(key).push(e)
  }
  const served = new Map() // key → how many answered so far
  const next = key => {
    const list = byKey.get(key)
    const n = served.get(key) || 0
    served.set(key, n + 1)
    return list[Math.min(n, list.length - 1)]
  }
  // → { entry, how: 'exact'|'fuzzy' } or null
  function find (method, origin, path) {
    const key = keyOf(method, origin, path)
    if (byKey.has(key)) return { entry: next(key), how: 'exact' }
    const { bare, params } = split(path)
    const candidates = byBare.get(keyOf(method, origin, bare))
    if (!candidates) return null
    let best = candidates[0]
    let bestScore = shared(best.params, params)
    for (const c of candidates.slice(1)) {
      const score = shared(c.params, params)
      if (score > bestScore) { best = c; bestScore = score }
    }
    return { entry: next(best.key), how: 'fuzzy' }
  }
  return {
    match (method, origin, path) {
      const m = String(method).toUpperCase()
      const p = normalPath(path)
      return find(m, origin, p) || (m === 'HEAD' ? find('GET', origin, p) : null)
    }
  }
}

module.exports = { createMatcher, normalPath }

// The Network panel's "Add an effect" menu: a key of the link spec (GET
// /link.json's `keys`, from link/spec-keys.js, the list h2bench-link --list
// prints) put into the spec field as its example item. The items an example
// needs (an AQM needs a rate to queue at) come along when the spec, its
// preset's items included, has none of them; what it cannot stand beside
// (random loss beside bursty loss) is set off; an item of the same key is
// replaced, not repeated (the server refuses a key given twice).
// UMD: `require('client/js/link-effects')` in the tests, `window.h2benchLinkEffects` in the page.
(function (root, factory) {
  if (typeof module === 'object' && module.exports) module.exports = factory()
  else root.h2benchLinkEffects = factory()
}(typeof self !== 'undefined' ? self : this, function () {
  'use strict'

  function items (text) {
    return String(text || '').split(',').map(function (s) { return s.trim() }).filter(Boolean)
  }

  function keyOf (item) {
    return item.split('=')[0].trim().toLowerCase()
  }

  // rtt and delay set the same thing (link/spec.js refuses both at once): one replaces the other.
  function slotOf (item) {
    const key = keyOf(item)
    return key === 'rtt' ? 'delay' : key
  }

  // As link/presets.js's slugify: "Regular 3G" → "regular-3g".
  function slugify (text) {
    return String(text).toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '')
  }

  // The preset a spec starts with (its first item has no "="), or null.
  function presetOf (first, presets) {
    if (!first || first.indexOf('=') >= 0) return null
    const slug = slugify(first)
    return (presets || []).find(function (p) { return p.slug === slug || slugify(p.name) === slug }) || null
  }

  // `text` with `key`'s example (and what it needs) in it.
  function addEffect (text, key, presets) {
    const out = items(text)
    const preset = presetOf(out[0], presets)
    const have = out.concat(preset ? items(preset.spec) : []).map(keyOf)
    const put = function (item) {
      const at = out.findIndex(function (i) { return i.indexOf('=') >= 0 && slotOf(i) === slotOf(item) })
      if (at >= 0) out[at] = item
      else out.push(item)
      have.push(keyOf(item))
    }
    const has = function (keys) { return keys.some(function (k) { return have.indexOf(k) >= 0 }) }
    ;(key.needs || []).forEach(function (need) {
      if (!has(need.keys)) put(need.item)
    })
    // What the example cannot stand beside (a direction takes one loss model): set off, the preset's too.
    ;(key.clears || []).forEach(function (clear) {
      if (has(clear.keys)) put(clear.item)
    })
    put(key.example)
    return out.join(',')
  }

  return { addEffect: addEffect, presetOf: presetOf }
}))

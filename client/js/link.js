// The Network panel: which network the lanes are behind, as the page server
// says (window.h2bench.link(): GET /link.json), and, when a packet-level link
// is active, a way to change it while the page runs (h2bench.setLink: POST
// /link). Locked while a run is in progress: each result records the link
// its run started on. Its "Add an effect" menu lists the spec's keys as the
// server gives them (link/spec-keys.js, what h2bench-link --list prints) and
// puts the chosen one's example into the spec (client/js/link-effects.js).
(function () {
  'use strict'

  const api = window.h2bench
  const effects = window.h2benchLinkEffects
  // link/presets.js's groups, in the order the server lists them.
  const GROUPS = {
    'devtools-2016': 'DevTools 2016 presets (as packets)',
    'devtools-current': 'DevTools today (as packets)',
    'quic-article': 'QUIC article (seed 004) impairments',
    basic: 'Basic'
  }
  const CUSTOM = '' // the menu's value when the spec is not just a preset
  const CHOOSE = '' // the effect menu's resting value
  const LOCKED = 'Locked while a run is in progress: each result records the link its run started on.'

  let presets = []
  let keys = []
  let running = false
  let changing = false

  function $id (id) { return document.getElementById(id) }

  function status (text) {
    $id('link-status').textContent = text
  }

  function showError (text) {
    $id('link-error').textContent = text
    $id('link-spec').setAttribute('aria-invalid', text ? 'true' : 'false')
  }

  // A spec that is exactly one preset ("Regular 3G", "regular-3g"), or null.
  function presetOf (text) {
    const t = String(text || '').trim().toLowerCase()
    if (!t) return null
    return presets.find(function (p) { return p.name.toLowerCase() === t || p.slug === t }) || null
  }

  function fillMenu (list) {
    presets = list
    const menu = $id('link-preset')
    menu.innerHTML = ''
    const custom = document.createElement('option')
    custom.value = CUSTOM
    custom.textContent = 'Custom: the spec as typed'
    menu.appendChild(custom)
    const groups = new Map()
    list.forEach(function (p) {
      let group = groups.get(p.group)
      if (!group) {
        group = document.createElement('optgroup')
        group.label = GROUPS[p.group] || p.group
        groups.set(p.group, group)
        menu.appendChild(group)
      }
      const option = document.createElement('option')
      option.value = p.slug
      option.textContent = p.name
      option.title = (p.spec || 'nothing emulated') + ': ' + p.what
      group.appendChild(option)
    })
  }

  // One option a key, grouped as link/spec-keys.js groups them: "aqm — the bottleneck's queue discipline …".
  function fillEffects (list) {
    keys = list || []
    const menu = $id('link-effect')
    menu.innerHTML = ''
    const choose = document.createElement('option')
    choose.value = CHOOSE
    choose.textContent = 'Choose a key to add its example…'
    menu.appendChild(choose)
    const groups = new Map()
    keys.forEach(function (k) {
      let group = groups.get(k.group)
      if (!group) {
        group = document.createElement('optgroup')
        group.label = k.group.charAt(0).toUpperCase() + k.group.slice(1)
        groups.set(k.group, group)
        menu.appendChild(group)
      }
      const option = document.createElement('option')
      option.value = k.name
      option.textContent = k.name + ' — ' + k.what
      option.title = k.usage + '=' + k.values + '; default ' + k.default + (k.whose ? ' (' + k.whose + ')' : '')
      group.appendChild(option)
    })
  }

  // The chosen key's example (and what it needs) into the spec; the menu back to rest, saying what was added.
  function addEffect () {
    const menu = $id('link-effect')
    const key = keys.find(function (k) { return k.name === menu.value })
    menu.value = CHOOSE
    if (!key) return
    const spec = $id('link-spec')
    const before = spec.value.split(',').map(function (s) { return s.trim() })
    spec.value = effects.addEffect(spec.value, key, presets)
    // What came along with the example (what it needs, what it turns off), named so nothing changes unseen.
    const along = spec.value.split(',').filter(function (s) { return before.indexOf(s) < 0 && s !== key.example })
    $id('link-effect-what').textContent = 'Added ' + key.example + (along.length ? ' (with ' + along.join(', ') + ')' : '') + ': ' +
      key.what + '. Values: ' + key.values + '; default ' + key.default + (key.whose ? ' (' + key.whose + ')' : '') + '. Edit it, then Apply.'
    showError('')
    syncMenu()
    spec.focus()
  }

  // The menu follows the spec field: a preset when it names one, else Custom.
  function syncMenu () {
    const p = presetOf($id('link-spec').value)
    $id('link-preset').value = p ? p.slug : CUSTOM
    $id('link-preset-what').textContent = p ? (p.spec ? p.spec + ' · ' : '') + p.what : ''
  }

  function render (state) {
    const now = $id('link-now')
    const why = $id('link-why')
    const form = $id('link-form')
    now.textContent = ''
    const strong = document.createElement('strong')
    if (state.active) {
      const link = state.link
      now.dataset.mode = 'packet'
      strong.textContent = 'Packet-level link: '
      now.append(strong, link.description)
      if (!link.name || link.text.indexOf(',') >= 0) {
        const code = document.createElement('code')
        code.textContent = link.text
        now.append(' (spec ', code, ')')
      }
      why.hidden = true
      fillMenu(state.presets)
      fillEffects(state.keys)
      $id('link-spec').value = link.text
      syncMenu()
      form.hidden = false
    } else {
      now.dataset.mode = state.error ? 'unknown' : 'request-level'
      const code = document.createElement('code')
      code.textContent = 'npm run chrome -- --link "Regular 3G"'
      strong.textContent = 'Request-level only: '
      now.append(strong, 'use DevTools throttling (Network panel presets) — these delay whole responses, not packets; ' +
        'for a packet-level link start with ', code)
      why.textContent = state.why ? 'Why no link: ' + state.why : ''
      why.hidden = !state.why
      form.hidden = true
    }
  }

  function lock () {
    const off = running || changing
    $id('link-preset').disabled = off
    $id('link-effect').disabled = off
    $id('link-spec').disabled = off
    $id('link-apply').disabled = off
    if (running) status(LOCKED)
    else if ($id('link-status').textContent === LOCKED) status('')
  }

  function apply (event) {
    event.preventDefault()
    if (running || changing) return
    const spec = $id('link-spec').value.trim()
    showError('')
    changing = true
    lock()
    status('Changing the link…')
    api.setLink(spec).then(function (link) {
      changing = false
      lock()
      status('Changed: the next run is measured on ' + (link.name || link.text) + '.')
    }, function (err) {
      changing = false
      lock()
      // 400: the spec is wrong, and the server's message says how; the link is unchanged.
      if (err.status === 400) {
        showError(err.message)
        status('Not changed: the link is still the one above.')
      } else {
        status('Could not change the link: ' + err.message)
      }
      $id('link-spec').focus()
    })
  }

  function init () {
    $id('link-form').addEventListener('submit', apply)
    $id('link-preset').addEventListener('change', function () {
      const p = presets.find(function (x) { return x.slug === this.value }, this)
      if (p) $id('link-spec').value = p.name
      $id('link-effect-what').textContent = ''
      showError('')
      syncMenu()
    })
    $id('link-effect').addEventListener('change', addEffect)
    $id('link-spec').addEventListener('input', function () {
      showError('')
      syncMenu()
    })
    window.addEventListener('h2bench:link', function (event) { render(event.detail) })
    window.addEventListener('h2bench:start', function () { running = true; lock() })
    window.addEventListener('h2bench:end', function () { running = false; lock() })
    window.addEventListener('h2bench:error', function () { running = false; lock() })
    running = api.running()
    lock()
    api.link().then(render)
  }

  init()
}())

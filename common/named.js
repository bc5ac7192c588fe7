'use strict'

// Named things by name, for every kind of preset (the link's, DevTools',
// h2bench load's): one lookup. `matches(item, wanted)` says whether an item
// answers to a name (default: its name, ignoring case); findNamed gives null
// when none does, byName an InputError naming what is allowed.
const { InputError } = require('./errors')

const sameName = (item, wanted) => typeof wanted === 'string' && item.name.toLowerCase() === wanted.toLowerCase()

function findNamed (list, wanted, { matches = sameName } = {}) {
  return list.find(item => matches(item, wanted)) || null
}

// `what`: the kind in the message ('network preset' → unknown network preset "x"; presets are …).
function byName (list, wanted, { what = 'preset', matches = sameName } = {}) {
  const found = findNamed(list, wanted, { matches })
  if (!found) throw new InputError(`unknown ${what} "${wanted}"; presets are ${list.map(p => p.name).join(', ')}`)
  return found
}

module.exports = { findNamed, byName, sameName }

'use strict'

// The lane registry: a new lane is one file plus one line here.
const { UsageError } = require('../../common/errors')

const LANES = [
  require('./h1'),
  require('./h2-spdy'),
  require('./h2-native'),
  require('./h3-caddy'),
  require('./h2-caddy')
]

function laneByName (name) {
  const lane = LANES.find(l => l.name === name)
  if (!lane) throw new Error(`unknown lane "${name}"; lanes are ${LANES.map(l => l.name).join(', ')}`)
  return lane
}

// A --lanes value ('h1,h2n'): the names in the order given, each once; a
// UsageError naming the flag and the lanes there are. Every command line's
// --lanes goes through here.
function laneNamesFrom (raw, { flag = '--lanes' } = {}) {
  const names = [...new Set(String(raw).split(',').map(s => s.trim()).filter(Boolean))]
  const all = LANES.map(l => l.name)
  if (!names.length) throw new UsageError(`${flag} needs at least one of ${all.join(', ')}`)
  for (const name of names) if (!all.includes(name)) throw new UsageError(`${flag}: unknown lane "${name}"; lanes are ${all.join(', ')}`)
  return names
}

module.exports = { LANES, laneByName, laneNamesFrom }

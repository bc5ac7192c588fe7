'use strict'

// The lane registry: a new lane is one file plus one line here.
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

module.exports = { LANES, laneByName }

'use strict'

const { LANES } = require('../../server/lanes')

// Runs the same suite once per lane: describe(lane.name, () => fn(lane)).
function forEachLane (fn, lanes = LANES) {
  for (const lane of lanes) describe(`lane ${lane.name} (${lane.label})`, () => fn(lane))
}

module.exports = { forEachLane }

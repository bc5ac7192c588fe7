'use strict'

// An experiment's verdicts: its conclusions (bench/experiments/, checked by
// bench/runner/conclusions.js) against its rows, per network.
const { networkOf, NETWORK_NAMES } = require('./report-series')

// Each conclusion checked on each network's rows on their own.
function verdicts (experiment, rows) {
  const networks = [...new Set(rows.map(networkOf))]
  if (networks.length <= 1) return experiment.conclusions.map(c => ({ text: c.text, ...c.check(rows) }))
  return networks.flatMap(n => experiment.conclusions.map(c => ({ text: `${c.text} (${NETWORK_NAMES[n] || n})`, ...c.check(rows.filter(r => networkOf(r) === n)) })))
}

module.exports = { verdicts }

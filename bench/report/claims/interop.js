'use strict'

// The QUIC interop runner's network cases (bench/experiments/interop-cases.js cites each from
// github.com/quic-interop/quic-interop-runner and its network simulator) on every lane: h2bench's own hypothesis
// that every lane passes each case by the runner's own criterion (interop-criteria.js runnerCriterion: the runner
// set it, not h2bench). HTTP/3 against each TCP lane by the verdict engine is a table of the report
// (interop.js extraTables), not a claim: no one claimed a direction for it.
const { meets } = require('./forms')
const { CASES, criterionOf } = require('../../experiments/interop-cases')
const { runnerCriterion } = require('../interop-criteria')

const EACH_LANE = { lane: '*', mode: null, name: 'each lane' }

module.exports = CASES.map(c => meets(EACH_LANE, runnerCriterion(c), {
  text: `${c.name} (${c.abbreviation}): every lane passes the QUIC interop runner's criterion: ${criterionOf(c)}`,
  hypothesis: true,
  where: r => r.preset === c.name,
  explain: () => `the case: ${c.source}, scenario "${c.scenario}"`
}))

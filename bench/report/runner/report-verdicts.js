'use strict'

// An experiment's verdicts: its claims (bench/report/claims/, judged by
// bench/report/claims/judge.js's one rule) against its rows, per network; an
// experiment not yet moved to claims keeps its conclusions' own check().
const { networkOf, NETWORK_NAMES, multiBrowsers } = require('./report-series')
const { paramOf } = require('../../cells/helpers')
const { rowFlags } = require('./report-tables')
const { judge } = require('../claims/judge')
const { claimsOf } = require('../claims')

const BROWSER_NAMES = { chromium: 'Chromium', firefox: 'Firefox' }

// A cell's name in a sentence: the sweep's value, and the browser where there are two.
function labeller (experiment, rows) {
  const multiB = multiBrowsers(rows)
  return r => `${paramOf(r, experiment.sweep.param)}${multiB ? ` (${BROWSER_NAMES[r.browser || 'chromium'] || r.browser})` : ''}`
}

function judgedOn (experiment, rows) {
  const claims = claimsOf(experiment.id)
  if (!claims) return experiment.conclusions.map(c => ({ text: c.text, ...c.check(rows) }))
  const options = { label: labeller(experiment, rows), axis: experiment.sweep.label, flagsOf: r => rowFlags(r, experiment.kind) }
  return claims.map(c => {
    const { text, status, detail } = judge(c, rows, options)
    return { text, status, detail }
  })
}

// Each claim judged on each network's rows on their own.
function verdicts (experiment, rows) {
  const networks = [...new Set(rows.map(networkOf))]
  if (networks.length <= 1) return judgedOn(experiment, rows)
  return networks.flatMap(n => judgedOn(experiment, rows.filter(r => networkOf(r) === n)).map(v => ({ ...v, text: `${v.text} (${NETWORK_NAMES[n] || n})` })))
}

module.exports = { verdicts }

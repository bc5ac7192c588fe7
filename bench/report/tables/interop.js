'use strict'

// interop's tables (bench/experiments/interop.js): the cases' mapping, each lane's result by the case's criterion, goodput, h3 against each TCP lane.
const { lanes: LANES } = require('../../experiments/interop')
const { CASES, caseByName: caseOf, specOf, criterionOf } = require('../../experiments/interop-cases')
const { judgement, resultText, boundMs, h3Against, goodputs, interopFigure, ourFigure, caseOfRow } = require('../interop-criteria')
const rowsOf = (rows, name) => rows.filter(r => r.preset === name && !r.mode)
const lanesIn = rows => LANES.filter(l => rows.some(r => r.lane === l)).concat([...new Set(rows.map(r => r.lane))].filter(l => !LANES.includes(l)))
const s = ms => ms === null || ms === undefined ? '–' : (ms / 1000).toFixed(ms < 10000 ? 3 : 2)
const x = v => v === null || v === undefined || !Number.isFinite(v) ? '–' : `${v.toFixed(2)}×`

// The interop experiment's tables under its main one (bench/report/runner/report-sections.js): [{ title, head, body }].
module.exports = function tables (rows) {
  const names = CASES.map(c => c.name).filter(n => rowsOf(rows, n).length)
  const mapping = {
    title: 'The QUIC interop runner\'s cases (github.com/quic-interop/quic-interop-runner and its quic-network-simulator; bench/experiments/interop-cases.js cites file and function) and each on this link',
    head: ['scenario', 'its case', 'its simulator scenario', 'this link', 'what differs'],
    body: names.map(n => {
      const c = caseOf(n)
      const r = rowsOf(rows, n).find(q => q.linkSpec) || {}
      return [n, `${c.abbreviation}: ${c.source}`, c.scenario, r.linkSpec || specOf(c), c.unlike]
    })
  }
  const results = {
    title: 'Per scenario and lane: our result beside the interop runner\'s pass criterion, pass or fail by it (a run passes when it completed within the case\'s timeout on the case\'s number of connections, by the server\'s ledger), and the lower bound of the workload on its link',
    head: ['scenario', 'its criterion', 'lane', 'tool', 'our result', 'lower bound (s)', 'by its criterion'],
    body: names.flatMap(n => {
      const list = rowsOf(rows, n)
      return lanesIn(list).map(lane => {
        const r = list.find(q => q.lane === lane)
        const c = caseOfRow(r)
        return [n, criterionOf(c), lane, r.load ? r.load.tool : '–', resultText(r, c), s(boundMs(r)), judgement(r, c).text]
      })
    })
  }
  const vs = {
    title: 'HTTP/3 against each TCP lane per scenario, by the verdict engine (the lane\'s median time over h3\'s: above 1, h3 is faster)',
    head: ['scenario', 'against', 'h3 (s)', 'the lane (s)', 'lane ÷ h3', '95 % interval', 'verdict'],
    body: names.flatMap(n => {
      const list = rowsOf(rows, n)
      const h3 = list.find(r => r.lane === 'h3')
      return h3Against(list).map(v => [n, v.lane, s(h3.median), s((list.find(r => r.lane === v.lane) || {}).median), x(v.ratio),
        Number.isFinite(v.low) ? `${x(v.low)}–${x(v.high)}` : '–', v.verdict])
    })
  }
  // Goodput per lane as the interop runner states it, for the two measurements.
  const measured = names.filter(n => caseOf(n).measurement)
  const goodput = {
    title: 'The measurements\' goodput per lane (kbps: 8 × the file\'s bytes ÷ ms): the interop runner\'s mean (± sd) over its repetitions beside our median',
    head: ['scenario', 'lane', 'runs', 'interop runner\'s figure', 'ours: median (verdict engine\'s bootstrap interval)'],
    body: measured.flatMap(n => lanesIn(rowsOf(rows, n)).map(lane => rowsOf(rows, n).find(r => r.lane === lane)).filter(r => r.samples.length).map(r => {
      const g = goodputs(r, caseOfRow(r))
      return [n, r.lane, String(g.length), interopFigure(g).text, ourFigure(g).text]
    }))
  }
  return [mapping, results, ...(goodput.body.length ? [goodput] : []), ...(vs.body.length ? [vs] : [])]
}

'use strict'

// Every experiment, in report order. One file each; see delay.js for the
// shape: id, title, kind (the kind of cell that measures it), optional lanes
// and modes, sweep { param, label }, cells, smoke (cell → tiny cell) or
// smokeCells (cells → tiny cells), source (the published table, or null).
// What it claims is declared apart, in bench/report/claims/<id>.js (docs/adding-an-experiment.md).
const EXPERIMENTS = ['delay', 'count-10ms', 'count-30ms', 'size', 'network', 'network-current', 'push', 'push-protocol', 'push-link', 'h3-ttfb', 'h3-hol', 'h3-pages', 'h3-cc', 'ab-vs-nghttp', 'h2load-netem', 'rest', 'interop', 'site', 'replay', 'corpus']
  .map(id => require(`./${id}`))

function experimentById (id) {
  const e = EXPERIMENTS.find(x => x.id === id)
  if (!e) throw new Error(`unknown experiment "${id}"; experiments are ${EXPERIMENTS.map(x => x.id).join(', ')}, or all`)
  return e
}

// The cells an experiment runs: its own (or, for site, the command line's
// `site`: { urls, protocols, ca }; for replay, its `replay`: { har, protocols, pages }; for corpus, the pages it
// writes, fewer with smoke), or tiny ones for --smoke.
function cellsOf (experiment, { smoke = false, site = null, replay = null } = {}) {
  if (experiment.cellsFrom) experiment = { ...experiment, cells: experiment.cellsFrom(site, replay, { smoke }) }
  if (!smoke) return experiment.cells
  return experiment.smokeCells ? experiment.smokeCells(experiment.cells) : experiment.cells.map(experiment.smoke)
}

// Whether `all` runs an experiment: not one that needs a URL of the user's, nor one run by name only (inAll false).
const inAll = e => !e.needsUrl && e.inAll !== false

// The experiments named (or all: every one inAll), each once, in report order, with the cells they will run.
function select (ids, { smoke = false, site = null, replay = null } = {}) {
  const wanted = EXPERIMENTS.filter(e => ids.includes(e.id) || (ids.includes('all') && inAll(e)))
  for (const id of ids) if (id !== 'all') experimentById(id)
  return wanted.map(e => ({ ...e, cells: cellsOf(e, { smoke, site, replay }) }))
}

// The cells to run: [{ experiment, index, cell }].
function expand (ids, opts = {}) {
  return select(ids, opts).flatMap(experiment => experiment.cells.map((cell, index) => ({ experiment, index, cell })))
}

module.exports = { EXPERIMENTS, experimentById, cellsOf, select, expand, inAll }

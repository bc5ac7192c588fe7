'use strict'

// What the site-page experiments' tables (h3-pages, h3-cc) read of their rows: the cells in order, a lane's row
// in a cell, and a row's median in seconds (or why it has none).
const { ok } = require('../experiments/h3-common')

function sitePageRows (rows) {
  return {
    cells: [...new Set(rows.map(r => r.cell))].sort((a, b) => a - b),
    at: (lane, cell) => rows.find(r => r.lane === lane && r.cell === cell),
    s: r => ok(r) ? (r.median / 1000).toFixed(3) : r ? `failed (${r.failures})` : '–'
  }
}

module.exports = { sitePageRows }

'use strict'

// Every experiment's tables under its main one: bench/report/tables/<experiment id>.js, a function of the
// experiment's rows → [{ title, head, body }]. Beside the claims (bench/report/claims/): the experiment says
// what to measure, this room how to show it. Nothing that measures imports it.
const fs = require('node:fs')
const path = require('node:path')

// The tables function of experiment `id`, or null when it has none.
function tablesOf (id) {
  const file = path.join(__dirname, `${id}.js`)
  return /^[a-z0-9-]+$/.test(id) && fs.existsSync(file) ? require(file) : null
}

module.exports = { tablesOf }

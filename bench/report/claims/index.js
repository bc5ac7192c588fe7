'use strict'

// Every experiment's claims: bench/report/claims/<experiment id>.js, an array of
// claims declared with the forms of forms.js and judged by judge.js. This
// room only reports: nothing that measures imports it.
const fs = require('node:fs')
const path = require('node:path')

// The claims of experiment `id`, or null when it declares none here.
function claimsOf (id) {
  const file = path.join(__dirname, `${id}.js`)
  return /^[a-z0-9-]+$/.test(id) && fs.existsSync(file) ? require(file) : null
}

module.exports = { claimsOf }

'use strict'

// `npm test` passes the spec (test/**/*.test.js); `npx mocha <file>` runs one file.
module.exports = {
  timeout: 20000,
  reporter: 'spec'
}

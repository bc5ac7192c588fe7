'use strict'

// test/run.js passes the spec (a tier's files, or test/**/*.test.js for npm test); `npx mocha <file>` runs one file.
module.exports = {
  timeout: 20000,
  reporter: 'spec'
}

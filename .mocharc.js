'use strict'

// Unit and server tests by default; the browser tests need Chromium and are
// included by test/e2e/*.test.js (see README).
module.exports = {
  spec: ['test/unit/**/*.test.js', 'test/server/**/*.test.js', 'test/e2e/**/*.test.js'],
  timeout: 20000,
  reporter: 'spec'
}

'use strict'

// The page passes on the token it was opened with (…/?token=…) to the lanes'
// internals (client/js/request.js withAccess): a page opened beyond loopback
// reads the ledgers and counters the server guards (server/access.js).
const assert = require('node:assert/strict')
const path = require('node:path')
const fs = require('node:fs')
const vm = require('node:vm')

const SOURCE = fs.readFileSync(path.join(__dirname, '..', '..', 'client', 'js', 'request.js'), 'utf8')
const load = search => {
  const window = { location: { search } }
  const $ = { ajaxTransport () {}, ajaxSetup () {} } // jQuery's hooks the file registers its transport with
  vm.runInNewContext(SOURCE, { window, $, URLSearchParams, Math, performance: { getEntriesByName: () => [] } })
  return window.h2benchRequest
}

describe('the page\'s access token (client/js/request.js)', () => {
  it('adds ?token= or &token= when the page was opened with one, and nothing otherwise', () => {
    const r = load('?token=ab%2Fc')
    assert.equal(r.accessToken, 'ab/c')
    assert.equal(r.withAccess('https://h:1/push/stats'), 'https://h:1/push/stats?token=ab%2Fc')
    assert.equal(r.withAccess('https://h:1/ledger/x?r=12ab'), 'https://h:1/ledger/x?r=12ab&token=ab%2Fc')
    const none = load('')
    assert.equal(none.accessToken, null)
    assert.equal(none.withAccess('https://h:1/push/stats'), 'https://h:1/push/stats')
  })
})

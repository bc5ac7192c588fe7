'use strict'

// The real `npm run bench -- replay --har …` (bin/h2bench-run.js) on the
// slow tests' three-origin HAR: test/server/replay/har-fixture.js's recorder
// HAR, its page loading one resource of each origin and nothing else in it
// (a.example and b.example on one address and certificate, c.example:8443
// on its own). Shared by test/bench/slow/runner-replay*.test.js: the HAR, a
// run of the command into a directory of its own, and what every replay row
// must show whatever the figures (every load good, over the protocol forced,
// nothing missed but the favicon the browser asks for itself).
const assert = require('node:assert/strict')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { runNode } = require('./run-node')
const { findChrome } = require('../../harness/chromium')
const { mayBuildHere } = require('../../link/namespace')
const { h2benchHar, PNG, BODIES } = require('../server/replay/har-fixture')

const RUN = path.join(__dirname, '..', '..', 'bin', 'h2bench-run.js')
// The protocol on the wire of each replay protocol (h2-spdy and h2e are HTTP/2 from spdy and from h3's Caddy).
const WIRE = { h1: 'http/1.1', h2: 'h2', 'h2-spdy': 'h2', h2e: 'h2', h3: 'h3' }
const PAGE = '<!doctype html><title>replay</title><script src="/app.js?v=1"></script>' +
  '<img src="https://b.example/logo.png"><link rel="stylesheet" href="https://c.example:8443/gone">\n'
// The page's requests and each one's body as served (decoded, identity: no content-encoding left in the HAR).
const LOADED = {
  'https://a.example/': Buffer.byteLength(PAGE),
  'https://a.example/app.js?v=1': BODIES['https://a.example/app.js?v=1'].length,
  'https://b.example/logo.png': PNG.length,
  'https://c.example:8443/gone': 1234 // recorded without its body (bodyComplete false): served as that many bytes
}
const BODY_BYTES = Object.values(LOADED).reduce((a, n) => a + n, 0)
const ORIGINS = ['https://a.example', 'https://b.example', 'https://c.example:8443']

// The recorder's HAR of the three origins, holding exactly the page's four entries (less `without`), none content-encoded.
function siteHar ({ without = null } = {}) {
  const har = h2benchHar()
  har.log.entries = har.log.entries.filter(e => e.request.url in LOADED && e.request.url !== without)
  for (const e of har.log.entries) e.response.headers = e.response.headers.filter(h => !/^content-(encoding|length)$/i.test(h.name))
  har.log.entries.find(e => e.request.url === 'https://a.example/').response.content = { size: Buffer.byteLength(PAGE), mimeType: 'text/html', text: PAGE }
  return har
}

// A request the browser makes of its own accord (the recording, written by hand, has none).
const favicon = u => /\/favicon\.ico$/.test(u)

// A directory of the test's own (prefix) holding site.har; run(args) runs the command on it → { result, json }
// with args after `replay --har site.har`, into `out` (or the given directory); cleanup() removes it all.
function replayRun (prefix) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix))
  const harFile = path.join(dir, 'site.har')
  fs.writeFileSync(harFile, JSON.stringify(siteHar()))
  return {
    dir,
    harFile,
    async run (args, { har = harFile, out = path.join(dir, 'out') } = {}) {
      const result = await runNode(RUN, ['replay', '--har', har, ...args, '--out', out])
      const file = path.join(out, 'results.json')
      const json = fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : null
      return { result, json, out }
    },
    harOf: (out, load) => JSON.parse(fs.readFileSync(path.join(out, load.har), 'utf8')),
    cleanup: () => fs.rmSync(dir, { recursive: true, force: true })
  }
}

// Every row's loads good (repeats of them), over the protocol forced (a repeat view's requests also from the
// cache, and those of rows `cached` names), nothing missed but the favicon.
function assertLoadsGood (json, repeats, { cached = () => false } = {}) {
  for (const r of json.results) {
    const what = `${r.lane} ${r.mode}: ${r.note}`
    assert.equal(r.failures, 0, what)
    assert.equal(r.repeatsGot, repeats, what)
    assert.equal(r.protocol, WIRE[r.lane], what)
    const tally = Object.fromEntries(r.site.protocols.split(', ').map(x => x.split(' ×')).map(([k, n]) => [k, Number(n)]))
    assert.deepEqual(Object.keys(tally).filter(k => k !== WIRE[r.lane] && !(k === 'cache' && (r.site.view === 'repeat' || cached(r)))), [], what)
    for (const load of r.site.loads) {
      assert.deepEqual(load.replay.missed.filter(m => !favicon(m)), [], what)
      assert.ok(load.replay.misses <= 1, `${what}: ${JSON.stringify(load.replay)}`)
    }
  }
}

// A mocha before()'s start: skips the suite, saying why, when the command cannot run here: the browser's reason
// (`browser`: Chromium's by default, a Firefox test gives its own), outside test/run.js's private namespace (the
// replay binds 127.0.1.x:443), or the first of `more` (the test's further reasons, null where none).
function skipUnlessReplayRuns (ctx, { browser = findChrome() ? null : 'no Chromium', more = [] } = {}) {
  const why = browser || (!mayBuildHere() ? 'the replay binds 127.0.1.x:443: needs test/run.js\'s private namespace' : null) ||
    more.find(Boolean)
  if (!why) return
  process.stdout.write(`      (skipped: ${why})\n`)
  ctx.skip()
}

module.exports = { replayRun, skipUnlessReplayRuns, assertLoadsGood, siteHar, favicon, WIRE, PAGE, LOADED, BODY_BYTES, ORIGINS, RUN }

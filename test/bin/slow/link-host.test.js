'use strict'

// A link never disturbs the machine it runs on (issue: a Chromium loading from
// a running h2bench lost 1,141 of 3,054 requests to net::ERR_NETWORK_CHANGED
// while one h2bench-link started and ended beside it). Here a Chromium in this
// test's network namespace keeps requests in flight to a server beside it
// while h2bench-link and npm start --link make and remove links: it loses
// none, and no device of theirs ever appears here. The control proves the
// observer: a link made in this namespace, as h2bench-link did before it
// always took a namespace of its own, does make that Chromium fail requests
// (run only when this namespace is itself a private one, as under npm test:
// never on the host's).
const assert = require('node:assert/strict')
const fs = require('node:fs')
const http = require('node:http')
const path = require('node:path')
const { spawn } = require('node:child_process')
const { unavailableReason, inPrivateNamespace, PRIVATE_ENV, USERNS_ENV } = require('../../../link/namespace')
const { findChrome } = require('../../../harness/chromium')
const { launchBrowser } = require('../../support/browser')

const ROOT = path.join(__dirname, '..', '..', '..')
// The link devices in this process's network namespace: /proc/self/net/dev is this namespace's
// (/sys/class/net is the namespace's that mounted /sys, the host's, whichever one reads it).
const linkDevices = () => fs.readFileSync('/proc/self/net/dev', 'utf8').split('\n').map(l => l.split(':')[0].trim()).filter(n => /^h2b[cs]\d+$/.test(n))

// An entry point run as a user would: without the marks that say "already in a private namespace" (unless `inHere`).
function runEntry (args, { inHere = false } = {}) {
  const env = { ...process.env }
  delete env[PRIVATE_ENV]
  delete env[USERNS_ENV]
  if (inHere) env[PRIVATE_ENV] = '1' // the old behaviour: build the link in this namespace
  return new Promise(resolve => {
    const child = spawn(process.execPath, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] })
    let out = ''
    child.stdout.on('data', d => { out += d })
    child.stderr.on('data', d => { out += d })
    child.once('exit', code => resolve({ code, out }))
  })
}

describe('a link never disturbs the machine it runs on', function () {
  this.timeout(180000)
  let server, browser, page, seen, poll
  before(async function () {
    const why = unavailableReason() || (findChrome() ? null : 'no Chromium')
    if (why) {
      process.stdout.write(`      (skipped: ${why})\n`)
      return this.skip()
    }
    // Each answer waits 150 ms: requests are always in flight when interfaces change.
    server = http.createServer((req, res) => setTimeout(() => res.end('x'.repeat(1000)), 150))
    await new Promise(resolve => server.listen(0, '127.0.0.1', resolve))
    browser = await launchBrowser({ spki: null }) // the measurements' headless Chromium, here in this test's namespace
    page = await browser.context.newPage()
    await page.goto(`http://127.0.0.1:${server.address().port}/`)
    seen = new Set()
    poll = setInterval(() => { for (const d of linkDevices()) seen.add(d) }, 20)
  })
  after(async () => {
    clearInterval(poll)
    if (browser) await browser.close()
    if (server) server.close()
  })

  // Ten requests in flight at all times while `work` runs: → { ok, failed, errors }.
  async function loadWhile (work) {
    await page.evaluate(() => {
      window.__load = { ok: 0, failed: 0, errors: {}, stop: false }
      const one = () => fetch(`/r${Math.random()}`, { cache: 'no-store' }).then(r => r.text()).then(() => { window.__load.ok++ }, e => {
        window.__load.failed++
        window.__load.errors[e.message] = (window.__load.errors[e.message] || 0) + 1
      }).then(() => { if (!window.__load.stop) one() })
      for (let i = 0; i < 10; i++) one()
    })
    const result = await work()
    await new Promise(resolve => setTimeout(resolve, 500))
    const load = await page.evaluate(() => { window.__load.stop = true; return window.__load })
    await new Promise(resolve => setTimeout(resolve, 300))
    return { ...load, result }
  }

  it('h2bench-link, three links made and removed: every request answered, no device of theirs here', async () => {
    const { ok, failed, errors, result } = await loadWhile(async () => {
      const runs = []
      for (let i = 0; i < 3; i++) runs.push(await runEntry([path.join(ROOT, 'bin', 'h2bench-link.js'), 'loss.up=20%', '--', 'sleep', '1']))
      return runs
    })
    for (const r of result) assert.equal(r.code, 0, r.out)
    assert.equal(failed, 0, `${failed} requests failed: ${JSON.stringify(errors)}`)
    assert.ok(ok > 100, `only ${ok} requests answered`)
    assert.deepEqual([...seen], [], 'a link device appeared in this namespace')
  })

  it('control: a link made in this namespace (as before) makes the same Chromium fail requests in flight', async function () {
    if (!inPrivateNamespace()) return this.skip() // never in the host's own namespace: only in one made for the tests (npm test)
    const { failed, errors, result } = await loadWhile(async () => {
      const runs = []
      for (let i = 0; i < 3; i++) runs.push(await runEntry([path.join(ROOT, 'bin', 'h2bench-link.js'), 'loss.up=20%', '--', 'sleep', '1'], { inHere: true }))
      return runs
    })
    process.stdout.write(`      · ${failed} requests failed: ${JSON.stringify(errors)}; devices seen here: ${[...seen].join(', ')}\n`)
    for (const r of result) assert.equal(r.code, 0, r.out)
    assert.ok(seen.size > 0, 'the control made no device here')
    assert.ok(failed > 0, 'the observer saw no failure even with the link in its namespace')
  })
})

'use strict'

const assert = require('node:assert/strict')
const { useServers } = require('../../support/servers')
const { launchBrowser } = require('../../support/browser')
const { openPage, runFromForm, text, visible } = require('../../support/page')
const { startAll } = require('../../../server/start')
const { testCertificate } = require('../../support/certificate')
const path = require('node:path')
const fs = require('node:fs')
const os = require('node:os')

// The README's picture is rewritten only when asked (H2BENCH_UPDATE_SCREENSHOT=1), so a test run leaves the checkout clean.
const SCREENSHOT = process.env.H2BENCH_UPDATE_SCREENSHOT === '1'
  ? path.join(__dirname, '..', '..', '..', 'docs', 'screenshot.png')
  : path.join(os.tmpdir(), `h2bench-screenshot-${process.pid}.png`)
const { spawn } = require('node:child_process')

// The edge lanes on the page: h3 over QUIC in a Chromium told to use it,
// the fallback warning when it is not, and a machine without Caddy.
describe('the page with the HTTP/3 lane (Caddy) in Chromium', function () {
  this.timeout(60000)
  const servers = useServers() // every lane, h3 and h2e included
  const pageUrl = () => `${servers.running.page.url}/`

  it('runs all five lanes from the Run button: h3 over QUIC, h2e over HTTP/2, every byte there', async () => {
    assert.deepEqual(servers.running.unavailable, [], 'Caddy is needed for these tests (.ci/run installs it)')
    const browser = await launchBrowser({ spki: servers.tls.spki, lanes: servers.running.lanes })
    try {
      const { page, errors } = await openPage(browser, pageUrl())
      const result = await runFromForm(page, { requests: 50, size: 20, unit: 'kb', delay: 10, repeats: 5 })
      assert.equal(result.state, 'done')
      assert.deepEqual(result.options.lanes, ['h1', 'h2', 'h2n', 'h3', 'h2e'])
      const expected = { h1: 'http/1.1', h2: 'h2', h2n: 'h2', h3: 'h3', h2e: 'h2' }
      for (const lane of result.lanes) {
        assert.equal(lane.failures, 0, lane.lane)
        assert.equal(lane.samples.length, 5, lane.lane)
        assert.equal(lane.protocol, expected[lane.lane], lane.lane)
        assert.ok(lane.protocolOk, `${lane.lane} spoke ${JSON.stringify(lane.protocols)}`)
        for (const b of lane.batches) {
          assert.equal(b.ok, 50)
          assert.equal(b.bytes, 50 * 20 * 1024)
        }
      }
      assert.equal(await text(page, '.card[data-lane="h3"] .state'), 'done')
      assert.equal(await visible(page, '.card[data-lane="h3"] .warning'), false)
      assert.deepEqual(errors, [])
      // The README's picture: a finished run on every lane.
      await page.screenshot({ path: SCREENSHOT, fullPage: true })
      assert.ok(fs.statSync(SCREENSHOT).size > 10000)
      if (process.env.H2BENCH_UPDATE_SCREENSHOT !== '1') fs.rmSync(SCREENSHOT)
    } finally {
      await browser.close()
    }
  })

  it('warns on the h3 card when the browser fell back to TCP (no QUIC for that origin)', async () => {
    // No lanes given: launchBrowser turns QUIC off, as a browser without
    // the flag would reach the lane over TCP.
    const browser = await launchBrowser({ spki: servers.tls.spki })
    try {
      const { page } = await openPage(browser, pageUrl(), { expectReady: false })
      const result = await runFromForm(page, { requests: 5, size: 1, unit: 'kb', delay: 0, repeats: 1, lanes: ['h3'] })
      const h3 = result.lanes.find(l => l.lane === 'h3')
      assert.equal(h3.failures, 0)
      assert.equal(h3.protocol, 'h2')
      assert.equal(h3.protocolOk, false)
      const warning = '.card[data-lane="h3"] .warning'
      await page.waitForSelector(warning, { visible: true })
      assert.match(await text(page, warning), /did not speak only h3: the browser used h2/)
    } finally {
      await browser.close()
    }
  })

  it('without Caddy: the edge lanes are left out with one line naming what to install, every other lane starts', async () => {
    const saved = process.env.CADDY_PATH
    process.env.CADDY_PATH = '/nonexistent/caddy'
    let running = null
    try {
      const config = { host: '127.0.0.1', port: 0, h1Port: 0, h2Port: 0, h2nPort: 0, h3Port: 0, h2ePort: 0 }
      running = await startAll(config, await testCertificate())
      assert.deepEqual(running.lanes.map(l => l.name), ['h1', 'h2', 'h2n'])
      assert.deepEqual(running.unavailable.map(l => l.name), ['h3', 'h2e'])
      for (const l of running.unavailable) assert.match(l.reason, /CADDY_PATH=\/nonexistent\/caddy does not exist: build Caddy with `npm run build:caddy` \(needs Go >= 1\.26.*\), or install one \(Debian\/Ubuntu: `sudo apt-get install -y caddy`/)
      const html = await (await fetch(`${running.page.url}/`)).text()
      assert.match(html, /HTTP\/3 \(Caddy, QUIC\) <span class="hint">\(not started: CADDY_PATH=/)
      const json = await (await fetch(`${running.page.url}/lanes.json`)).json()
      assert.deepEqual(json.unavailable.map(l => l.name), ['h3', 'h2e'])
    } finally {
      if (saved === undefined) delete process.env.CADDY_PATH
      else process.env.CADDY_PATH = saved
      if (running) await running.close()
    }
  })

  it('npm start without Caddy prints one line per edge lane and serves the rest', async () => {
    const child = spawn(process.execPath, [path.join(__dirname, '..', '..', '..', 'bin', 'h2bench.js'),
      '--port', '0', '--h1-port', '0', '--h2-port', '0', '--h2n-port', '0', '--h3-port', '0', '--h2e-port', '0'],
    { env: { ...process.env, CADDY_PATH: '/nonexistent/caddy' }, stdio: ['ignore', 'pipe', 'pipe'] })
    const out = { stdout: '' }
    try {
      await new Promise((resolve, reject) => {
        child.stdout.on('data', d => { out.stdout += d; if (/certificate SPKI/.test(out.stdout)) resolve() })
        child.once('exit', code => reject(new Error(`npm start exited (${code}) before serving: ${out.stdout}`)))
      })
    } finally {
      child.kill('SIGTERM')
    }
    assert.match(out.stdout, /^lane h3 {7}not started: CADDY_PATH=\/nonexistent\/caddy does not exist: build Caddy with `npm run build:caddy`/m)
    assert.match(out.stdout, /^lane h2e {6}not started: /m)
    assert.match(out.stdout, /^lane h2n {6}https:\/\/127\.0\.0\.1:\d+\/ {2}HTTP\/2 \(node:http2\)$/m)
  })
})

'use strict'

const assert = require('node:assert/strict')
const fs = require('node:fs')
const path = require('node:path')
const { useServers } = require('../../support/servers')
const { LANES } = require('../../../server/lanes')
// The Node lanes; the edge lanes (h3, h2e) on the page: page-h3.test.js.
const NODE_LANES = LANES.filter(l => !l.edge)
const { launchBrowser } = require('../../support/browser')
const { openPage, runFromForm, countOptionRequests, text, attr, visible, count, texts, fill, select, setChecked, check, disabled, failRequests, download, sleep } = require('../../support/page')

// The README's picture is page-h3.test.js's (every lane); this one is a check.
const SCREENSHOT = path.join(require('node:os').tmpdir(), `h2bench-page-${process.pid}.png`)

describe('the h2bench page in Chromium', function () {
  this.timeout(60000)
  const servers = useServers({ lanes: NODE_LANES })
  let browser = null
  let page = null
  let errors = null
  const pageUrl = () => `${servers.running.page.url}/`
  const laneUrl = name => servers.lane(name).url

  before(async () => { browser = await launchBrowser({ spki: servers.tls.spki, lanes: servers.running.lanes }) })
  after(async () => { if (browser) await browser.close() })
  beforeEach(async () => { ({ page, errors } = await openPage(browser, pageUrl())) })
  afterEach(async () => {
    if (page) await page.close()
    assert.deepEqual(errors, [], 'no console errors')
  })

  it('runs every lane from the Run button: N responses each, the expected protocols, times in the cards', async () => {
    const requests = countOptionRequests(page)
    const result = await runFromForm(page, { requests: 20, size: 10, unit: 'kb', delay: 5, repeats: 2 })
    assert.equal(result.state, 'done')
    assert.deepEqual(result.options, { requests: 20, size: 10240, delay: 5, repeats: 2, lanes: ['h1', 'h2', 'h2n'], cold: false, transport: 'fetch' })
    for (const lane of result.lanes) {
      assert.equal(lane.samples.length, 2, lane.lane)
      assert.equal(lane.failures, 0, lane.lane)
      assert.equal(lane.protocol, lane.lane === 'h1' ? 'http/1.1' : 'h2')
      assert.ok(lane.protocolOk)
      // Warm-up first, then the batch; repeat 1 goes in reverse lane order.
      assert.deepEqual(lane.batches.map(b => b.position), lane.lane === 'h2' ? [1, 1] : lane.lane === 'h1' ? [0, 2] : [2, 0])
      for (const b of lane.batches) {
        assert.equal(b.requests.length, 20)
        assert.equal(b.ok, 20)
        assert.equal(b.bytes, 20 * 10240)
        assert.ok(b.requests.every(r => r.status === 200 && r.bytes === 10240 && r.timing && r.timing.responseEnd > 0))
      }
      assert.equal(requests.byOrigin[laneUrl(lane.lane)], 2 * (6 + 20), `${lane.lane}: 2 × (6 warm-up requests + 20)`)
      const card = `.card[data-lane="${lane.lane}"]`
      assert.equal(await text(page, `${card} .state`), 'done')
      assert.match(await text(page, `${card} .elapsed .value`), /^\d+(\.\d)? m?s$/)
      assert.equal(await text(page, `${card} .protocol`), lane.protocol)
      assert.equal(await visible(page, `${card} .warning`), false)
    }
    assert.equal(result.comparisons.length, 3)
    assert.equal(await count(page, '#ratios .ratio'), 3)
    // Two repeats are fewer than the verdict engine's minimum: no lane is called faster (shared/verdict.js).
    for (const c of result.comparisons) assert.equal(c.verdict, 'not measured', JSON.stringify(c))
    for (const ratio of await texts(page, '#ratios .ratio')) {
      // (and, when the verdict engine says these times rest on the machine's CPU, its sentence: client/js/page.js)
      assert.match(ratio, /: not measured, a verdict needs at least 5 good runs on each \(2 and 2 runs; medians [\d.]+× apart\)( (These times rest|This verdict rests) on this machine's CPU: [^]+\.)?$/)
      assert.doesNotMatch(ratio, /faster/)
    }
    assert.match(await text(page, '#status'), /^Done/)
  })

  it('runs the defaults from the untouched form: 100 × 100 KB, 10 ms, 5 repeats, every lane, no connection setup timed', async () => {
    const before = await page.evaluate(() => window.__results.length)
    await page.click('#run')
    await page.waitForFunction(n => window.__results.length > n, { timeout: 60000 }, before)
    const result = await page.evaluate(() => window.__results[window.__results.length - 1])
    assert.equal(result.state, 'done')
    assert.deepEqual(result.options, { requests: 100, size: 102400, delay: 10, repeats: 5, lanes: ['h1', 'h2', 'h2n'], cold: false, transport: 'fetch' })
    for (const lane of result.lanes) {
      assert.equal(lane.samples.length, 5, lane.lane)
      assert.equal(lane.failures, 0, lane.lane)
      assert.ok(lane.protocolOk, `${lane.lane} spoke ${lane.protocol}`)
      for (const b of lane.batches) {
        assert.equal(b.ok, 100)
        // The warm-up opened every connection the batch uses (six for
        // HTTP/1.1), so no measured request waited for TCP/TLS setup.
        const connecting = b.requests.filter(r => r.timing.connectEnd !== r.timing.connectStart)
        assert.equal(connecting.length, 0, `${lane.lane} repeat ${b.repeat}: ${connecting.length} requests set up a connection`)
      }
    }
  })

  it('shows HTTP/2 beating HTTP/1.1 under 200 ms of latency, with waves in the waterfall; saves the screenshot', async () => {
    const cdp = await page.createCDPSession()
    await cdp.send('Network.enable')
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 200, downloadThroughput: -1, uploadThroughput: -1 })
    const result = await runFromForm(page, { requests: 30, size: 1, unit: 'kb', delay: 0, repeats: 5 })
    const median = name => result.lanes.find(l => l.lane === name).summary.median
    // ⌈30/6⌉ = 5 round trips on six HTTP/1.1 connections against 1 over HTTP/2.
    assert.ok(median('h1') > 2 * median('h2'), `h1 ${median('h1')} ms vs h2 ${median('h2')} ms`)
    assert.ok(median('h1') > 2 * median('h2n'), `h1 ${median('h1')} ms vs h2n ${median('h2n')} ms`)
    assert.ok(median('h1') > 800, `h1 ${median('h1')} ms`)
    const ratio = '#ratios .ratio[data-slower="h1"][data-faster="h2"]'
    assert.match(await text(page, ratio), /HTTP\/2 \(spdy\) is [\d.]+× faster than HTTP\/1\.1 \(node:https\) \(95 % interval [\d.]+–[\d.]+×, 5 and 5 runs\)/)
    assert.equal(await attr(page, ratio, 'data-verdict'), 'faster')
    const inFlight = async lane => Number(await attr(page, `.waterfall[data-lane="${lane}"] canvas`, 'data-max-in-flight'))
    assert.ok(await inFlight('h1') <= 6, 'HTTP/1.1: at most six connections')
    assert.ok(await inFlight('h2') > 6, 'HTTP/2: one wave')
    assert.equal(result.network.source, 'navigator.connection')
    assert.match(await text(page, '#network-text'), /browser’s own estimate/)
    await page.screenshot({ path: SCREENSHOT, fullPage: true })
    assert.ok(fs.statSync(SCREENSHOT).size > 10000)
    fs.rmSync(SCREENSHOT)
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 })
  })

  it('queues requests beyond 1,000 in flight, so a batch of 2,500 completes (Chromium fails the excess over ~1,500)', async () => {
    const result = await page.evaluate(() => window.h2bench.run({ requests: 2500, size: 0, delay: 0, repeats: 1, lanes: ['h2n'] }))
    assert.equal(await page.evaluate(() => window.h2bench.maxInFlight), 1000)
    for (const lane of result.lanes) {
      const [batch] = lane.batches
      assert.equal(batch.maxInFlight, 1000)
      assert.deepEqual([batch.ok, batch.failed, lane.failures], [2500, 0, 0], lane.lane)
      assert.equal(lane.samples.length, 1)
    }
  })

  it('carries jQuery\'s requests on fetch() by default and on its XMLHttpRequest when asked: the same bytes, protocols and timings', async () => {
    const run = transport => page.evaluate(t => window.h2bench.run({ requests: 12, size: '100kb', delay: 0, repeats: 1, lanes: ['h1', 'h2', 'h2n'], transport: t }), transport)
    for (const transport of ['fetch', 'xhr']) {
      const result = await run(transport)
      assert.equal(result.options.transport, transport)
      for (const lane of result.lanes) {
        const [b] = lane.batches
        assert.deepEqual([b.ok, b.failed, b.bytes], [12, 0, 12 * 102400], `${transport} ${lane.lane}`)
        assert.ok(b.requests.every(r => r.status === 200 && r.bytes === 102400 && r.timing && r.timing.responseEnd > 0), `${transport} ${lane.lane}`)
        assert.ok(lane.protocolOk, `${transport} ${lane.lane} spoke ${lane.protocol}`)
      }
    }
    assert.match(await page.evaluate(() => window.h2bench.run({ transport: 'beacon' }).catch(e => e.message)), /transport must be "fetch" or "xhr"; got "beacon"/)
  })

  it('counts failed requests, shows them, and leaves their batches out of the timing', async () => {
    // The browser fails the 4th request of every batch (as a dropped connection would).
    const unroute = await failRequests(page, url => /\/option\?.*&r=.*-3$/.test(url.href), 'connectionreset')
    const result = await runFromForm(page, { requests: 6, size: 1, unit: 'kb', delay: 0, repeats: 2, lanes: ['h1', 'h2n'] })
    for (const lane of result.lanes) {
      assert.equal(lane.failures, 2, lane.lane)
      assert.deepEqual(lane.batches.map(b => [b.ok, b.failed]), [[5, 1], [5, 1]], lane.lane)
      assert.deepEqual(lane.samples, [], `${lane.lane}: a batch with a failed request timed less than the workload`)
      assert.equal(lane.leftOut, 2)
      const card = `.card[data-lane="${lane.lane}"]`
      assert.equal(await text(page, `${card} .failures`), '2')
      assert.match(await text(page, `${card} .elapsed .what`), /2 with failed requests left out/)
      // What failed, on which lane, and where the browser's own error name is.
      assert.match(await text(page, `${card} .warning`),
        /^2 requests failed on HTTP\/[\d.]+ \([^)]+\): 2 × network error \(status 0\).*console.*net::ERR_/)
    }
    assert.deepEqual(result.comparisons, [])
    await unroute()
    // The browser logs each failed load; those four are this test's own doing.
    assert.deepEqual(errors, Array(4).fill('console: Failed to load resource: net::ERR_CONNECTION_RESET'))
    errors.splice(0)
  })

  it('refuses invalid input next to the field and fires nothing', async () => {
    const requests = countOptionRequests(page)
    await fill(page, '#requests', '-5')
    await fill(page, '#size', '65')
    await select(page, '#size-unit', 'mb')
    await fill(page, '#delay', 'soon')
    await fill(page, '#repeats', '0')
    await page.click('#run')
    assert.match(await text(page, '#requests-error'), /requests must be an integer 1…10000; got "-5"/)
    assert.match(await text(page, '#size-error'), /size must be 0…67108864 bytes/)
    assert.match(await text(page, '#delay-error'), /delay must be an integer 0…60000 ms; got "soon"/)
    assert.match(await text(page, '#repeats-error'), /repeats must be an integer 1…100/)
    assert.equal(await attr(page, '#requests', 'aria-invalid'), 'true')
    assert.match(await text(page, '#status'), /Nothing was sent/)
    await fill(page, '#requests', '10')
    await fill(page, '#size', '1')
    await fill(page, '#delay', '0')
    await fill(page, '#repeats', '1')
    for (const box of await page.$$('input[name="lane"]')) await setChecked(box, false)
    await page.click('#run')
    assert.match(await text(page, '#lanes-error'), /choose at least one lane/)
    const rejected = await page.evaluate(() => window.h2bench.run({ requests: 10, delay: -1 }).then(() => null, e => e.message))
    assert.match(rejected, /delay must be an integer 0…60000 ms/)
    // Each field valid, together too much for the browser: refused, not attempted.
    await check(page, 'input[name="lane"][value="h2"]')
    await fill(page, '#requests', '10000')
    await fill(page, '#size', '64')
    await page.click('#run')
    assert.match(await text(page, '#size-error'), /10000 × 64 MiB would keep 256 × 64 MiB = 16 GiB in the browser at once .* the limit is 8 GiB in flight/)
    assert.match(await text(page, '#status'), /Nothing was sent/)
    const tooBig = await page.evaluate(() => window.h2bench.run({ requests: 300, size: '64mb', lanes: ['h2n'] }).then(() => null, e => e.message))
    assert.match(tooBig, /requests × size is too large for one batch/)
    assert.equal(await page.evaluate(() => window.h2bench.limits.maxInFlightBytes), 8 * 2 ** 30)
    await sleep(300)
    assert.equal(requests.total, 0)
    assert.equal(await page.evaluate(() => window.__results.length), 0)
  })

  it('Stop aborts the outstanding requests and keeps what was measured', async () => {
    await page.evaluate(() => {
      window.__batches = 0
      window.addEventListener('h2bench:batch', () => window.__batches++)
    })
    await fill(page, '#requests', '5')
    await fill(page, '#delay', '3000')
    await fill(page, '#repeats', '3')
    await check(page, 'input[name="lane"][value="h2"]', false)
    await page.click('#run')
    await page.waitForFunction(() => window.__batches === 1, { timeout: 10000 })
    await sleep(300) // the second lane's batch is now waiting on its 3 s delay
    const stoppedAt = Date.now()
    await page.click('#stop')
    await page.waitForFunction(() => window.__results.length === 1, { timeout: 5000 })
    // Waiting for the server would take ≥ 2.7 s more; a stop answers long before.
    assert.ok(Date.now() - stoppedAt < 2500, 'aborted, not waited for')
    const result = await page.evaluate(() => window.__results[0])
    assert.equal(result.state, 'stopped')
    const [h1, h2n] = result.lanes
    assert.equal(h1.samples.length, 1, 'the finished batch is kept')
    assert.ok(h1.summary.median >= 3000)
    assert.equal(h2n.samples.length, 0)
    assert.equal(h2n.batches[0].state, 'stopped')
    assert.equal(h2n.batches[0].aborted, 5)
    assert.equal(h2n.failures, 0, 'aborted requests are not failures')
    assert.equal(await text(page, '.card[data-lane="h1"] .state'), 'stopped')
    assert.match(await text(page, '.card[data-lane="h1"] .elapsed .value'), /^3\.\d+ s$|^\d{4} ms$/)
    assert.match(await text(page, '#status'), /^Stopped/)
    assert.equal(await disabled(page, '#run'), false)
    assert.equal(await count(page, `#history-table tr[data-run-id="${result.id}"]`), 2)
  })

  it('keeps the history across a reload, exports it as CSV and JSON, and clears it only when confirmed', async () => {
    const result = await runFromForm(page, { requests: 3, size: 1, unit: 'kb', delay: 0, repeats: 1 })
    const shown = await page.$$eval('#history-table tbody tr', trs => trs.map(tr => tr.dataset.runId))
    assert.ok(shown.includes(result.id))
    await page.reload()
    const afterReload = await page.$$eval('#history-table tbody tr', trs => trs.map(tr => tr.dataset.runId))
    assert.deepEqual(afterReload, shown)

    const csvDownload = await download(page, '#export-csv')
    assert.match(csvDownload.suggestedFilename, /^h2bench-history-.*\.csv$/)
    const csv = csvDownload.text.trim().split('\r\n')
    assert.match(csv[0], /^time,runId,lane,label,requests,size,delay,repeats,cold,effectiveType,rtt,downlink,/)
    assert.equal(csv.length - 1, shown.length, 'one CSV row per table row')
    for (const id of new Set(shown)) assert.ok(csv.some(line => line.includes(id)), `run ${id} in the CSV`)
    const mine = csv.filter(line => line.includes(result.id))
    assert.equal(mine.length, 3)
    assert.ok(mine.some(line => /,h1,HTTP\/1\.1 \(node:https\),3,1024,0,1,false,/.test(line)))

    const exported = JSON.parse((await download(page, '#export-json')).text)
    assert.equal(exported.rows.length, shown.length)
    assert.equal(exported.rows.filter(r => r.runId === result.id).length, 3)

    page.once('dialog', d => d.dismiss())
    await page.click('#clear-history')
    assert.equal(await count(page, '#history-table tr[data-run-id]'), shown.length)
    page.once('dialog', d => d.accept())
    await page.click('#clear-history')
    assert.equal(await count(page, '#history-table tr[data-run-id]'), 0)
    await page.reload()
    assert.equal(await count(page, '#history-table tr[data-run-id]'), 0)
  })

  it('is usable from the keyboard: Enter in a field runs, focus is visible', async () => {
    await fill(page, '#requests', '2')
    await fill(page, '#size', '0')
    await fill(page, '#delay', '0')
    await fill(page, '#repeats', '1')
    await page.focus('#repeats')
    await page.keyboard.press('Enter')
    await page.waitForFunction(() => window.__results.length === 1)
    await page.focus('#run')
    const outline = await page.$eval('#run', el => getComputedStyle(el).outlineStyle)
    assert.notEqual(outline, 'none')
    const labels = await page.$$eval('#run-form input[type="text"]', inputs => inputs.map(i => document.querySelector(`label[for="${i.id}"]`) !== null))
    assert.ok(labels.every(Boolean))
  })

  it('keeps keyboard focus on the live button: Space on Run moves it to Stop, Esc stops, focus returns to Run', async () => {
    await fill(page, '#requests', '3')
    await fill(page, '#delay', '5000')
    await fill(page, '#repeats', '2')
    await page.focus('#run')
    await page.keyboard.press('Space')
    await page.waitForFunction(() => document.activeElement && document.activeElement.id === 'stop')
    await page.keyboard.press('Escape')
    await page.waitForFunction(() => window.__results.length === 1, { timeout: 5000 })
    assert.equal(await page.evaluate(() => window.__results[0].state), 'stopped')
    assert.equal(await page.evaluate(() => document.activeElement.id), 'run')
  })
})

describe('the h2bench page when the browser does not trust the certificate', function () {
  this.timeout(30000)
  const servers = useServers({ lanes: NODE_LANES })
  let browser = null
  before(async () => {
    // Another key's hash: Chromium now rejects the lanes' certificate.
    browser = await launchBrowser({ spki: 'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=' })
  })
  after(async () => { if (browser) await browser.close() })

  it('says so, names the lanes, and shows both ways out with the SPKI flag', async () => {
    const { page } = await openPage(browser, `${servers.running.page.url}/`, { expectReady: false })
    await page.waitForSelector('#trust', { visible: true, timeout: 10000 })
    const trust = await text(page, '#trust')
    for (const lane of servers.running.lanes) {
      assert.ok(trust.includes(lane.label), lane.label)
      assert.equal(await count(page, `#trust-links a[href="${lane.url}/"]`), 1)
    }
    assert.ok(trust.includes('npm run chrome'))
    assert.ok(trust.includes(`--ignore-certificate-errors-spki-list=${servers.tls.spki}`))
    // A run fails fast: the warm-up fails with status 0 and no batch is fired.
    const result = await page.evaluate(() => window.h2bench.run({ requests: 5, repeats: 2 }))
    assert.equal(result.state, 'failed')
    for (const lane of result.lanes) {
      assert.equal(lane.state, 'failed')
      assert.equal(lane.unreachable.status, 0)
      assert.equal(lane.batches.length, 0)
    }
    assert.equal(await text(page, '.card[data-lane="h1"] .state'), 'unreachable')
    await page.close()
  })
})

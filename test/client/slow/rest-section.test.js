'use strict'

const assert = require('node:assert/strict')
const { useServers } = require('../../support/servers')
const { LANES } = require('../../../server/lanes')
// The Node lanes; the edge lanes (h3, h2e) on the page: page-h3.test.js.
const NODE_LANES = LANES.filter(l => !l.edge)
const { launchBrowser } = require('../../support/browser')
const { openPage, text, value, attr, disabled, fill: fillField, setChecked, sleep } = require('../../support/page')

// The section "REST API: many small requests or one compound document"
// (client/js/rest-section.js) in Chromium: its form drives h2bench.rest and
// its table says what the result says.
describe('the page: REST API section', function () {
  this.timeout(90000)
  const servers = useServers({ lanes: NODE_LANES })
  let browser = null
  let page = null
  let errors = null
  let apiRequests = 0

  before(async () => { browser = await launchBrowser({ spki: servers.tls.spki, lanes: servers.running.lanes }) })
  after(async () => { if (browser) await browser.close() })
  beforeEach(async () => {
    ({ page, errors } = await openPage(browser, `${servers.running.page.url}/`))
    await page.evaluate(() => {
      window.__rest = { starts: 0, ends: [], progress: 0 }
      window.addEventListener('h2bench:rest-start', () => { window.__rest.starts++ })
      window.addEventListener('h2bench:rest-progress', () => { window.__rest.progress++ })
      window.addEventListener('h2bench:rest-end', e => window.__rest.ends.push(e.detail))
    })
    apiRequests = 0
    page.on('request', r => { if (new URL(r.url()).pathname.startsWith('/api/')) apiRequests++ })
  })
  afterEach(async () => {
    if (page) await page.close()
    assert.deepEqual(errors, [], 'no console errors')
  })

  async function fill ({ items, size = 512, delay = 0, repeats, lanes, scenarios }) {
    await fillField(page, '#rest-items', String(items))
    await fillField(page, '#rest-size', String(size))
    await fillField(page, '#rest-delay', String(delay))
    await fillField(page, '#rest-repeats', String(repeats))
    for (const box of await page.$$('input[name="rest-lane"]')) {
      await setChecked(box, !lanes || lanes.includes(await box.evaluate(b => b.getAttribute('value'))))
    }
    for (const box of await page.$$('input[name="rest-scenario"]')) {
      await setChecked(box, !scenarios || scenarios.includes(await box.evaluate(b => b.getAttribute('value'))))
    }
  }

  const lastResult = () => page.evaluate(() => window.__rest.ends[window.__rest.ends.length - 1])

  // → { lane/scenario: [cell texts] } of the table.
  async function table () {
    const rows = await page.$$eval('#rest-table tbody tr', trs => trs.map(tr => ({
      lane: tr.dataset.lane, scenario: tr.dataset.scenario, status: tr.dataset.status, cells: Array.from(tr.cells).map(td => td.textContent)
    })))
    return rows
  }

  it('runs every scenario on h1 and h2 from its form and shows the counts the result has', async () => {
    const sections = await page.$$eval('main > section', s => s.map(x => x.id))
    assert.equal(sections[sections.indexOf('push') + 1], 'rest', 'after the push section')
    // The defaults: 25 items of 512 B, no delay, 5 repeats, every scenario and lane.
    assert.equal(await value(page, '#rest-items'), '25')
    assert.equal(await value(page, '#rest-size'), '512')
    assert.equal(await value(page, '#rest-delay'), '0')
    assert.equal(await value(page, '#rest-repeats'), '5')
    assert.deepEqual(await page.$$eval('input[name="rest-scenario"]', b => b.map(x => x.value + ':' + x.checked)),
      ['separate:true', 'compound:true', 'cache:true', 'cache-stale:true', 'push:true'])
    assert.deepEqual(await page.$$eval('input[name="rest-lane"]', b => b.map(x => x.value + ':' + x.checked)), ['h1:true', 'h2:true', 'h2n:true'])

    await fill({ items: 5, repeats: 1, lanes: ['h1', 'h2'] })
    await page.click('#rest-run')
    await page.waitForFunction(() => window.__rest.ends.length === 1, { timeout: 60000 })
    const result = await lastResult()
    assert.equal(result.state, 'done')
    assert.deepEqual(result.options, { items: 5, size: 512, delay: 0, repeats: 1, lanes: ['h1', 'h2'], scenarios: ['separate', 'compound', 'cache', 'cache-stale', 'push'] })
    const rows = await table()
    assert.equal(rows.length, 10)
    const cached = Math.round(result.cachedShare * 5)
    assert.equal(cached, 5, 'Math.round(4.5)')
    for (const r of result.rows) {
      const shown = rows.find(x => x.lane === r.lane && x.scenario === r.scenario)
      const name = `${r.lane} ${r.scenario}`
      const [lane, scenario, protocol, median, iqr, visits, requests, push, status] = shown.cells
      assert.equal(r.failures, 0, `${name}: ${JSON.stringify(r.visits)}`)
      assert.equal(r.unproven, 0, name)
      assert.equal(lane, r.label)
      const source = (r.lane === 'h1' ? 'h1' : 'h2') + (r.scenario === 'separate' ? '' : '-' + r.scenario)
      assert.equal(scenario, `${r.scenario} ${source}`)
      assert.equal(r.protocol, r.lane === 'h1' ? 'http/1.1' : 'h2', name)
      assert.equal(protocol, r.protocol)
      assert.match(median, /^\d+(\.\d)? m?s$/, name)
      assert.match(iqr, /^[\d.]+( m?s)?–[\d.]+ m?s$/, name)
      assert.equal(visits, '1 / 1')
      const c = r.counts
      assert.equal(requests, `${c.network} / ${c.cache} / ${c.revalidated} of ${c.requests}`, name)
      assert.equal(status, 'ok', name)
      assert.equal(shown.status, 'ok')
      // What each scenario is: 1 collection + 5 items, or 1 compound document.
      assert.equal(c.requests, r.scenario === 'compound' ? 1 : 6, name)
      if (r.scenario === 'cache') assert.deepEqual([c.cache, c.network, c.revalidated], [cached, 6 - cached, 0], name)
      else if (r.scenario === 'cache-stale') assert.deepEqual([c.cache, c.revalidated], [0, cached], name)
      else assert.deepEqual([c.cache, c.revalidated], [0, 0], name)
      if (r.scenario === 'push') {
        assert.equal(r.pushOutcome, r.lane === 'h1' ? 'unsupported-by-lane' : 'refused-by-client', name)
        assert.equal(push, r.pushOutcome)
      } else {
        assert.equal(push, '—')
      }
    }
    const h2 = s => rows.find(x => x.lane === 'h2' && x.scenario === s).cells
    assert.equal(h2('cache')[6], `1 / ${cached} / 0 of 6`)
    assert.equal(h2('cache-stale')[6].split(' / ')[2], `${cached} of 6`)
    assert.equal(h2('push')[7], 'refused-by-client')
    assert.match(await text(page, '#rest-status'), /^Done in [\d.]+ s: 10 visits\.$/)
    const meta = await text(page, '#rest-meta')
    assert.ok(meta.includes('link: ' + result.link.description), meta)
    assert.ok(meta.includes('browser: ' + result.userAgent), meta)
    assert.equal(await disabled(page, '#rest-run'), false)
    assert.equal(await disabled(page, '#rest-stop'), true)
    assert.equal(await disabled(page, '#run'), false, 'the workload can run again')
  })

  it('shows bad input next to its fields and sends nothing', async () => {
    await fill({ items: 0, size: 100, repeats: 1 })
    await page.click('#rest-run')
    assert.match(await text(page, '#rest-items-error'), /^items must be an integer 1…1000; got "0"$/)
    assert.match(await text(page, '#rest-size-error'), /^size must be an integer 256…65536; got "100"$/)
    assert.equal(await attr(page, '#rest-items', 'aria-invalid'), 'true')
    assert.equal(await attr(page, '#rest-size', 'aria-invalid'), 'true')
    assert.equal(await attr(page, '#rest-repeats', 'aria-invalid'), 'false')
    assert.equal(await text(page, '#rest-repeats-error'), '')
    assert.match(await text(page, '#rest-status'), /^Nothing was sent: fix the fields marked in red\.$/)
    assert.equal(await page.evaluate(() => document.activeElement.id), 'rest-items')
    // No scenario chosen: said at the scenarios.
    for (const box of await page.$$('input[name="rest-scenario"]')) await setChecked(box, false)
    await fillField(page, '#rest-items', '5')
    assert.equal(await text(page, '#rest-items-error'), '', 'typing clears the message')
    await fillField(page, '#rest-size', '512')
    await page.click('#rest-run')
    assert.match(await text(page, '#rest-scenarios-error'), /^scenarios must be a non-empty list of separate, compound, cache, cache-stale, push/)
    assert.equal(await attr(page, '#rest-scenarios', 'aria-invalid'), 'true')
    await sleep(300)
    assert.equal(await page.evaluate(() => window.__rest.starts), 0, 'no run started')
    assert.equal(apiRequests, 0, 'no request to /api')
    assert.equal(await disabled(page, '#rest-run'), false)
  })

  it('waits while the workload above runs, and says so', async () => {
    await page.evaluate(() => { window.__main = window.h2bench.run({ requests: 10, size: 0, delay: 2000, repeats: 3, lanes: ['h2'] }) })
    await page.waitForFunction(() => document.getElementById('rest-run').disabled)
    assert.match(await text(page, '#rest-status'), /^The workload above is running: a REST run can start once it has finished\.$/)
    assert.match(await page.evaluate(() => window.h2bench.rest({ items: 5 }).then(() => 'ran', e => e.message)), /already in progress/)
    await page.evaluate(() => window.h2bench.stop())
    assert.equal(await page.evaluate(() => window.__main.then(r => r.state)), 'stopped')
    await page.waitForFunction(() => !document.getElementById('rest-run').disabled)
    assert.equal(await text(page, '#rest-status'), 'Ready.')
    assert.equal(await page.evaluate(() => window.__rest.starts), 0)
  })

  it('stops a long run: state stopped, the table shows what was measured, the workload waits meanwhile', async () => {
    await fill({ items: 300, repeats: 20, lanes: ['h1', 'h2'] })
    await page.click('#rest-run')
    await page.waitForFunction(() => window.__rest.progress >= 3, { timeout: 30000 })
    assert.match(await text(page, '#rest-status'), /^Visit \d+ of 200: h[12] [a-z-]+ \(/)
    assert.equal(await disabled(page, '#rest-run'), true)
    assert.equal(await disabled(page, '#run'), true, 'the workload\'s Run waits')
    assert.match(await text(page, '#status'), /REST API run \(below\) is in progress/)
    // Through the API, the workload is refused too.
    assert.match(await page.evaluate(() => window.h2bench.run({ requests: 1 }).then(() => 'ran', e => e.message)), /already in progress/)
    const measuredRows = (await table()).filter(r => r.cells[5] !== '0 / 20').length
    assert.ok(measuredRows >= 1, 'rows are drawn as visits end')
    await page.click('#rest-stop')
    await page.waitForFunction(() => window.__rest.ends.length === 1, { timeout: 30000 })
    const result = await lastResult()
    assert.equal(result.state, 'stopped')
    const visits = result.rows.reduce((n, r) => n + r.visits.length, 0)
    assert.ok(visits >= 3 && visits < 200, String(visits))
    const rows = await table()
    assert.equal(rows.length, 10)
    for (const r of result.rows) {
      const cells = rows.find(x => x.lane === r.lane && x.scenario === r.scenario).cells
      assert.equal(cells[5], `${r.samples.length} / 20`)
      if (r.samples.length) assert.match(cells[3], /^\d+(\.\d)? m?s$/)
      else assert.equal(cells[3], '—')
      if (r.visits.length === 0) assert.equal(cells[8], 'not measured (stopped)')
      else if (!r.failures && !r.unproven) assert.equal(cells[8], 'stopped')
    }
    assert.match(await text(page, '#rest-status'), new RegExp(`^Stopped after [\\d.]+ s, ${visits} of 200 visits: what was measured is kept\\.$`))
    await page.waitForFunction(() => !document.getElementById('rest-run').disabled && !document.getElementById('run').disabled)
    assert.equal(await disabled(page, '#rest-stop'), true)
    assert.doesNotMatch(await text(page, '#status'), /REST API run/, 'the workload\'s status is back')
  })
})

'use strict'

const assert = require('node:assert/strict')
const { useServers } = require('../../support/servers')
const { LANES } = require('../../../server/lanes')
// The Node lanes; the edge lanes (h3, h2e) on the page: page-h3.test.js.
const NODE_LANES = LANES.filter(l => !l.edge)
const { launchBrowser } = require('../../support/browser')
const { openPage, text, attr, innerText, disabled, count, fill, select } = require('../../support/page')

describe('the page: Push & Early Hints', function () {
  this.timeout(60000)
  const servers = useServers({ lanes: NODE_LANES })
  let browser = null
  let page = null
  let errors = null
  const popups = []

  before(async () => {
    browser = await launchBrowser({ spki: servers.tls.spki, lanes: servers.running.lanes })
    // Every page of the browser from now on (a window the page opens among them).
    browser.browser.on('targetcreated', target => {
      if (target.type() !== 'page') return
      popups.push(target)
      target.page().then(p => {
        p.on('console', m => { if (m.type() === 'error') errors.push(`popup console: ${m.text()}`) })
        p.on('pageerror', e => errors.push(`popup pageerror: ${e.message}`))
      })
    })
    ;({ page, errors } = await openPage(browser, `${servers.running.page.url}/`))
  })
  after(async () => { if (browser) await browser.close() })
  afterEach(() => assert.deepEqual(errors, [], 'no console errors'))

  async function load (lane, mode, { assets = 3, sizeKb = 20 } = {}) {
    const before = await count(page, '#push-table tbody tr[data-lane]')
    await select(page, '#push-lane', lane)
    await select(page, '#push-mode', mode)
    await fill(page, '#push-assets', String(assets))
    await fill(page, '#push-size', String(sizeKb))
    await page.click('#push-open')
    await page.waitForFunction(n => document.querySelectorAll('#push-table tbody tr[data-lane]').length > n, { timeout: 20000 }, before)
    const row = '#push-table tbody tr[data-lane]' // the first: the newest
    return {
      outcome: await attr(page, row, 'data-outcome'),
      earlyHints: Number(await attr(page, row, 'data-early-hints')),
      text: await innerText(page, row)
    }
  }

  it('loads the asset page as a navigation on h2n with 103 Early Hints, and sees the preloads used', async () => {
    const warm = await load('h2n', 'none') // a fresh profile's first navigation is slow: keep it out of the hints row
    assert.equal(warm.outcome, 'none')
    assert.equal(warm.earlyHints, 0)
    // Chrome marks preloads that came from the 103 with initiatorType
    // "early-hints". It does not always use them (about 1 load in 5 here, the
    // same before this project touched the route: the page's own script
    // requests sometimes win the race), and the page then says "no": up to
    // five loads, every one hinted, one of them seen using the preloads
    // (three were not always enough on a loaded CI machine: 3 of 3 "no" once,
    // with every 103 sent at 18-28 ms).
    const rows = []
    for (let i = 0; i < 5 && !rows.some(r => r.earlyHints >= 1); i++) rows.push(await load('h2n', 'hints'))
    for (const r of rows) {
      assert.equal(r.outcome, 'hints=3')
      assert.match(r.text, /103 sent with 3 preload link\(s\)\t(yes, \d\/3 scripts|no) \(103 at [\d.]+ m?s\)\th2\t/)
    }
    const row = rows.at(-1)
    assert.ok(row.earlyHints >= 1, rows.map(r => r.text).join('\n'))
    assert.match(row.text, /103 sent with 3 preload link\(s\)\tyes, \d\/3 scripts \(103 at [\d.]+ m?s\)\th2\t/)
    const details = '#push-table tbody tr.push-assets' // the first
    await page.locator(`${details} summary`).click()
    assert.match(await innerText(page, details), /\/asset\/\d\.js: early-hints, [\d.]+ m?s → [\d.]+ m?s \([\d.]+ m?s\), h2/)
    assert.match(await text(page, '#push-status'), /^Done: HTTP\/2 \(node:http2\), mode hints, 3\/3 scripts loaded/)
  })

  it('shows push refused by Chrome on h2 and impossible on h1', async () => {
    const h2 = await load('h2', 'push')
    assert.equal(h2.outcome, 'refused-by-client')
    assert.match(h2.text, /push refused by the browser/)
    const h1 = await load('h1', 'push')
    assert.equal(h1.outcome, 'unsupported-by-lane')
    assert.match(h1.text, /http\/1\.1/)
  })

  it('explains and disables hints where the lane cannot send them, with the server\'s own message', async () => {
    const opened = popups.length
    for (const [lane, why] of [['h1', /browsers ignore them over HTTP\/1\.1/], ['h2', /spdy has no HTTP\/2 103/]]) {
      await select(page, '#push-lane', lane)
      await select(page, '#push-mode', 'hints')
      assert.match(await text(page, '#push-mode-error'), why)
      assert.equal(await disabled(page, '#push-open'), true)
    }
    await select(page, '#push-lane', 'h2n')
    assert.equal(await text(page, '#push-mode-error'), '')
    assert.equal(await disabled(page, '#push-open'), false)
    await fill(page, '#push-assets', '0')
    await page.click('#push-open')
    assert.match(await text(page, '#push-assets-error'), /scripts must be an integer 1…100/)
    assert.equal(popups.length, opened, 'no window opened')
  })
})

'use strict'

const assert = require('node:assert/strict')
const { startLinkSession } = require('../../../harness/link-session')
const { unavailableReason } = require('../../../link/namespace')
const { startAll } = require('../../../server/start')
const { parseConfig } = require('../../../server/config')
const { findChrome, INSTALL_HINT } = require('../../../harness/chromium')
const { useServers } = require('../../support/servers')
const { LANES } = require('../../../server/lanes')
// The Node lanes; the edge lanes (h3, h2e) on the page: page-h3.test.js.
const NODE_LANES = LANES.filter(l => !l.edge)
const { testCertificate } = require('../../support/certificate')
const { launchBrowser } = require('../../support/browser')
const { openPage, text, value, attr, disabled, visible, fill, select } = require('../../support/page')
const { SPEC_KEYS } = require('../../../link/spec-keys')

// The page measured on a real packet-level link: Chromium inside the link's
// client namespace, the page server and the lanes on its far side. The page
// shows the link, records it with every result, and changes it from its
// Network panel. No DevTools throttling anywhere: every delay is the link's.

const noChrome = () => findChrome() ? null : `no Chrome or Chromium found: ${INSTALL_HINT}`

function skipUnless (ctx, why) {
  if (!why) return
  process.stdout.write(`      (skipped: ${why})\n`)
  ctx.skip()
}

const linkText = page => text(page, '#link-now')
// Prints the measured medians under the test's title.
const note = result => process.stdout.write(`      · ${result.lanes.map(l => `${l.lane} ${l.summary.median} ms`).join(', ')}\n`)

const WORKLOAD = { requests: 6, size: '10kb', delay: 0, repeats: 1, lanes: ['h1', 'h2', 'h2n'] }

describe('the h2bench page behind a packet-level link (rtt=60ms, then Regular 3G from the page)', function () {
  this.timeout(120000)
  let session = null
  let browser = null
  let page = null
  let errors = null

  before(async function () {
    skipUnless(this, unavailableReason() || noChrome())
    const tls = await testCertificate()
    session = await startLinkSession({ spec: 'rtt=60ms', config: parseConfig([], {}), tls, startAll })
    browser = await launchBrowser({ spki: tls.spki, link: session.opened, lanes: session.running.lanes })
    ;({ page, errors } = await openPage(browser, `${session.running.page.url}/`))
  })
  after(async () => {
    if (browser) await browser.close()
    if (session) await session.close()
  })

  const median = (result, lane) => result.lanes.find(l => l.lane === lane).summary.median

  it('shows the link and its numbers in the Network panel, the presets by group, and the browser\'s estimate apart', async () => {
    await page.waitForFunction(() => document.getElementById('link-now').dataset.mode === 'packet')
    assert.equal(await linkText(page), 'Packet-level link: unlimited rate, 60 ms RTT (spec rtt=60ms)')
    assert.equal(await value(page, '#link-spec'), 'rtt=60ms')
    assert.equal(await attr(page, '#link-spec', 'placeholder'), 'rtt=100ms,down=1.6mbit,loss=1%')
    assert.equal(await value(page, '#link-preset'), '', 'a custom spec: no preset chosen')
    const groups = await page.$$eval('#link-preset optgroup', gs => gs.map(g => [g.label, g.children.length]))
    assert.deepEqual(groups.map(g => g[0]), ['DevTools 2016 presets (as packets)', 'DevTools today (as packets)', 'QUIC article (seed 004) impairments', 'Basic'])
    assert.deepEqual(groups.map(g => g[1]), [8, 3, 7, 2])
    assert.equal(await visible(page, '#link-why'), false)
    assert.match(await text(page, '#network'), /^Network: .*browser’s own estimate/)
  })

  it('records the link with every result; each lane pays at least the link\'s round trip', async () => {
    const result = await page.evaluate(w => window.h2bench.run(w), WORKLOAD)
    note(result)
    assert.equal(result.state, 'done')
    assert.equal(result.link.mode, 'packet')
    assert.equal(result.link.text, 'rtt=60ms')
    assert.equal(result.link.name, null)
    assert.equal(result.link.description, 'unlimited rate, 60 ms RTT')
    assert.deepEqual(result.link, session.control.current())
    for (const lane of result.lanes) {
      assert.equal(lane.failures, 0, lane.lane)
      assert.ok(lane.protocolOk, `${lane.lane} spoke ${lane.protocol}`)
      assert.ok(median(result, lane.lane) >= 60, `${lane.lane}: ${median(result, lane.lane)} ms < one 60 ms round trip`)
    }
    assert.match(await text(page, '#ratios .run-line'), /packet-level link rtt=60ms: unlimited rate, 60 ms RTT · network: /)
    assert.equal(await text(page, `#history-table tr[data-run-id="${result.id}"] td.link`), 'custom: rtt=60ms')
    const rows = await page.evaluate(id => window.h2benchUi.history.load().filter(r => r.runId === id), result.id)
    assert.equal(rows.length, 3)
    for (const r of rows) {
      assert.deepEqual([r.link, r.linkMode, r.linkSpec, r.linkDescription], ['custom: rtt=60ms', 'packet', 'rtt=60ms', 'unlimited rate, 60 ms RTT'])
    }
    assert.match(await page.evaluate(() => window.h2benchUi.history.csv(window.h2benchUi.history.load()).split('\r\n')[0]),
      /,networkSource,link,linkMode,linkSpec,linkDescription,median,/)
  })

  it('changes the link from the page: choose Regular 3G, Apply; the next result records it and is slower', async () => {
    await select(page, '#link-preset', { label: 'Regular 3G' })
    assert.equal(await value(page, '#link-spec'), 'Regular 3G')
    assert.match(await text(page, '#link-preset-what'), /rtt=100ms,down=768000bit,up=256000bit/)
    await page.click('#link-apply')
    await page.waitForFunction(() => /^Packet-level link: Regular 3G: /.test(document.getElementById('link-now').textContent))
    assert.equal(await linkText(page), 'Packet-level link: Regular 3G: 768 kbit/s down, 256 kbit/s up, 100 ms RTT, queue 1000 packets')
    assert.match(await text(page, '#link-status'), /^Changed: the next run is measured on Regular 3G\./)
    assert.equal(session.control.current().name, 'Regular 3G')
    assert.equal(await value(page, '#link-preset'), 'regular-3g')

    // While a run is in progress the link cannot change, from the panel or the API.
    await page.evaluate(w => { window.__run = window.h2bench.run(w) }, WORKLOAD)
    await page.waitForFunction(() => document.getElementById('link-apply').disabled)
    assert.equal(await disabled(page, '#link-spec'), true)
    assert.equal(await disabled(page, '#link-preset'), true)
    assert.match(await text(page, '#link-status'), /Locked while a run is in progress/)
    const refused = await page.evaluate(() => window.h2bench.setLink('rtt=1ms').then(() => null, e => e.message))
    assert.match(refused, /a run is in progress/)
    const result = await page.evaluate(() => window.__run)
    note(result)
    assert.equal(await disabled(page, '#link-apply'), false)
    assert.equal(await text(page, '#link-status'), '')

    assert.equal(result.state, 'done')
    assert.equal(result.link.name, 'Regular 3G')
    assert.equal(result.link.text, 'Regular 3G')
    assert.equal(result.link.down.rateBps, 768000)
    // 60 KB at 768 kbit/s alone is 625 ms, plus a 100 ms round trip.
    assert.ok(median(result, 'h2n') >= 100, `h2n: ${median(result, 'h2n')} ms`)
    assert.ok(median(result, 'h2n') >= 600, `h2n: ${median(result, 'h2n')} ms for 60 KB at 768 kbit/s`)
    assert.equal(await text(page, `#history-table tr[data-run-id="${result.id}"] td.link`), 'Regular 3G')
  })

  it('shows the server\'s error for a bad spec next to the field, and leaves the link as it was', async () => {
    await fill(page, '#link-spec', 'loss=130%')
    assert.equal(await value(page, '#link-preset'), '', 'typing a spec selects Custom')
    await page.click('#link-apply')
    await page.waitForFunction(() => document.getElementById('link-error').textContent !== '')
    const error = await text(page, '#link-error')
    assert.match(error, /loss/)
    assert.match(error, /100 ?%/)
    assert.equal(error, 'loss: 130% is above 100%; allowed: 0…100 %')
    assert.equal(await attr(page, '#link-error', 'aria-live'), 'polite')
    assert.equal(await attr(page, '#link-spec', 'aria-invalid'), 'true')
    assert.match(await text(page, '#link-status'), /Not changed/)
    assert.match(await linkText(page), /^Packet-level link: Regular 3G: /)
    assert.equal(session.control.current().name, 'Regular 3G')
    const state = await page.evaluate(() => window.h2bench.link())
    assert.equal(state.link.name, 'Regular 3G')
    // Typing again clears the error.
    await fill(page, '#link-spec', 'rtt=60ms')
    assert.equal(await text(page, '#link-error'), '')
    assert.equal(await attr(page, '#link-spec', 'aria-invalid'), 'false')
    // The browser logged the 400 of POST /link: this test's own doing.
    assert.deepEqual(errors, ['console: Failed to load resource: the server responded with a status of 400 (Bad Request)'])
    errors.splice(0)
  })

  it('"Add an effect" lists every key of h2bench-link --list but trace; choosing one puts its example into the spec, and Apply takes it', async () => {
    const groups = await page.$$eval('#link-effect optgroup', gs => gs.map(g => [g.label, [...g.children].map(o => o.value)]))
    assert.deepEqual(groups.flatMap(g => g[1]).sort(), SPEC_KEYS.filter(k => k.name !== 'trace').map(k => k.name).sort())
    assert.deepEqual(groups.map(g => g[0]), ['Delay and rate', 'Time schedule', 'Queue', 'Loss', 'Address changes', 'Cross traffic'])
    assert.equal(await value(page, '#link-effect'), '', 'the menu rests on its prompt')
    assert.match(await text(page, '#link-effect option[value="aqm"]'), /^aqm — the bottleneck's queue discipline/)

    await fill(page, '#link-spec', 'rtt=60ms')
    await select(page, '#link-effect', 'aqm')
    assert.equal(await value(page, '#link-spec'), 'rtt=60ms,down=10mbit,aqm.down=codel')
    assert.equal(await value(page, '#link-effect'), '', 'back to its prompt, ready for the next')
    assert.match(await text(page, '#link-effect-what'), /^Added aqm\.down=codel \(with down=10mbit\): the bottleneck's queue discipline .*default droptail; codel 5ms\/100ms, fq_codel 5ms\/100ms, pie 15ms \(Linux's\)/)
    await select(page, '#link-effect', 'ecn')
    await select(page, '#link-effect', 'gemodel')
    const spec = 'rtt=60ms,down=10mbit,aqm.down=codel,ecn.down=on,gemodel.down=2%/25%'
    assert.equal(await value(page, '#link-spec'), spec)
    assert.equal(await value(page, '#link-preset'), '', 'Custom')
    await page.click('#link-apply')
    await page.waitForFunction(() => /CoDel/.test(document.getElementById('link-now').textContent))
    assert.match(await linkText(page), /^Packet-level link: 10 Mbit\/s down, unlimited up, 60 ms RTT, CoDel queue \(target 5 ms, interval 100 ms, 1000 packets\) down, ECN marking down, bursty loss \(Gilbert-Elliott: /)
    assert.equal(session.control.current().text, spec)
    assert.deepEqual(session.control.current().down.aqm, { kind: 'codel', targetUs: 5000, intervalUs: 100000 })

    // On a preset the items it needs come from the preset; the same key twice is replaced, not repeated.
    await select(page, '#link-preset', { label: 'Regular 3G' })
    await select(page, '#link-effect', 'aqm')
    await select(page, '#link-effect', 'aqm')
    assert.equal(await value(page, '#link-spec'), 'Regular 3G,aqm.down=codel')
    await page.click('#link-apply')
    await page.waitForFunction(() => /^Packet-level link: Regular 3G with aqm\.down=codel: /.test(document.getElementById('link-now').textContent))
    assert.deepEqual(errors, [])
  })
})

describe('the h2bench page without a packet-level link', function () {
  this.timeout(60000)
  const servers = useServers({ lanes: NODE_LANES })
  let browser = null
  let page = null
  let errors = null

  before(async function () {
    skipUnless(this, noChrome())
    browser = await launchBrowser({ spki: servers.tls.spki, lanes: servers.running.lanes })
    ;({ page, errors } = await openPage(browser, `${servers.running.page.url}/`))
  })
  after(async () => { if (browser) await browser.close() })

  it('says the page is request-level only, how to get a link and why there is none, and records that with the result', async () => {
    await page.waitForFunction(() => document.getElementById('link-now').dataset.mode === 'request-level')
    assert.equal(await linkText(page), 'Request-level only: use DevTools throttling (Network panel presets) — these delay whole responses, ' +
      'not packets; for a packet-level link start with npm run chrome -- --link "Regular 3G"')
    assert.match(await text(page, '#link-why'), /^Why no link: the page server was started without --link/)
    assert.equal(await visible(page, '#link-form'), false)
    const result = await page.evaluate(() => window.h2bench.run({ requests: 2, size: 0, delay: 0, repeats: 1, lanes: ['h2n'] }))
    assert.deepEqual(result.link, { mode: 'request-level', description: 'no packet-level link (DevTools throttling, if any, is not visible to the page)' })
    assert.match(await text(page, '#ratios .run-line'), / · no packet-level link \(request-level only\) · network: /)
    assert.equal(await text(page, `#history-table tr[data-run-id="${result.id}"] td.link`), 'none (request-level)')
    const refused = await page.evaluate(() => window.h2bench.setLink('rtt=10ms').then(() => null, e => [e.status, e.code, e.message]))
    assert.deepEqual(refused.slice(0, 2), [409, 'H2B_NO_LINK'])
    assert.deepEqual(errors, ['console: Failed to load resource: the server responded with a status of 409 (Conflict)'])
    errors.splice(0)
  })
})


'use strict'

/* global window, document -- the functions passed to page.evaluate/waitForFunction run in the browser */

// Helpers for driving the h2bench page in browser tests.

// A fresh page on the h2bench page server, 1280 wide, that records every
// run's result (window.__results), console errors and page errors, and has
// finished probing the lanes.
async function openPage (browser, url, { expectReady = true } = {}) {
  const page = await browser.context.newPage()
  await page.setViewportSize({ width: 1280, height: 900 })
  const errors = []
  page.on('console', m => { if (m.type() === 'error') errors.push(`console: ${m.text()}`) })
  page.on('pageerror', e => errors.push(`pageerror: ${e.message}`))
  await page.addInitScript(() => {
    window.__results = []
    window.addEventListener('h2bench:end', e => window.__results.push(e.detail))
  })
  await page.goto(url)
  if (expectReady) await waitReady(page)
  return { page, errors }
}

// Every lane card has its probe answer.
function waitReady (page) {
  return page.waitForFunction(() => Array.from(document.querySelectorAll('.card .state'))
    .every(s => s.textContent === 'ready'), null, { timeout: 10000 })
}

// Fills the form, clicks Run and waits for the run's end; → its result.
async function runFromForm (page, { requests, size, unit = 'kb', delay, repeats, lanes, timeout = 30000 }) {
  const before = await page.evaluate(() => window.__results.length)
  await page.fill('#requests', String(requests))
  await page.fill('#size', String(size))
  await page.selectOption('#size-unit', unit)
  await page.fill('#delay', String(delay))
  await page.fill('#repeats', String(repeats))
  if (lanes) {
    for (const box of await page.$$('input[name="lane"]')) {
      await box.setChecked(lanes.includes(await box.getAttribute('value')))
    }
  }
  await page.click('#run')
  await page.waitForFunction(n => window.__results.length > n, before, { timeout })
  return page.evaluate(() => window.__results[window.__results.length - 1])
}

// Counts requests to the lanes' /option route from now on.
function countOptionRequests (page) {
  const counter = { total: 0, byOrigin: {} }
  page.on('request', r => {
    const u = new URL(r.url())
    if (u.pathname !== '/option') return
    counter.total++
    counter.byOrigin[u.origin] = (counter.byOrigin[u.origin] || 0) + 1
  })
  return counter
}

module.exports = { openPage, waitReady, runFromForm, countOptionRequests }

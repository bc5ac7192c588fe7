'use strict'

/* global window, document -- the functions passed to page.evaluate/waitForFunction run in the browser */

// Helpers for driving the h2bench page in browser tests (puppeteer pages).
// The small ones read or set a form field as a user would: each waits for
// its element to be there, as the tests' actions always did.
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')

// A fresh page on the h2bench page server, 1280 wide, that records every
// run's result (window.__results), console errors and page errors, and has
// finished probing the lanes.
async function openPage (browser, url, { expectReady = true } = {}) {
  const page = await browser.context.newPage()
  await page.setViewport({ width: 1280, height: 900 })
  const errors = []
  page.on('console', m => { if (m.type() === 'error') errors.push(`console: ${m.text()}`) })
  page.on('pageerror', e => errors.push(`pageerror: ${e.message}`))
  await page.evaluateOnNewDocument(() => {
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
    .every(s => s.textContent === 'ready'), { timeout: 10000 })
}

// fn(element) of the first element `selector` matches, once there is one.
async function onElement (page, selector, fn, ...args) {
  const el = await page.waitForSelector(selector)
  try {
    return await el.evaluate(fn, ...args)
  } finally {
    await el.dispose()
  }
}

const text = (page, selector) => onElement(page, selector, el => el.textContent)
const innerText = (page, selector) => onElement(page, selector, el => el.innerText)
const value = (page, selector) => onElement(page, selector, el => el.value)
const attr = (page, selector, name) => onElement(page, selector, (el, n) => el.getAttribute(n), name)
const disabled = (page, selector) => onElement(page, selector, el => el.disabled)
// Visible now (a box on the page, not visibility: hidden); false when nothing matches.
async function visible (page, selector) {
  const el = await page.$(selector)
  if (!el) return false
  try {
    return await el.isVisible()
  } finally {
    await el.dispose()
  }
}
const count = (page, selector) => page.$$eval(selector, els => els.length)
const texts = (page, selector) => page.$$eval(selector, els => els.map(el => el.textContent))

// Types `text` into a text field as a user replacing its content would: the
// field focused, its text selected, then the new text inserted (one input
// event), or deleted when `text` is ''.
async function fill (page, selector, text) {
  const el = await page.waitForSelector(selector, { visible: true })
  try {
    await el.evaluate(input => { input.focus(); input.select() })
    if (String(text) === '') await page.keyboard.press('Delete')
    else await page.keyboard.sendCharacter(String(text))
  } finally {
    await el.dispose()
  }
}

// Chooses the option of a <select> with this value, or { label } (input and change events).
async function select (page, selector, option) {
  await page.waitForSelector(selector)
  const wanted = typeof option === 'object'
    ? await page.$eval(selector, (s, label) => (Array.from(s.options).find(o => o.label === label) || {}).value, option.label)
    : option
  if (wanted === undefined) throw new Error(`${selector} has no option labelled ${option.label}`)
  await page.select(selector, wanted)
}

// A checkbox (an element handle) clicked when it is not as wanted.
async function setChecked (box, checked) {
  if (await box.evaluate(b => b.checked) !== checked) await box.click()
  if (await box.evaluate(b => b.checked) !== checked) throw new Error(`the checkbox did not become ${checked ? 'checked' : 'unchecked'}`)
}

// The first checkbox `selector` matches, once there is one, set as wanted.
async function check (page, selector, checked = true) {
  const box = await page.waitForSelector(selector)
  try {
    await setChecked(box, checked)
  } finally {
    await box.dispose()
  }
}

// Fills the form, clicks Run and waits for the run's end; → its result.
async function runFromForm (page, { requests, size, unit = 'kb', delay, repeats, lanes, timeout = 30000 }) {
  const before = await page.evaluate(() => window.__results.length)
  await fill(page, '#requests', String(requests))
  await fill(page, '#size', String(size))
  await select(page, '#size-unit', unit)
  await fill(page, '#delay', String(delay))
  await fill(page, '#repeats', String(repeats))
  if (lanes) {
    for (const box of await page.$$('input[name="lane"]')) {
      await setChecked(box, lanes.includes(await box.evaluate(b => b.getAttribute('value'))))
    }
  }
  await page.click('#run')
  await page.waitForFunction(n => window.__results.length > n, { timeout }, before)
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

// The browser fails every request whose URL `match(url)` holds with `errorCode` (puppeteer's: 'connectionreset' is
// net::ERR_CONNECTION_RESET), as a dropped connection would; every other goes on. Request interception turns the
// page's HTTP cache off meanwhile. → an async function that ends it.
async function failRequests (page, match, errorCode) {
  const onRequest = request => {
    if (request.isInterceptResolutionHandled()) return
    if (match(new URL(request.url()))) request.abort(errorCode)
    else request.continue()
  }
  page.on('request', onRequest)
  await page.setRequestInterception(true)
  return async () => {
    await page.setRequestInterception(false)
    page.off('request', onRequest)
  }
}

// What clicking `selector` downloads: → { suggestedFilename, text } (Chromium's downloads, over the browser's
// DevTools session, into a throw-away folder).
async function download (page, selector) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'h2bench-download-'))
  const cdp = await page.browser().target().createCDPSession()
  try {
    await cdp.send('Browser.setDownloadBehavior', { behavior: 'allowAndName', downloadPath: dir, eventsEnabled: true })
    const begun = new Promise(resolve => cdp.once('Browser.downloadWillBegin', resolve))
    const ended = new Promise((resolve, reject) => cdp.on('Browser.downloadProgress', e => {
      if (e.state === 'completed') resolve(e)
      else if (e.state === 'canceled') reject(new Error(`the download of ${selector} was canceled`))
    }))
    await page.click(selector)
    const { guid, suggestedFilename } = await begun
    await ended
    return { suggestedFilename, text: fs.readFileSync(path.join(dir, guid), 'utf8') }
  } finally {
    await cdp.detach().catch(() => {})
    fs.rmSync(dir, { recursive: true, force: true })
  }
}

const sleep = ms => new Promise(resolve => setTimeout(resolve, ms))

module.exports = {
  openPage,
  waitReady,
  runFromForm,
  countOptionRequests,
  text,
  innerText,
  value,
  attr,
  disabled,
  visible,
  count,
  texts,
  fill,
  select,
  setChecked,
  check,
  failRequests,
  download,
  sleep
}

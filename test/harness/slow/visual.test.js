'use strict'

// Visual metrics of a real load (harness/visual/) in the measuring headless
// Chromium (harness/chromium launchBrowser, its defaults untouched): a page
// this test serves over node:https with the test certificate, whose top is
// a blue block drawn with the document and whose bottom is a red image the
// server holds back DELAY_MS after its request arrives. That request
// arrives after the navigation started, so physics says: no frame before
// DELAY_MS shows the red image, the last visual change is at DELAY_MS or
// later, and Speed Index lies between the first and last visual change.
// The screenshots themselves are decoded and looked at (the blue block, the
// red image), so the frames are this page's, not another's.
const assert = require('node:assert/strict')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const https = require('node:https')
const { createRequire } = require('node:module')
const { launchBrowser } = require('../../support/browser')
const { testCertificate } = require('../../support/certificate')
const { startTrace } = require('../../../harness/visual/trace')
const { visualMetrics } = require('../../../harness/visual/speed-index')
const { writeFilmstrip } = require('../../../harness/visual/filmstrip')

const jpeg = createRequire(require.resolve('speedline-core'))('jpeg-js')

const DELAY_MS = 600
const BLUE = [20, 40, 220]
const RED = [220, 20, 20]
const rgb = c => `rgb(${c.join(',')})`
// the viewport launchBrowser gives every page: 1280 × 720; the blue block its top 300 px, the image the rest
const PAGE = `<!doctype html><html><head><meta charset="utf-8"><title>visual</title></head>
<body style="margin:0;background:#fff"><div style="height:300px;background:${rgb(BLUE)}"></div><img src="/late.svg" width="1280" height="420" style="display:block"></body></html>`
const SVG = `<svg xmlns="http://www.w3.org/2000/svg" width="1280" height="420"><rect width="1280" height="420" fill="${rgb(RED)}"/></svg>`

// The colour of a screenshot at (fx, fy), fractions of its width and height.
function colourAt (jpg, fx, fy) {
  const img = jpeg.decode(jpg)
  const x = Math.floor(img.width * fx)
  const y = Math.floor(img.height * fy)
  const i = (y * img.width + x) * 4
  return [img.data[i], img.data[i + 1], img.data[i + 2]]
}
const near = (a, b) => a.every((v, i) => Math.abs(v - b[i]) <= 40)

describe('visual metrics of a real page load in headless Chromium (harness/visual/)', function () {
  this.timeout(120000)
  let server, launched, dir
  const seen = { imageRequests: 0 }

  before(async () => {
    const tls = await testCertificate()
    server = https.createServer({ key: tls.key, cert: tls.cert }, (req, res) => {
      res.setHeader('cache-control', 'no-store')
      if (req.url === '/late.svg') {
        seen.imageRequests++
        setTimeout(() => {
          res.setHeader('content-type', 'image/svg+xml')
          res.end(SVG)
        }, DELAY_MS)
        return
      }
      if (req.url !== '/') {
        res.statusCode = 404
        return res.end()
      }
      res.setHeader('content-type', 'text/html; charset=utf-8')
      res.end(PAGE)
    })
    await new Promise((resolve, reject) => server.once('error', reject).listen(0, '127.0.0.1', resolve))
    launched = await launchBrowser({ spki: tls.spki, handleSignals: false })
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'h2bench-visual-test-'))
  })

  after(async () => {
    if (launched) await launched.close()
    if (server) {
      server.closeAllConnections()
      await new Promise(resolve => server.close(resolve))
    }
    if (dir) fs.rmSync(dir, { recursive: true, force: true })
  })

  it(`traces the load; the image held back ${DELAY_MS} ms is the last visual change, Speed Index within the changes; the filmstrip written`, async () => {
    const url = `https://127.0.0.1:${server.address().port}/`
    const page = await launched.context.newPage()
    const cdp = await page.createCDPSession()
    const trace = await startTrace(cdp)
    await page.goto(url, { waitUntil: 'load' })
    // the frame that shows the image is drawn after the load event: let a few frames pass, and a little time
    await page.evaluate(() => new Promise(resolve => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(resolve, 300)))))
    const { traceEvents, dataLossOccurred } = await trace.stop()
    await page.close()
    assert.equal(dataLossOccurred, false)
    assert.equal(seen.imageRequests, 1)

    const r = await visualMetrics(traceEvents, { url })
    const summary = `first ${r.firstVisualChangeMs} ms, complete ${r.visuallyCompleteMs} ms, last ${r.lastVisualChangeMs} ms, ` +
      `SI ${r.speedIndexMs} ms, perceptual SI ${r.perceptualSpeedIndexMs} ms, ${r.frames.length} frames at ${r.frames.map(f => Math.round(f.ms)).join(', ')} ms`
    process.stdout.write(`      · ${summary}\n`)
    assert.equal(r.error, null, summary)
    assert.equal(r.timeOrigin.source, 'navigationStart')
    assert.equal(r.timeOrigin.url, url)

    // physics: the image left the server DELAY_MS after its request, which came after the navigation started
    assert.ok(r.lastVisualChangeMs >= DELAY_MS, summary)
    assert.ok(r.visuallyCompleteMs >= DELAY_MS, summary)
    assert.ok(r.firstVisualChangeMs > 0 && r.firstVisualChangeMs <= r.lastVisualChangeMs, summary)
    for (const si of [r.speedIndexMs, r.perceptualSpeedIndexMs]) {
      assert.ok(si >= r.firstVisualChangeMs && si <= r.lastVisualChangeMs, `SI ${si}: ${summary}`)
    }
    for (let i = 1; i < r.frames.length; i++) assert.ok(r.frames[i].ms >= r.frames[i - 1].ms, summary)
    for (const f of r.frames) assert.ok(f.progress >= 0 && f.progress <= 100, summary)

    // the screenshots are this page's: at the end the blue block above the red image; before DELAY_MS never the image
    const last = r.frames[r.frames.length - 1]
    assert.equal(last.progress, 100)
    assert.ok(near(colourAt(last.jpeg, 0.5, 0.2), BLUE), `the last frame's top is ${colourAt(last.jpeg, 0.5, 0.2)}`)
    assert.ok(near(colourAt(last.jpeg, 0.5, 0.8), RED), `the last frame's bottom is ${colourAt(last.jpeg, 0.5, 0.8)}`)
    for (const f of r.frames.filter(f => f.ms < DELAY_MS)) {
      assert.ok(!near(colourAt(f.jpeg, 0.5, 0.8), RED), `the frame at ${f.ms} ms shows the image before the server sent it`)
    }

    // the filmstrip: the frame on screen every 100 ms up to the last change, written as files
    const strip = r.filmstrip(100)
    assert.equal(strip.length, Math.ceil(r.lastVisualChangeMs / 100) + 1)
    for (let i = 1; i < strip.length; i++) assert.ok(strip[i].frameMs >= strip[i - 1].frameMs && strip[i].frameMs <= strip[i].ms)
    assert.deepEqual(strip[strip.length - 1].jpeg, last.jpeg)
    const out = writeFilmstrip(path.join(dir, 'h1'), strip, { label: 'HTTP/1.1 (node:https)' })
    assert.equal(out.files.length, strip.length)
    out.files.forEach((file, i) => assert.deepEqual(fs.readFileSync(file), strip[i].jpeg))
    const md = fs.readFileSync(out.markdownFile, 'utf8')
    assert.equal(md.match(/!\[/g).length, strip.length)
    assert.match(md, /HTTP\/1\.1 \(node:https\)/)
    assert.equal(fs.readFileSync(out.htmlFile, 'utf8').match(/<img /g).length, strip.length)
  })
})
